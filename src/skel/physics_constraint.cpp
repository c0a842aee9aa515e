// Physics constraints: secondary motion (hair, cloth, tails, falling drops) simulated at a fixed step.
//
// Each constraint keeps two damped springs for its bone, both measured against the animated pose:
//   the origin spring    an offset o (skeleton-space pixels) of the bone's simulated origin from its
//                        animated origin: the translation channels (x, y);
//   the direction spring an angle θ (radians) by which the drawn bone is turned away from the animated
//                        one, and a stretch σ (a fraction of the bone's length): rotate and shear X
//                        take θ, scale X takes σ. A bone of zero length has no direction: only its
//                        translation channels act.
//
// Each update (PhysicsMode::Update):
//   1. Time. The constraint's clock (the sum of its updates' deltas, in float) advances by the delta;
//      the clock's advance is the time this update adds to the remaining time.
//   2. Reset. A change of reset_count or a reset_physics() call puts the constraint at rest: offsets,
//      velocities and remaining time become 0 and the animated pose is recorded. That update adds its
//      time but takes no step, so the first step comes with the next update.
//   3. Inertia. The animated bone's origin moved by Δ since the previous update (its movement in
//      skeleton space plus the skeleton's own movement in its world). `limit` is a speed (pixels per
//      second): in an update of Δt, movement beyond limit·Δt on either axis has no greater effect, so a
//      teleport does not fling the bone and an update without time adds no lag.
//      Origin: o −= clamp(inertia·Δ, ±limit·Δt) per axis.
//      Direction: with T the drawn bone (the animated axis, origin to tip, turned by the drawn turn
//      θ·(rotate + shear X)·mix) and D the movement of its tip (clamp(Δ, ±limit·Δt) per axis plus the
//      change of the turned axis, which is not limited), the bone turns towards where its tip was:
//      θ += inertia · angle(T, T − D); σ −= inertia · (D along T) / length.
//   4. Steps. While the remaining time holds a step (1/fps), one step of each spring, with
//      m = 1 / mass, k = strength·m, damping d (a factor per step) and F = 100·(wind, gravity)·m:
//        v = v·d + (F − k·o)·step,   o = o + v·step
//      and for the direction spring the same with θ and σ, F taken across and along the drawn bone over
//      its length. At most kMaxStepsPerUpdate per update; any time left beyond them is dropped.
//   5. Apply, with mix = PhysicsPose::mix · FrameContext::physics_mix: the local translation moves by
//      (o_x·x, o_y·y)·mix (converted from skeleton space through the parent); the world X axis turns by
//      θ·(rotate + shear X)·mix and the world Y axis by θ·rotate·mix, each keeping its length, written
//      back as the local pose; scale X is multiplied by 1 + σ·scale_x·mix. A channel of 0 is off. The
//      bone's world transform is recomputed; its descendants follow in the update order.
// PhysicsMode::Pose applies the current state to the current animated pose without advancing it
// (scrubbing); PhysicsMode::None does nothing.
//
// Wind and gravity are forces in units of 100 pixels/s² for a mass of 1 (+X right, +Y down), so rigs
// keep the numbers an animator types into Spine. Deterministic: the same inputs give the same floats.
// Nothing allocates.

#include <algorithm>
#include <cmath>

#include "mf/core/math/angle.hpp"
#include "mf/core/math/hypot.hpp"
#include "mf/skel/constraints.hpp"
#include "mf/skel/world_transform.hpp"
#include "bone_world_edit.hpp"

