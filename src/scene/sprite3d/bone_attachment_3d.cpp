#include "mf/scene/sprite3d/bone_attachment_3d.hpp"

#include <cmath>
#include <numbers>
#include <utility>

#include "mf/scene/sprite3d/skeleton_sprite_3d.hpp"

namespace mf::scene {
namespace {

constexpr float kDegrees = 180.0f / std::numbers::pi_v<float>;

}  // namespace

BoneAttachment3D::BoneAttachment3D(std::string name, std::string bone) : Node3D(std::move(name)), bone_(std::move(bone)) {}

BoneAttachment3D::~BoneAttachment3D() {
  if (skeleton_) skeleton_->detach(this);
}

void BoneAttachment3D::set_bone(std::string bone) {
  release_override();
  bone_ = std::move(bone);
  resolve_bone();
  sync();
}

void BoneAttachment3D::set_override_pose(bool override_pose) {
  if (override_pose_ == override_pose) return;
  override_pose_ = override_pose;
  if (!override_pose_) {
    release_override();
    sync();
  }
}

void BoneAttachment3D::set_follow_scale(bool follow_scale) {
  follow_scale_ = follow_scale;
  sync();
}

void BoneAttachment3D::on_enter_tree() {
  if (auto* s = dynamic_cast<SkeletonSprite3D*>(parent())) {
    skeleton_ = s;
    s->attach(this);
  }
}

void BoneAttachment3D::on_exit_tree() {
  if (skeleton_) skeleton_->detach(this);
  skeleton_ = nullptr;
  bone_index_ = -1;
}

void BoneAttachment3D::resolve_bone() { bone_index_ = skeleton_ ? skeleton_->find_bone(bone_) : -1; }

void BoneAttachment3D::sync() {
  if (!skeleton_ || override_pose_ || bone_index_ < 0 || !skeleton_->pose()) return;
  const Affine2 b = skeleton_->bone_transform(bone_index_);
  Mat4 bone = Mat4::identity();
  bone.at(0, 0) = b.a;
  bone.at(0, 1) = b.b;
  bone.at(1, 0) = b.c;
  bone.at(1, 1) = b.d;
  bone.at(0, 3) = b.x;
  bone.at(1, 3) = b.y;
  Mat4 t = skeleton_->sprite_scale() * bone;
  if (!follow_scale_) {
    for (int c = 0; c < 3; ++c) {
      const float l = length(t.column3(c));
      if (l > 0)
        for (int r = 0; r < 3; ++r) t.at(r, c) /= l;
    }
  }
  set_transform(t);
}

void BoneAttachment3D::push_override() {
  if (!skeleton_ || !override_pose_ || bone_index_ < 0) return;
  if (overridden_bone_ >= 0 && overridden_bone_ != bone_index_) release_override();
  // This node's transform in the sprite node's space, back in skeleton pixels.
  const Mat4 t = skeleton_->sprite_scale().inverse() * transform();
  skel::BoneOverride o;
  o.space = skel::BoneOverrideSpace::World;
  o.x = t.at(0, 3);
  o.y = t.at(1, 3);
  o.rotation = std::atan2(t.at(1, 0), t.at(0, 0)) * kDegrees;
  o.scale_x = std::hypot(t.at(0, 0), t.at(1, 0));
  o.scale_y = std::hypot(t.at(0, 1), t.at(1, 1));
  o.channels = skel::kOverrideRotation | skel::kOverrideTranslation | (follow_scale_ ? skel::kOverrideScale : 0);
  skeleton_->set_bone_override(bone_index_, o);
  overridden_bone_ = bone_index_;
}

void BoneAttachment3D::release_override() {
  if (skeleton_ && overridden_bone_ >= 0) skeleton_->clear_bone_override(overridden_bone_);
  overridden_bone_ = -1;
}

}  // namespace mf::scene
