// Physics constraints: secondary motion (hair, cloth, tails) as two damped springs per constrained
// bone, simulated in skeleton space at a fixed step.
//
// The origin spring drives the translation channels: its offset is where the bone's origin is
// simulated to be, minus where the animation puts it. The tip spring drives rotation, scale and
// shear: the bone's tip (origin + length along the bone's world X axis) is simulated as a mass on a
// spring towards the animated tip, and the bone turns (rotate), stretches (scale X) and skews (shear X)
// towards the simulated tip, measured from the animated origin. A bone of zero length has no tip, so
// only its translation channels act.
//
// Each update (PhysicsMode::Update):
//   1. A change of reset_count, a reset_physics() call or the skeleton's position jumping further than
//      PhysicsData::limit since the previous update puts the constraint at rest (no offsets, no
//      velocity, no remaining time) and records the animated positions; that frame's delta is dropped.
//   2. Inertia: the animated origin and tip moved by Δ since the previous update (in the skeleton's
//      world: the bone's movement in skeleton space plus the skeleton's own movement); the simulated
//      points stay behind by inertia·Δ, so offset −= inertia·Δ. This is kinematic (no force, no mass).
//   3. Fixed steps: delta accumulates in remaining; while remaining ≥ step, one semi-implicit Euler
//      step of both springs, at most 4 per update, after which any remaining time is dropped:
//        v = (v + (−k·o + g)·dt)·e^(−c·dt),   o = o + v·dt
//      with k = strength·mass_inverse (capped at 1/dt², well inside the step's stability limit of 4/dt²),
//      c = 10·damping per second (drag), and g = (wind, gravity) accelerations in pixels/s² (the
//      constraint's own plus FrameContext's; +X and +Y down). At rest under gravity the offset is
//      g/k: a heavier bone sags further and swings slower.
//   4. Apply, with m = PhysicsPose::mix · FrameContext::physics_mix (nothing when m = 0):
//        origin  += (offset_x·x, offset_y·y)·m                  (skeleton space, into the local x, y)
//        rotation += angle(animated tip, simulated tip)·rotate·m  (degrees, seen from the animated origin)
//        shear X  += the same angle·shear_x·m
//        scale X  ·= 1 + (|simulated tip − origin| / |animated tip − origin| − 1)·scale_x·m
//      A channel value of 0 turns that channel off.
//      The angles turn the local values by the world angle, with its sign flipped under a reflecting
//      parent frame (exact for parents without non-uniform scale). Then the bone's world transform is
//      recomputed; its descendants follow in the update order.
// PhysicsMode::Pose applies the current offsets to the current animated pose without touching the
// state (scrubbing); PhysicsMode::None does nothing.
//
// Deterministic: the same inputs give the same floats. Nothing allocates.

#include <algorithm>
#include <cmath>

#include "mf/core/math/angle.hpp"
#include "mf/skel/constraints.hpp"
#include "mf/skel/world_transform.hpp"