namespace mf::skel {
namespace {

constexpr int kMaxStepsPerUpdate = 4;
constexpr float kDefaultStep = 1.0f / 60.0f;
constexpr float kForceUnit = 100.0f;  // pixels/s² per unit of wind or gravity
constexpr float kTiny = 1e-12f;

// The animated bone in skeleton space, read from its world transform.
struct Anchor {
  float origin_x, origin_y;
  float axis_x, axis_y;  // origin → tip: the bone's length along its world X axis
  float length;          // |axis|
};

Anchor read_anchor(const SkeletonPose& pose, int bone) {
  const auto i = static_cast<std::size_t>(bone);
  const float length = pose.data().bones.length[i];
  const float ax = pose.a[i] * length, ay = pose.c[i] * length;
  return {pose.world_x[i], pose.world_y[i], ax, ay, hypot_float(ax, ay)};
}

// One update's spring parameters (the animated parameters are constant within an update).
struct Spring {
  float dt, stiffness, damping, force_x, force_y;
};

Spring make_spring(const PhysicsPose& p, const FrameContext& context, float dt) {
  const float mass_inverse = std::max(p.mass_inverse, 0.0f);
  return {dt, std::max(p.strength, 0.0f) * mass_inverse, std::clamp(p.damping, 0.0f, 1.0f),
          (p.wind + context.wind) * kForceUnit * mass_inverse, (p.gravity + context.gravity) * kForceUnit * mass_inverse};
}

void step(const Spring& s, float force, float& value, float& velocity) {
  velocity = velocity * s.damping + (force - s.stiffness * value) * s.dt;
  value += velocity * s.dt;
}

void to_rest(PhysicsState& s) {
  s.remaining = 0;
  s.steps = 0;
  s.offset_x = s.offset_y = s.velocity_x = s.velocity_y = 0;
  s.angle = s.spin = s.stretch = s.stretch_rate = 0;
}

void remember(PhysicsState& s, const Anchor& anchor, const FrameContext& context) {
  s.skeleton_x = context.skeleton_x;
  s.skeleton_y = context.skeleton_y;
  s.origin_x = anchor.origin_x;
  s.origin_y = anchor.origin_y;
  s.tip_x = anchor.origin_x + anchor.axis_x;
  s.tip_y = anchor.origin_y + anchor.axis_y;
}

// The turn (radians) of the bone's drawn X axis away from the animated one: θ over the channels that
// turn it (rotate and shear X), times the mix.
float drawn_turn(const PhysicsData& c, const PhysicsState& s, float mix) { return s.angle * (c.rotate + c.shear_x) * mix; }

// (x, y) turned by `radians` (clockwise on screen, Y down).
// A turn by an angle, its cosine and sine computed once for every vector it turns.
struct Turn {
  explicit Turn(float radians) : cs(std::cos(radians)), sn(std::sin(radians)) {}
  void operator()(float& x, float& y) const {
    const float nx = cs * x - sn * y;
    y = sn * x + cs * y;
    x = nx;
  }
  float cs, sn;
};

void advance(PhysicsState& s, const PhysicsData& c, const PhysicsPose& p, const Anchor& anchor,
             const FrameContext& context, float mix) {
  const float before = s.clock;
  if (context.delta > 0) s.clock += context.delta;
  const float elapsed = s.clock - before;
  if (p.reset_count != s.reset_seen) {
    s.reset_seen = p.reset_count;
    s.reset = true;
  }
  if (s.reset) {
    to_rest(s);
    s.reset = false;
    s.remaining = elapsed;
    remember(s, anchor, context);
    return;
  }

  // Inertia: the simulated points keep their place in the world while the animation moves them.
  const float moved_x = context.skeleton_x - s.skeleton_x, moved_y = context.skeleton_y - s.skeleton_y;
  const float most = c.limit * elapsed;
  const float dx = anchor.origin_x - s.origin_x + moved_x, dy = anchor.origin_y - s.origin_y + moved_y;
  s.offset_x -= std::clamp(p.inertia * dx, -most, most);
  s.offset_y -= std::clamp(p.inertia * dy, -most, most);
  const bool has_direction = anchor.length > kTiny;
  if (has_direction && elapsed > 0) {
    // The drawn bone T (the animated axis turned as drawn) and how far its tip moved: the origin's
    // movement, limited, plus the change of the turned axis. The bone turns by inertia × the angle at
    // which its old tip is seen from the new origin.
    const Turn turn(drawn_turn(c, s, mix));
    float tx = anchor.axis_x, ty = anchor.axis_y;
    float qx = s.tip_x - s.origin_x, qy = s.tip_y - s.origin_y;  // the previous animated axis
    turn(tx, ty);
    turn(qx, qy);
    const float mx = std::clamp(dx, -most, most) + tx - qx, my = std::clamp(dy, -most, most) + ty - qy;
    const float ox = tx - mx, oy = ty - my;  // the old tip, from the new origin
    s.angle += p.inertia * std::atan2(tx * oy - ty * ox, tx * ox + ty * oy);
    s.stretch -= p.inertia * (tx * mx + ty * my) / (anchor.length * anchor.length);
  }
  remember(s, anchor, context);

  const float dt = c.step > 0 ? c.step : kDefaultStep;
  s.remaining += elapsed;
  if (s.remaining < dt) return;
  const Spring spring = make_spring(p, context, dt);
  for (int n = 0; n < kMaxStepsPerUpdate && s.remaining >= dt; ++n) {
    step(spring, spring.force_x, s.offset_x, s.velocity_x);
    step(spring, spring.force_y, s.offset_y, s.velocity_y);
    if (has_direction) {
      // Wind and gravity: their parts across and along the drawn bone, over its length.
      float ux = anchor.axis_x / anchor.length, uy = anchor.axis_y / anchor.length;
      Turn(drawn_turn(c, s, mix))(ux, uy);
      step(spring, (ux * spring.force_y - uy * spring.force_x) / anchor.length, s.angle, s.spin);
      step(spring, (ux * spring.force_x + uy * spring.force_y) / anchor.length, s.stretch, s.stretch_rate);
    }
    s.remaining -= dt;
    ++s.steps;
  }
  if (s.remaining >= dt) s.remaining = 0;  // over the cap: the rest of the update is dropped
}

void apply(SkeletonPose& pose, int bone, const PhysicsData& c, const PhysicsState& s, const Anchor& anchor,
           float mix) {
  const auto i = static_cast<std::size_t>(bone);
  if (c.x != 0 || c.y != 0) {
    const float wx = s.offset_x * c.x * mix, wy = s.offset_y * c.y * mix;
    const int parent = pose.data().bones.parent[i];
    bool moved = false;
    if (parent < 0) {
      pose.x[i] += wx;
      pose.y[i] += wy;
      moved = true;
    } else {
      // The world origin is the parent's world transform applied to the local translation.
      const auto q = static_cast<std::size_t>(parent);
      const float det = pose.a[q] * pose.d[q] - pose.b[q] * pose.c[q];
      if (std::abs(det) > kTiny) {
        pose.x[i] += (pose.d[q] * wx - pose.b[q] * wy) / det;
        pose.y[i] += (pose.a[q] * wy - pose.c[q] * wx) / det;
        moved = true;
      }
    }
    if (moved) detail::update_world_position(pose, bone);  // the world 2×2 is unchanged
  }
  if (anchor.length <= kTiny) return;
  if (c.rotate != 0 || c.shear_x != 0) {
    // The world axes turn as drawn (each keeps its length): X by θ·(rotate + shear X), Y by θ·rotate.
    detail::BoneWorld w = detail::bone_world(pose, bone);
    const float degrees = s.angle * kRadToDeg * mix;
    if (c.rotate != 0) w.rotate(degrees * c.rotate);
    if (c.shear_x != 0) w.rotate_x_axis(degrees * c.shear_x);
    detail::set_bone_world(pose, bone, w, false, true);
  }
  if (c.scale_x != 0) {
    pose.scale_x[i] *= 1 + s.stretch * c.scale_x * mix;
    update_world_transform(pose, bone);
  }
}

}  // namespace

void init_physics_state(SkeletonPose& pose) {
  pose.physics_state.assign(pose.data().physics.size(), PhysicsState{});
  for (std::size_t i = 0; i < pose.physics_state.size() && i < pose.physics.size(); ++i) {
    pose.physics_state[i].reset_seen = pose.physics[i].reset_count;
  }
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
  const float mix = p.mix * context.physics_mix;
  if (context.physics == PhysicsMode::Update) advance(s, c, p, anchor, context, mix);
  if (mix != 0) apply(pose, c.bone, c, s, anchor, mix);
}

}  // namespace mf::skel
