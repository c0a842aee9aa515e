#include "mf/scene/skeleton/bone_attachment_2d.hpp"

#include <cmath>
#include <numbers>
#include <optional>
#include <utility>

#include "mf/scene/skeleton/skeleton_2d.hpp"

namespace mf::scene {
namespace {

constexpr float kDegrees = 180.0f / std::numbers::pi_v<float>;

}  // namespace

BoneAttachment2D::BoneAttachment2D(std::string name, std::string bone) : Node2D(std::move(name)), bone_(std::move(bone)) {}

BoneAttachment2D::~BoneAttachment2D() {
  if (skeleton_) skeleton_->detach(this);
}

void BoneAttachment2D::set_bone(std::string bone) {
  release_override();
  bone_ = std::move(bone);
  resolve_bone();
  sync();
}

void BoneAttachment2D::set_override_pose(bool override_pose) {
  if (override_pose_ == override_pose) return;
  override_pose_ = override_pose;
  if (!override_pose_) {
    release_override();
    sync();
  }
}

void BoneAttachment2D::set_follow_scale(bool follow_scale) {
  follow_scale_ = follow_scale;
  sync();
}

void BoneAttachment2D::on_enter_tree() {
  if (auto* s = dynamic_cast<Skeleton2D*>(parent())) {
    skeleton_ = s;
    s->attach(this);
  }
}

void BoneAttachment2D::on_exit_tree() {
  if (skeleton_) skeleton_->detach(this);
  skeleton_ = nullptr;
  bone_index_ = -1;
}

void BoneAttachment2D::resolve_bone() { bone_index_ = skeleton_ ? skeleton_->find_bone(bone_) : -1; }

void BoneAttachment2D::sync() {
  if (!skeleton_ || override_pose_ || bone_index_ < 0 || !skeleton_->pose()) return;
  Affine2 t = skeleton_->flip() * skeleton_->bone_transform(bone_index_);
  if (!follow_scale_) {
    const float sx = std::hypot(t.a, t.c), sy = std::hypot(t.b, t.d);
    if (sx > 0) {
      t.a /= sx;
      t.c /= sx;
    }
    if (sy > 0) {
      t.b /= sy;
      t.d /= sy;
    }
  }
  set_transform(t);
}

void BoneAttachment2D::push_override() {
  if (!skeleton_ || !override_pose_ || bone_index_ < 0) return;
  if (overridden_bone_ >= 0 && overridden_bone_ != bone_index_) release_override();
  // This node's transform is in the skeleton node's space; the pose's is that without the mirror.
  const Affine2 t = skeleton_->flip() * transform();
  skel::BoneOverride o;
  o.space = skel::BoneOverrideSpace::World;
  o.x = t.x;
  o.y = t.y;
  o.rotation = std::atan2(t.c, t.a) * kDegrees;
  o.scale_x = std::hypot(t.a, t.c);
  o.scale_y = std::hypot(t.b, t.d);
  o.channels = skel::kOverrideRotation | skel::kOverrideTranslation | (follow_scale_ ? skel::kOverrideScale : 0);
  skeleton_->set_bone_override(bone_index_, o);
  overridden_bone_ = bone_index_;
}

void BoneAttachment2D::release_override() {
  if (skeleton_ && overridden_bone_ >= 0) skeleton_->clear_bone_override(overridden_bone_);
  overridden_bone_ = -1;
}

}  // namespace mf::scene
