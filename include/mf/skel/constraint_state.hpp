#pragma once
// Per-instance state of the constraint solvers, held by SkeletonPose and sized when the pose is made.

#include <cstdint>
#include <vector>

namespace mf::skel {

class SkeletonPose;

// Scratch memory of the path constraints, one range of floats per constraint, laid out as: the path's
// world control points (2 per point), its arc-length table (PathCurveSegments per curve segment), and
// the placements along the path (x, y, tangent angle for each constrained bone and one past the last).
struct PathScratch {
  std::vector<float> floats;
  std::vector<std::uint32_t> start;           // per path constraint, into floats
  std::vector<std::uint32_t> point_capacity;  // per path constraint: control points of its largest path
};

// One physics constraint's simulation (physics_constraint.cpp): a damped spring for the bone's origin
// (translation channels, offsets in skeleton-space pixels: simulated − animated position) and one for
// its direction and length (rotate, shear and scale channels: an angle in radians and a relative
// stretch, simulated − animated).
struct PhysicsState {
  bool reset = true;              // start from rest at the next update
  std::uint32_t reset_seen = 0;   // PhysicsPose::reset_count when last seen
  std::uint32_t steps = 0;        // fixed steps taken since the last reset
  float remaining = 0;            // time not yet consumed by fixed steps
  // The constraint's clock: the sum of the deltas of its updates, in float. Each update consumes the
  // clock's advance (not the delta itself), so float rounding spreads the fixed steps over frames the
  // same way for every rig driven by the same deltas.
  float clock = 0;
  float skeleton_x = 0, skeleton_y = 0;  // FrameContext position at the previous update
  float origin_x = 0, origin_y = 0;      // animated bone origin (skeleton space) at the previous update
  float tip_x = 0, tip_y = 0;            // animated bone tip (skeleton space) at the previous update
  float offset_x = 0, offset_y = 0, velocity_x = 0, velocity_y = 0;  // origin spring
  float angle = 0, spin = 0;              // direction spring (radians, radians per second)
  float stretch = 0, stretch_rate = 0;    // length spring (fraction of the bone's length, per second)
};

// Sizes the path scratch for every path constraint of the pose's data (path_constraint.cpp).
void init_path_scratch(SkeletonPose& pose);
// Sizes the physics states (physics_constraint.cpp).
void init_physics_state(SkeletonPose& pose);

}  // namespace mf::skel
