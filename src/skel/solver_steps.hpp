#pragma once
// Internal: constraint solvers as the update order calls them.

#include "mf/skel/skeleton_pose.hpp"

namespace mf::skel::detail {

// solve_ik (constraints.hpp). With recompute_world false the bones it changes keep their old world
// transforms for the update order's bone steps to recompute: only for an IK step the pose found the
// order does that for (SkeletonPose::ik_world_deferred).
void solve_ik(SkeletonPose& pose, int index, bool recompute_world);

}  // namespace mf::skel::detail
