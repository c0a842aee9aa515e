#pragma once
// Constraints and the update order. update_skeleton walks SkeletonData::update_order: each bone step
// computes that bone's world transform (skipping sub-trees that did not change), each constraint step
// solves the constraint when it is active. Solvers read the animated parameters from the pose
// (pose.ik, pose.transform, pose.path, pose.physics), change the local pose of the bones they drive and
// recompute the world transforms they need while solving; the update order recomputes the bones after
// them. Nothing here allocates: scratch memory is sized when the pose is made.

#include "mf/skel/skeleton_pose.hpp"

namespace mf::skel {

enum class PhysicsMode : std::uint8_t {
  Update,  // step the simulation by the frame's delta
  Pose,    // apply the current simulation state without stepping (scrubbing in an editor)
  None,    // physics constraints do nothing
};

// What a frame tells the update order besides the pose.
struct FrameContext {
  float delta = 0;                       // seconds since the previous update
  float skeleton_x = 0, skeleton_y = 0;  // the skeleton's position in its world: movement feeds inertia
  float gravity = 0;                     // added to every physics constraint's gravity (pixels/s², +Y down)
  float wind = 0;                        // added to every physics constraint's wind (pixels/s², +X)
  float physics_mix = 1;                 // global mix of all physics constraints
  PhysicsMode physics = PhysicsMode::Update;
};

// Walks the update order once.
void update_skeleton(SkeletonPose& pose, const FrameContext& context);

void solve_ik(SkeletonPose& pose, int index);
void solve_transform(SkeletonPose& pose, int index);
void solve_path(SkeletonPose& pose, int index);
void solve_physics(SkeletonPose& pose, int index, const FrameContext& context);

// Puts every physics constraint back to its setup state (no motion, no accumulated time).
void reset_physics(SkeletonPose& pose);

}  // namespace mf::skel
