#pragma once
// RigOutline: the rig's source model as the Hierarchy panel shows it: bones as a tree (roots in file
// order, children in file order) with each bone's slots under it (in draw order). Made once when a rig
// opens, so the panel walks it without allocating per frame.

#include <vector>

#include "mf/offline/format/skeleton_model.hpp"

namespace mf::editor {

struct RigOutline {
  std::vector<int> roots;                        // bones without a parent
  std::vector<std::vector<int>> child_bones;     // per bone
  std::vector<std::vector<int>> bone_slots;      // per bone: the slots on it

  static RigOutline of(const offline::SkeletonSource& skeleton);
  // Bones from `bone` up to its root, the bone itself first; empty for an index out of range.
  static std::vector<int> ancestry(const offline::SkeletonSource& skeleton, int bone);
};

}  // namespace mf::editor
