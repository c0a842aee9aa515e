#include "mf/scene/sprite3d/skeleton_sprite_3d.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "mf/scene/sprite3d/bone_attachment_3d.hpp"

namespace mf::scene {
namespace {

// A 2D affine transform (skeleton space) as a 4×4 acting on the XY plane.
Mat4 plane_matrix(const Affine2& t) {
  Mat4 m = Mat4::identity();
  m.at(0, 0) = t.a;
  m.at(0, 1) = t.b;
  m.at(1, 0) = t.c;
  m.at(1, 1) = t.d;
  m.at(0, 3) = t.x;
  m.at(1, 3) = t.y;
  return m;
}

}  // namespace

SkeletonSprite3D::SkeletonSprite3D(std::string name) : Node3D(std::move(name)), serial_(SkeletonPlayback::next_serial()) {}

SkeletonSprite3D::~SkeletonSprite3D() {
  for (BoneAttachment3D* a : attachments_) a->skeleton_ = nullptr;
}

void SkeletonSprite3D::set_pixel_size(float metres) {
  if (!(metres > 0) || !std::isfinite(metres)) return;
  pixel_size_ = metres;
  if (playback_.skeleton()) sync_attachments();
}

void SkeletonSprite3D::set_flip(bool h, bool v) {
  if (h == flip_h_ && v == flip_v_) return;
  flip_h_ = h;
  flip_v_ = v;
  if (playback_.skeleton()) sync_attachments();
}

Mat4 SkeletonSprite3D::sprite_scale() const {
  return Mat4::scale({pixel_size_ * (flip_h_ ? -1.0f : 1.0f), -pixel_size_ * (flip_v_ ? -1.0f : 1.0f), pixel_size_});
}

Mat4 SkeletonSprite3D::skeleton_transform() const { return global_transform() * sprite_scale(); }

Mat4 SkeletonSprite3D::bone_global_transform(int bone) const { return skeleton_transform() * plane_matrix(bone_transform(bone)); }

render::SpriteDrawOptions SkeletonSprite3D::sprite_options() const {
  render::SpriteDrawOptions o;
  // The renderer applies the pixel size, the Y mirror and the flips itself (the flips after a
  // billboard turn, so they survive it).
  o.transform = global_transform();
  o.flip_h = flip_h_;
  o.flip_v = flip_v_;
  o.pixel_size = pixel_size_;
  o.billboard = billboard_;
  o.shaded = shaded_;
  o.double_sided = double_sided_ || flip_h_ != flip_v_;  // a single mirror shows the back face
  o.alpha_cutoff = alpha_cutoff_;
  o.slot_depth_offset = slot_depth_offset_;
  o.object_id = object_id_;
  o.casts_shadows = casts_shadows_;
  o.cull_bounds = cull_bounds();
  return o;
}

// The node's origin in skeleton pixels: its movement in the sprite plane is what the physics
// constraints feel.
Vec2 SkeletonSprite3D::physics_position() const {
  const Mat4 t = skeleton_transform();
  Mat4 linear = t;
  linear.at(0, 3) = linear.at(1, 3) = linear.at(2, 3) = 0;
  const Vec3 p = linear.inverse().transform_vector(t.column3(3));
  return {p.x, p.y};
}

void SkeletonSprite3D::on_enter_tree() {
  playback_.forget_position();
  playback_.set_audio(EventAudioService::find(*this));
}

void SkeletonSprite3D::on_exit_tree() { playback_.set_audio(nullptr); }

void SkeletonSprite3D::on_process(float delta) {
  if (playback_.update_mode == SkeletonUpdateMode::Process) playback_.tick(delta);
}

void SkeletonSprite3D::on_physics_process(float step) {
  if (playback_.update_mode == SkeletonUpdateMode::Physics) playback_.tick(step);
}

void SkeletonSprite3D::data_changed() {
  for (BoneAttachment3D* a : attachments_) {
    a->overridden_bone_ = -1;
    a->resolve_bone();
  }
  sync_attachments();
}

void SkeletonSprite3D::attach(BoneAttachment3D* attachment) {
  if (std::find(attachments_.begin(), attachments_.end(), attachment) == attachments_.end()) attachments_.push_back(attachment);
  attachment->resolve_bone();
  if (playback_.skeleton()) attachment->sync();
}

void SkeletonSprite3D::detach(BoneAttachment3D* attachment) {
  auto it = std::find(attachments_.begin(), attachments_.end(), attachment);
  if (it == attachments_.end()) return;
  attachment->release_override();
  attachments_.erase(it);
}

void SkeletonSprite3D::before_pose() {
  for (BoneAttachment3D* a : attachments_) a->push_override();
}

void SkeletonSprite3D::after_pose() { sync_attachments(); }

void SkeletonSprite3D::sync_attachments() {
  for (BoneAttachment3D* a : attachments_) a->sync();
}

}  // namespace mf::scene