namespace mf::skel {
namespace {

constexpr int kMaxStepsPerUpdate = 4;
constexpr float kDefaultStep = 1.0f / 60.0f;
constexpr float kDampingRate = 10.0f;  // drag per second at damping 1
constexpr float kTiny = 1e-12f;

// The animated bone in skeleton space, read from its world transform.
struct Anchor {
  float origin_x, origin_y;
  float axis_x, axis_y;  // origin → tip: the bone's length along its world X axis
};

Anchor read_anchor(const SkeletonPose& pose, int bone) {
  const auto i = static_cast<std::size_t>(bone);
  const float length = pose.data().bones.length[i];
  return {pose.world_x[i], pose.world_y[i], pose.a[i] * length, pose.c[i] * length};
}

// One update's spring parameters (the animated parameters are constant within an update).
struct Spring {
  float dt, stiffness, drag, accel_x, accel_y;
};

Spring make_spring(const PhysicsPose& p, const FrameContext& context, float dt) {
  const float mass_inverse = std::max(p.mass_inverse, 0.0f);
  const float stiffness = std::min(std::max(p.strength, 0.0f) * mass_inverse, 1.0f / (dt * dt));
  const float drag = std::exp(-std::max(p.damping, 0.0f) * kDampingRate * dt);
  return {dt, stiffness, drag, p.wind + context.wind, p.gravity + context.gravity};
}

void step_spring(const Spring& s, float& ox, float& oy, float& vx, float& vy) {
  vx = (vx + (s.accel_x - s.stiffness * ox) * s.dt) * s.drag;
  vy = (vy + (s.accel_y - s.stiffness * oy) * s.dt) * s.drag;
  ox += vx * s.dt;
  oy += vy * s.dt;
}

void to_rest(PhysicsState& s) {
  s.remaining = 0;
  s.steps = 0;
  s.offset_x = s.offset_y = s.velocity_x = s.velocity_y = 0;
  s.tip_offset_x = s.tip_offset_y = s.tip_velocity_x = s.tip_velocity_y = 0;
}

void remember(PhysicsState& s, const Anchor& anchor, const FrameContext& context) {
  s.skeleton_x = context.skeleton_x;
  s.skeleton_y = context.skeleton_y;
  s.origin_x = anchor.origin_x;
  s.origin_y = anchor.origin_y;
  s.tip_x = anchor.origin_x + anchor.axis_x;
  s.tip_y = anchor.origin_y + anchor.axis_y;
}

void advance(PhysicsState& s, const PhysicsData& c, const PhysicsPose& p, const Anchor& anchor,
             const FrameContext& context) {
  if (p.reset_count != s.reset_seen) {
    s.reset_seen = p.reset_count;
    s.reset = true;
  }
  const float moved_x = context.skeleton_x - s.skeleton_x, moved_y = context.skeleton_y - s.skeleton_y;
  if (!s.reset && std::hypot(moved_x, moved_y) > c.limit) s.reset = true;
  if (s.reset) {
    to_rest(s);
    s.reset = false;
    remember(s, anchor, context);
    return;
  }

  // Inertia: the simulated points keep their place in the world while the animation moves.
  const float tip_x = anchor.origin_x + anchor.axis_x, tip_y = anchor.origin_y + anchor.axis_y;
  s.offset_x -= p.inertia * (anchor.origin_x - s.origin_x + moved_x);
  s.offset_y -= p.inertia * (anchor.origin_y - s.origin_y + moved_y);
  s.tip_offset_x -= p.inertia * (tip_x - s.tip_x + moved_x);
  s.tip_offset_y -= p.inertia * (tip_y - s.tip_y + moved_y);
  remember(s, anchor, context);

  const float dt = c.step > 0 ? c.step : kDefaultStep;
  if (context.delta > 0) s.remaining += context.delta;
  if (s.remaining < dt) return;
  const Spring spring = make_spring(p, context, dt);
  for (int n = 0; n < kMaxStepsPerUpdate && s.remaining >= dt; ++n) {
    step_spring(spring, s.offset_x, s.offset_y, s.velocity_x, s.velocity_y);
    step_spring(spring, s.tip_offset_x, s.tip_offset_y, s.tip_velocity_x, s.tip_velocity_y);
    s.remaining -= dt;
    ++s.steps;
  }
  if (s.remaining >= dt) s.remaining = 0;  // over the cap: the rest of the frame is dropped
}

// +1, or −1 when the frame the bone's local pose sits in (its world 2×2 with the local matrix taken
// out) reflects, so a clockwise world angle is an anticlockwise local one.
float frame_sign(const SkeletonPose& pose, std::size_t i) {
  const float world_det = pose.a[i] * pose.d[i] - pose.b[i] * pose.c[i];
  const float local_det =
      pose.scale_x[i] * pose.scale_y[i] * std::cos((pose.shear_y[i] - pose.shear_x[i]) * kDegToRad);
  return (world_det < 0) != (local_det < 0) ? -1.0f : 1.0f;
}

void apply(SkeletonPose& pose, int bone, const PhysicsData& c, const PhysicsState& s, const Anchor& anchor,
           float mix) {
  const auto i = static_cast<std::size_t>(bone);
  bool changed = false;
  if (c.x != 0 || c.y != 0) {
    const float wx = s.offset_x * c.x * mix, wy = s.offset_y * c.y * mix;
    const int parent = pose.data().bones.parent[i];
    if (parent < 0) {
      pose.x[i] += wx;
      pose.y[i] += wy;
      changed = true;
    } else {
      // The world origin is the parent's world transform applied to the local translation.
      const auto q = static_cast<std::size_t>(parent);
      const float det = pose.a[q] * pose.d[q] - pose.b[q] * pose.c[q];
      if (std::abs(det) > kTiny) {
        pose.x[i] += (pose.d[q] * wx - pose.b[q] * wy) / det;
        pose.y[i] += (pose.a[q] * wy - pose.c[q] * wx) / det;
        changed = true;
      }
    }
  }
  const float length = std::hypot(anchor.axis_x, anchor.axis_y);
  if ((c.rotate != 0 || c.shear_x != 0 || c.scale_x != 0) && length > kTiny) {
    const float tx = anchor.axis_x + s.tip_offset_x, ty = anchor.axis_y + s.tip_offset_y;
    const float angle = std::atan2(anchor.axis_x * ty - anchor.axis_y * tx, anchor.axis_x * tx + anchor.axis_y * ty) *
                        kRadToDeg * frame_sign(pose, i);
    if (c.rotate != 0) pose.rotation[i] += angle * c.rotate * mix;
    if (c.shear_x != 0) pose.shear_x[i] += angle * c.shear_x * mix;
    if (c.scale_x != 0) pose.scale_x[i] *= 1 + (std::hypot(tx, ty) / length - 1) * c.scale_x * mix;
    changed = true;
  }
  if (changed) update_world_transform(pose, bone);
}

}  // namespace

void init_physics_state(SkeletonPose& pose) {
  pose.physics_state.assign(pose.data().physics.size(), PhysicsState{});
  for (std::size_t i = 0; i < pose.physics_state.size() && i < pose.physics.size(); ++i)
    pose.physics_state[i].reset_seen = pose.physics[i].reset_count;
}

void reset_physics(SkeletonPose& pose) {
  for (PhysicsState& s : pose.physics_state) {
    to_rest(s);
    s.reset = true;
  }
}

void solve_physics(SkeletonPose& pose, int index, const FrameContext& context) {
  if (context.physics == PhysicsMode::None) return;
  const auto k = static_cast<std::size_t>(index);
  const PhysicsData& c = pose.data().physics[k];
  if (!pose.active[static_cast<std::size_t>(c.bone)]) return;
  if (c.x == 0 && c.y == 0 && c.rotate == 0 && c.scale_x == 0 && c.shear_x == 0) return;
  PhysicsState& s = pose.physics_state[k];
  const PhysicsPose& p = pose.physics[k];
  const Anchor anchor = read_anchor(pose, c.bone);
  if (context.physics == PhysicsMode::Update) advance(s, c, p, anchor, context);
  const float mix = p.mix * context.physics_mix;
  if (mix != 0) apply(pose, c.bone, c, s, anchor, mix);
}

}  // namespace mf::skel
