// The update order: one walk over SkeletonData::update_order per frame. Bone steps compute world
// transforms, constraint steps call their solver. The build emits every bone a constraint reads before
// the constraint and every bone it changes again after it, so this walk needs no bookkeeping of its
// own beyond skipping idle bones.

#include <cassert>

#include "mf/skel/constraints.hpp"
#include "mf/skel/world_transform.hpp"

namespace mf::skel {
namespace {

// A bone step. An inactive bone (skin-required, not in the skin) is skipped and recomputed when it
// comes back. An active bone keeps last frame's world transform when its local pose did not change,
// its parent was not recomputed in this walk, and no constraint writes it or an ancestor
// (always_update: a constrained bone's local pose is rewritten by its solver every frame, so the
// comparison would see a change anyway, and its descendants must follow the solved pose).
void bone_step(SkeletonPose& p, int bone) {
  const auto i = static_cast<std::size_t>(bone);
  if (!p.active[i]) {
    p.forget_local(bone);
    p.world_changed[i] = 1;
    return;
  }
  const int parent = p.data().bones.parent[i];
  const bool parent_moved = parent >= 0 && p.world_changed[static_cast<std::size_t>(parent)];
  const bool local_changed = p.remember_local(bone);
  if (!local_changed && !parent_moved && !p.always_update[i]) {
    p.world_changed[i] = 0;
    return;
  }
  update_world_transform(p, bone);
  p.world_changed[i] = 1;
}

}  // namespace

void update_skeleton(SkeletonPose& pose, const FrameContext& context) {
  const SkeletonData& data = pose.data();
  // Constraint ids number the constraint steps in update order (SkeletonData::constraint_steps lists
  // them in that order), so the id of each step is a running count: no lookup per frame.
  std::size_t id = 0;
  for (const UpdateStep& step : data.update_order) {
    if (step.kind == UpdateKind::Bone) {
      bone_step(pose, step.index);
      continue;
    }
    const std::size_t constraint = id++;
    assert(constraint < data.constraint_steps.size() && data.constraint_steps[constraint].kind == step.kind &&
           data.constraint_steps[constraint].index == step.index);
    if (!pose.constraint_active[constraint]) continue;
    switch (step.kind) {
      case UpdateKind::Ik: solve_ik(pose, step.index); break;
      case UpdateKind::Transform: solve_transform(pose, step.index); break;
      case UpdateKind::Path: solve_path(pose, step.index); break;
      case UpdateKind::Physics: solve_physics(pose, step.index, context); break;
      case UpdateKind::Bone: break;
    }
  }
}

}  // namespace mf::skel
