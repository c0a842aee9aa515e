#pragma once
// BoneAttachment3D: a Node3D child of a SkeletonSprite3D tied to one of its bones, in the sprite's
// plane. As BoneAttachment2D: follow mode (after the pose, before PoseUpdated, the node's local
// transform becomes the bone's, through the sprite's pixel size, Y mirror and flips; without
// FollowScale the axes are made unit length, so children keep metres) or OverridePose (the node's
// transform, brought back into skeleton pixels, drives the bone as a world-space override before the
// constraints; only its in-plane position and rotation count).

#include <string>

#include "mf/scene/node_3d.hpp"

namespace mf::scene {

class SkeletonSprite3D;

class BoneAttachment3D : public Node3D {
 public:
  explicit BoneAttachment3D(std::string name, std::string bone = {});
  ~BoneAttachment3D() override;

  void set_bone(std::string bone);
  const std::string& bone() const { return bone_; }
  int bone_index() const { return bone_index_; }
  void set_override_pose(bool override_pose);
  bool override_pose() const { return override_pose_; }
  void set_follow_scale(bool follow_scale);
  bool follow_scale() const { return follow_scale_; }
  SkeletonSprite3D* skeleton() const { return skeleton_; }

 protected:
  void on_enter_tree() override;
  void on_exit_tree() override;

 private:
  friend class SkeletonSprite3D;

  void resolve_bone();
  void sync();
  void push_override();
  void release_override();

  std::string bone_;
  SkeletonSprite3D* skeleton_ = nullptr;
  int bone_index_ = -1;
  int overridden_bone_ = -1;
  bool override_pose_ = false;
  bool follow_scale_ = false;
};

}  // namespace mf::scene
