#include "rig_outline.hpp"

namespace mf::editor {

RigOutline RigOutline::of(const offline::SkeletonSource& skeleton) {
  RigOutline out;
  const std::size_t n = skeleton.bones.size();
  out.child_bones.resize(n);
  out.bone_slots.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int parent = skeleton.bones[i].parent;
    if (parent >= 0 && static_cast<std::size_t>(parent) < n) out.child_bones[static_cast<std::size_t>(parent)].push_back(static_cast<int>(i));
    else out.roots.push_back(static_cast<int>(i));
  }
  for (std::size_t s = 0; s < skeleton.slots.size(); ++s) {
    const int bone = skeleton.slots[s].bone;
    if (bone >= 0 && static_cast<std::size_t>(bone) < n) out.bone_slots[static_cast<std::size_t>(bone)].push_back(static_cast<int>(s));
  }
  return out;
}

std::vector<int> RigOutline::ancestry(const offline::SkeletonSource& skeleton, int bone) {
  std::vector<int> out;
  // Parents have lower indices than their children (the format's rule), so this ends.
  while (bone >= 0 && static_cast<std::size_t>(bone) < skeleton.bones.size()) {
    out.push_back(bone);
    const int parent = skeleton.bones[static_cast<std::size_t>(bone)].parent;
    if (parent >= bone) break;
    bone = parent;
  }
  return out;
}

}  // namespace mf::editor
