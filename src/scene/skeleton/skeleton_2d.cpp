#include "mf/scene/skeleton/skeleton_2d.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include "mf/scene/skeleton/bone_attachment_2d.hpp"

namespace mf::scene {
namespace {

void include(Bounds& into, Vec2 p) {
  into.min_x = std::min(into.min_x, p.x);
  into.min_y = std::min(into.min_y, p.y);
  into.max_x = std::max(into.max_x, p.x);
  into.max_y = std::max(into.max_y, p.y);
}

}  // namespace

Skeleton2D::Skeleton2D(std::string name) : Node2D(std::move(name)), serial_(SkeletonPlayback::next_serial()) {}

Skeleton2D::~Skeleton2D() {
  for (BoneAttachment2D* a : attachments_) a->skeleton_ = nullptr;
}

Bounds Skeleton2D::to_canvas(const Bounds& b) const {
  if (b.empty()) return b;
  const Affine2 t = skeleton_transform();
  const Vec2 first = t.apply({b.min_x, b.min_y});
  Bounds out{first.x, first.y, first.x, first.y};
  include(out, t.apply({b.max_x, b.min_y}));
  include(out, t.apply({b.min_x, b.max_y}));
  include(out, t.apply({b.max_x, b.max_y}));
  return out;
}

void Skeleton2D::set_flip(bool h, bool v) {
  if (h == flip_h_ && v == flip_v_) return;
  flip_h_ = h;
  flip_v_ = v;
  // The attachments' transforms are relative to this node and include the mirror.
  if (animated()) sync_attachments();
}

// The node's position expressed in skeleton units, so that its movement between ticks is the movement
// the constraints feel (scale and mirror included).
Vec2 Skeleton2D::physics_position() const {
  const Affine2 t = skeleton_transform();
  const Affine2 linear{t.a, t.b, t.c, t.d, 0, 0};
  const std::optional<Affine2> inverse = linear.inverse();
  return inverse ? inverse->apply(t.origin()) : t.origin();
}

void Skeleton2D::on_enter_tree() {
  playback_.forget_position();
  playback_.set_audio(EventAudioService::find(*this));
}

void Skeleton2D::on_exit_tree() { playback_.set_audio(nullptr); }

void Skeleton2D::on_process(float delta) {
  if (playback_.update_mode == SkeletonUpdateMode::Process) playback_.tick(delta);
}

void Skeleton2D::on_physics_process(float step) {
  if (playback_.update_mode == SkeletonUpdateMode::Physics) playback_.tick(step);
}

// ---- bone attachments ----------------------------------------------------------------------------

void Skeleton2D::data_changed() {
  for (BoneAttachment2D* a : attachments_) {
    a->overridden_bone_ = -1;  // the overrides belonged to the previous runtime skeleton
    a->resolve_bone();
  }
  sync_attachments();
}

void Skeleton2D::attach(BoneAttachment2D* attachment) {
  if (std::find(attachments_.begin(), attachments_.end(), attachment) == attachments_.end()) attachments_.push_back(attachment);
  attachment->resolve_bone();
  if (animated()) attachment->sync();
}

void Skeleton2D::detach(BoneAttachment2D* attachment) {
  auto it = std::find(attachments_.begin(), attachments_.end(), attachment);
  if (it == attachments_.end()) return;
  attachment->release_override();
  attachments_.erase(it);
}

void Skeleton2D::before_pose() {
  for (BoneAttachment2D* a : attachments_) a->push_override();
}

void Skeleton2D::after_pose() { sync_attachments(); }

void Skeleton2D::sync_attachments() {
  for (BoneAttachment2D* a : attachments_) a->sync();
}

}  // namespace mf::scene
