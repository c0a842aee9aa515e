#pragma once
// SkeletonNode: what every node that plays a skeleton (Skeleton2D, SkeletonSprite3D) shows of its
// playback to tools that work across the tree without knowing the node's kind, such as live reload
// moving every node that shows a rig onto its new build.

#include "mf/scene/skeleton/skeleton_playback.hpp"

namespace mf::scene {

class SkeletonNode {
 public:
  virtual SkeletonPlayback& playback() = 0;
  virtual const SkeletonPlayback& playback() const = 0;

 protected:
  ~SkeletonNode() = default;
};

}  // namespace mf::scene
