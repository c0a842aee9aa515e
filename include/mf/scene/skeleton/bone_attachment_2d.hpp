#pragma once
// BoneAttachment2D: a Node2D child of a Skeleton2D tied to one of its bones.
//
// Follow mode (OverridePose false, the default): right after the skeleton's pose is computed, before
// PoseUpdated, this node's local transform becomes the bone's world transform in the skeleton node's
// space (mirrors included), so its children (a weapon, a light, a collision shape) follow the bone.
// Without FollowScale the axes are made unit length (rotation, skew and mirror kept, scale dropped).
//
// OverridePose mode: this node's transform drives the bone instead: before the constraints of each
// tick it becomes a world-space bone override (position and rotation, and scale with FollowScale);
// constraints still run after it, so an overridden IK target moves its chain.
//
// The bone is looked up by name when the node enters the tree under a Skeleton2D and whenever that
// skeleton's data changes; bone_index() is −1 while there is no such bone (the node then stays where
// it is). Outside a Skeleton2D parent the node is a plain Node2D.

#include <string>

#include "mf/scene/node_2d.hpp"

namespace mf::scene {

class Skeleton2D;

class BoneAttachment2D : public Node2D {
 public:
  explicit BoneAttachment2D(std::string name, std::string bone = {});
  ~BoneAttachment2D() override;

  void set_bone(std::string bone);
  const std::string& bone() const { return bone_; }
  int bone_index() const { return bone_index_; }
  // Switching from OverridePose to follow clears the bone's override.
  void set_override_pose(bool override_pose);
  bool override_pose() const { return override_pose_; }
  void set_follow_scale(bool follow_scale);
  bool follow_scale() const { return follow_scale_; }

  // The Skeleton2D this node is attached to, or nullptr.
  Skeleton2D* skeleton() const { return skeleton_; }

 protected:
  void on_enter_tree() override;
  void on_exit_tree() override;

 private:
  friend class Skeleton2D;

  void resolve_bone();
  // Follow mode: takes the bone's transform. OverridePose: nothing.
  void sync();
  // OverridePose: hands this node's transform to the skeleton as the bone's override.
  void push_override();
  // Clears the override this node set, if any.
  void release_override();

  std::string bone_;
  Skeleton2D* skeleton_ = nullptr;
  int bone_index_ = -1;
  int overridden_bone_ = -1;  // the bone this node's override is on, −1 none
  bool override_pose_ = false;
  bool follow_scale_ = false;
};

}  // namespace mf::scene
