// IK constraints: one bone turned to point at a target, or a parent and its child bent so the child's
// tip reaches the target. Solvers change the bones' local rotation (and scale X, or X and Y, for
// compress and stretch), mixed with the pose by pose.ik[i].mix, then recompute the two world
// transforms so that later steps see them.
//
// One bone. The bone's world X axis is F·R(r)·s, with F the frame it inherits from its parent
// (inherited_frame: every inherit mode is exact) and s the first column of its shear and scale; the
// rotation r that makes it point at the target follows from F⁻¹·(target − origin). Compress (target
// nearer than the bone's world length) and stretch (farther) scale X, and with uniform also Y, by
// distance / length.
//
// Two bones. The parent's local matrix is R(r₁)·M, where M holds its scale and shear, so in the frame
// F the parent inherits, with the parent's world origin as the origin, the child's tip is
//   R(r₁)·(A + k·M·u(φ)),   A = M·(child x, child y),   k = |child scale X|·child length,
// with u(φ) the child's X axis direction in the parent's local frame (φ = child rotation + its shear X,
// + 180° when its scale X is negative). Writing the target as t in that frame, |A + k·M·u(φ)| = |t|
// fixes φ and the direction of t then fixes r₁. Working in the inherited frame makes a rotated,
// scaled, sheared or reflected grandparent, and every inherit mode of the parent, exact. With M a
// similarity (uniform scale, no shear) the equation is the law of cosines, solved in closed form;
// otherwise (non-uniform scale, shear) |A + k·M·u(φ)|² is a trigonometric polynomial of degree 2 in φ,
// solved numerically (safeguarded Newton between bracketing samples) to full float precision, so the
// tip still lands on the target. Bend +1 takes the root on the side of a positive child rotation from
// the straight chain, −1 the other. What shear makes approximate is the look, not the reach: the bend
// side and the straight chain are those of the sheared local frame, and a sheared chain is skewed on
// screen as it bends; `mfe skel check` warns about it.
//
// The child's inherit mode: Normal is exact as above. For the other modes the child's world length does
// not follow the parent's local frame: the solve takes the child's current world length as fixed,
// places the elbow with the law of cosines and turns the child to point at the target through its own
// inherited frame. That is exact for OnlyTranslation, NoScale and NoScaleOrReflection, and for
// NoRotationOrReflection under a uniformly scaled parent, as long as the parent's inherited frame is a
// similarity (no non-uniform scale or shear above the chain); otherwise the child's length changes with
// its direction and the tip misses by that change.
//
// Softness s acts near full extension: with d the target's distance from the parent's origin and r the
// chain's reach along it, the chain aims at
//   d' = d                        for d ≤ r − s,
//   d' = r − (r + s − d)² / (4s)  for r − s < d < r + s,
//   d' = r                        for d ≥ r + s,
// a quadratic that leaves the identity with equal value and slope at d = r − s and meets r with slope 0
// at d = r + s: the tip slows down as the chain straightens, and the chain is straight only once the
// target is s beyond its reach (s is capped at r, so d' ≥ 0). d, r and s are measured in the frame the
// parent inherits (the frame its own position is given in): scaling the skeleton, or any bone above
// the chain, scales the soft zone with the chain and leaves the pose's shape as it was. Without
// stretch, a target beyond d' is pointed at and missed. With stretch, the parent's scale X (and Y with
// uniform) is multiplied by d / d' and the chain is solved again, so the tip reaches the target from
// the soft zone's start on: exact for a Normal child when uniform is set, or when the straight chain
// lies along the parent's X axis (child y = 0, the usual rig). Compress applies to one bone only.
//
// Mix m blends each solved value v with the pose value v₀: rotations by v₀ + wrap(v − v₀)·m (the
// shorter way round), scales by v₀·(1 + (v/v₀ − 1)·m). Mix 0 leaves the bones untouched. A constraint
// whose bones or target are inactive (skin-required bones outside the skin) does nothing.

#include <algorithm>
#include <cassert>
#include <cmath>

#include "mf/core/math/angle.hpp"
#include "mf/core/math/bone_local.hpp"
#include "mf/core/math/matrix2.hpp"
#include "mf/core/math/vec2.hpp"
#include "mf/skel/constraints.hpp"
#include "mf/skel/world_transform.hpp"
#include "solver_steps.hpp"

namespace mf::skel {
namespace {

// Determinants, lengths and distances below this are degenerate: the solve leaves the bones alone.
constexpr double kTiny = 1e-9;

Matrix2d to_mat(const Matrix2& m) { return {m.a, m.b, m.c, m.d}; }
Matrix2 to_matrix2(const Matrix2d& m) {
  return {static_cast<float>(m.a), static_cast<float>(m.b), static_cast<float>(m.c), static_cast<float>(m.d)};
}

// An angle in degrees brought into [−180, 180].
double wrap_degrees(double degrees) { return std::remainder(degrees, 360.0); }

// A bone's local matrix without its rotation: L = R(rotation)·shape.
Matrix2d shape(const SkeletonPose& p, std::size_t i) {
  if (p.shear_x[i] == 0 && p.shear_y[i] == 0) {
    // Unsheared (most bones): the same numbers bone_axes gives, without its sines and cosines. The X
    // axis angle is ±0 (its sine keeps the sign), the Y axis angle exactly 90°.
    static const double cos90 = std::cos(90.0 * kDegToRadOf<double>), sin90 = std::sin(90.0 * kDegToRadOf<double>);
    const double zero = static_cast<double>(p.shear_x[i]) * kDegToRadOf<double>;
    return {static_cast<double>(p.scale_x[i]), cos90 * p.scale_y[i], zero * p.scale_x[i], sin90 * p.scale_y[i]};
  }
  return bone_axes<double>(p.shear_x[i], 90.0 + p.shear_y[i], p.scale_x[i], p.scale_y[i]);
}

Vec2d origin(const SkeletonPose& p, int bone) {
  const auto i = static_cast<std::size_t>(bone);
  return {p.world_x[i], p.world_y[i]};
}

// Direction (radians) of a bone's X axis in its parent's local frame, for local rotation 0.
double axis_offset(const Matrix2d& bone_shape) {
  // An X axis along +x (an unsheared bone with positive scale X) has direction +0, as atan2 gives.
  if (bone_shape.c == 0 && !std::signbit(bone_shape.c) && bone_shape.a > 0) return 0.0;
  return direction(bone_shape.x_axis());
}

// The local rotation (degrees) that points a bone's X axis along the world direction `dir`, given the
// frame F it inherits and its shape; nothing when F is degenerate or dir is zero.
bool point_at(const Matrix2d& frame, const Matrix2d& bone_shape, Vec2d dir, double& rotation_out) {
  const double det = frame.det();
  if (std::abs(det) < kTiny || hypot_length(dir) < kTiny) return false;
  Vec2d local = frame.adjugate() * dir;  // F⁻¹·dir up to the factor det
  if (det < 0) local = -local;
  rotation_out = (direction(local) - axis_offset(bone_shape)) * kRadToDegD;
  return true;
}

float mixed_rotation(float pose, double solved, float mix) {
  return static_cast<float>(pose + wrap_degrees(solved - pose) * mix);
}

// g(φ) = |A + k·B·u(φ)|² = p0 + p1·cos φ + q1·sin φ + p2·cos 2φ + q2·sin 2φ: the squared distance of
// the chain's tip from the parent's origin in the parent's inherited frame, before the parent turns.
struct Chain {
  Vec2d a;
  Matrix2d b;
  double k;
  double p0, p1, q1, p2, q2;

  Chain(Vec2d a_, const Matrix2d& b_, double k_) : a(a_), b(b_), k(k_) {
    const Vec2d b1{b.a, b.c}, b2{b.b, b.d};
    const double n1 = b1.x * b1.x + b1.y * b1.y, n2 = b2.x * b2.x + b2.y * b2.y;
    p0 = a.x * a.x + a.y * a.y + k * k * (n1 + n2) / 2;
    p1 = 2 * k * (a.x * b1.x + a.y * b1.y);
    q1 = 2 * k * (a.x * b2.x + a.y * b2.y);
    p2 = k * k * (n1 - n2) / 2;
    q2 = k * k * (b1.x * b2.x + b1.y * b2.y);
  }

  // B is a similarity (uniform scale, no shear): the second harmonic vanishes.
  bool similar() const { return std::abs(p2) + std::abs(q2) <= 1e-12 * (std::abs(p0) + kTiny); }

  double value(double phi) const {
    return p0 + p1 * std::cos(phi) + q1 * std::sin(phi) + p2 * std::cos(2 * phi) + q2 * std::sin(2 * phi);
  }
  double slope(double phi) const {
    return -p1 * std::sin(phi) + q1 * std::cos(phi) - 2 * p2 * std::sin(2 * phi) + 2 * q2 * std::cos(2 * phi);
  }
  double curvature(double phi) const {
    return -p1 * std::cos(phi) - q1 * std::sin(phi) - 4 * p2 * std::cos(2 * phi) - 4 * q2 * std::sin(2 * phi);
  }
  // The tip before the parent turns: A + k·B·u(φ).
  Vec2d tip(double phi) const {
    const Vec2d bu = b * Vec2d{std::cos(phi), std::sin(phi)};
    return {a.x + k * bu.x, a.y + k * bu.y};
  }
};

// A root of f in [lo, hi] (either order) where f(lo) and f(hi) differ in sign: Newton steps, with
// bisection whenever a step would leave the bracket.
template <class F, class DF>
double bracketed_root(const F& f, const DF& df, double lo, double hi) {
  double f_lo = f(lo);
  double x = 0.5 * (lo + hi);
  for (int iteration = 0; iteration < 64; ++iteration) {
    const double fx = f(x);
    if (fx == 0) break;
    if ((fx < 0) == (f_lo < 0)) {
      lo = x;
      f_lo = fx;
    } else {
      hi = x;
    }
    const double d = df(x);
    double next = d != 0 ? x - fx / d : 0.5 * (lo + hi);
    const double low = std::min(lo, hi), high = std::max(lo, hi);
    if (!(next > low && next < high)) next = 0.5 * (lo + hi);
    const bool done = std::abs(next - x) <= 1e-14 * (1 + std::abs(x));
    x = next;
    if (done || high - low <= 1e-14 * (1 + std::abs(x))) break;
  }
  return x;
}

// The extremum of g near sample `at`, between its neighbours `before` and `after` (a root of the
// slope); the sample itself when the slope does not change sign there.
double refine_extremum(const Chain& g, double before, double at, double after) {
  const double s0 = g.slope(before), s1 = g.slope(after);
  if ((s0 < 0) == (s1 < 0)) return at;
  return bracketed_root([&](double x) { return g.slope(x); }, [&](double x) { return g.curvature(x); }, before,
                        after);
}

// The straight chain: the φ of full extension and the squared reach. For a similarity that is the
// first harmonic's peak; otherwise the largest of kSamples samples around the circle, refined.
struct Straight {
  double phi;
  double reach_squared;
  double start;  // the samples' first angle, and the step the walk to the bend side continues from
  int top;       // the sample nearest to phi
};

constexpr int kSamples = 32;
constexpr double kSampleStep = 2 * kPiD / kSamples;

// `current` is used when the tip does not depend on φ (a child of zero length) or the straight
// direction is undefined.
Straight straight_chain(const Chain& g, double current) {
  const double first = std::hypot(g.p1, g.q1);
  const double start = first < kTiny ? current : std::atan2(g.q1, g.p1);
  if (g.similar()) return {start, std::max(g.p0 + first, 0.0), start, 0};
  int top = 0;
  double top_value = g.value(start);
  for (int j = 1; j < kSamples; ++j) {
    const double v = g.value(start + j * kSampleStep);
    if (v > top_value) {
      top = j;
      top_value = v;
    }
  }
  const double phi = refine_extremum(g, start + (top - 1) * kSampleStep, start + top * kSampleStep,
                                     start + (top + 1) * kSampleStep);
  return {phi, std::max({g.value(phi), top_value, 0.0}), start, top};
}

// The φ at which the tip is `distance` from the parent's origin, on the `bend` side of the straight
// chain: straight when beyond reach, folded as far as the chain goes when nearer than it can fold.
double bend_chain(const Chain& g, const Straight& straight, double distance, int bend) {
  const double target = distance * distance;
  if (target >= straight.reach_squared) return straight.phi;
  const double first = std::hypot(g.p1, g.q1);
  if (g.similar()) {
    // Law of cosines: g = p0 + R·cos(φ − α), straight at α.
    if (first < kTiny) return straight.phi;
    return straight.phi + bend * std::acos(std::clamp((target - g.p0) / first, -1.0, 1.0));
  }
  // Walk from the straight chain towards the bend side until g falls to the target (a root lies
  // between the last two samples) or turns up again (the tightest fold on that side).
  auto h = [&](double x) { return g.value(x) - target; };
  auto dh = [&](double x) { return g.slope(x); };
  double previous = straight.phi;
  double previous_value = straight.reach_squared;
  for (int j = 1; j < kSamples; ++j) {
    const double x = straight.start + (straight.top + bend * j) * kSampleStep;
    const double v = g.value(x);
    if (v <= target) return bracketed_root(h, dh, previous, x);
    if (v > previous_value) {
      // The fold lies between the sample before `previous` and x.
      const double fold = refine_extremum(g, previous - bend * kSampleStep, previous, x);
      if (g.value(fold) <= target) return bracketed_root(h, dh, previous, fold);
      return fold;
    }
    previous = x;
    previous_value = v;
  }
  return previous;
}

bool active(const SkeletonPose& p, int bone) { return p.active[static_cast<std::size_t>(bone)] != 0; }

void solve_one(SkeletonPose& p, const IkData& data, const IkPose& ik, int bone, int target, bool recompute) {
  const auto i = static_cast<std::size_t>(bone);
  const Matrix2d frame = to_mat(inherited_frame(p, bone));
  const Matrix2d bone_shape = shape(p, i);
  const Vec2d from = origin(p, bone), to = origin(p, target);
  const Vec2d dir = to - from;
  double solved = 0;
  if (!point_at(frame, bone_shape, dir, solved)) return;
  const float pose_rotation = p.rotation[i];
  p.rotation[i] = mixed_rotation(pose_rotation, solved, ik.mix);

  const double bone_length = p.data().bones.length[i];
  if ((ik.compress || ik.stretch) && bone_length > 0) {
    // World length of the bone pointing at the target (its scale can depend on its direction).
    const Vec2d axis = frame * (Matrix2d::rotation(solved * kDegToRadD) * bone_shape.x_axis());
    const double world_length = bone_length * hypot_length(axis);
    const double distance = hypot_length(dir);
    if (world_length > kTiny && ((ik.compress && distance < world_length) || (ik.stretch && distance > world_length))) {
      const double factor = 1 + (distance / world_length - 1) * ik.mix;
      p.scale_x[i] = static_cast<float>(p.scale_x[i] * factor);
      if (data.uniform) p.scale_y[i] = static_cast<float>(p.scale_y[i] * factor);
    }
  }
  if (recompute) update_world_transform(p, bone);
}

// Softened aim distance (see the file comment); distances and softness in the inherited frame.
double soften(double distance, double reach, double softness) {
  const double s = std::min(softness, reach);
  if (!(s > 0)) return distance;
  const double over = reach + s - distance;  // 2s at the soft zone's start, 0 at its end
  if (over >= 2 * s) return distance;
  if (over <= 0) return reach;
  return reach - over * over / (4 * s);
}

void solve_two(SkeletonPose& p, const IkData& data, const IkPose& ik, int parent, int child, int target,
               bool recompute) {
  const auto pi = static_cast<std::size_t>(parent), ci = static_cast<std::size_t>(child);
  assert(p.data().bones.parent[ci] == parent);
  const Matrix2d frame = to_mat(inherited_frame(p, parent));
  const double frame_det = frame.det();
  if (std::abs(frame_det) < kTiny) return;
  const Vec2d from = origin(p, parent), to = origin(p, target);
  const Vec2d world_dir = to - from;
  Vec2d t = frame.adjugate() * world_dir;  // the target in the inherited frame
  t = t / frame_det;
  const double distance = hypot_length(t);

  const bool normal_child = p.inherit[ci] == Inherit::Normal;
  const Matrix2d child_shape = shape(p, ci);
  const double child_length = p.data().bones.length[ci];
  const Vec2d offset{p.x[ci], p.y[ci]};
  Matrix2d parent_shape = shape(p, pi);
  // The child's length and shape as the chain equation sees them (see the file comment).
  const double k = normal_child ? std::abs(p.scale_x[ci]) * child_length
                                : child_length * std::hypot(p.a[ci], p.c[ci]) / std::sqrt(std::abs(frame_det));
  auto chain_for = [&](const Matrix2d& m) { return Chain(m * offset, normal_child ? m : Matrix2d::identity(), k); };

  // φ now, so a child that cannot move the tip keeps its rotation.
  const double current_phi = normal_child ? p.rotation[ci] * kDegToRadD + axis_offset(child_shape) : 0.0;
  Chain chain = chain_for(parent_shape);
  Straight straight = straight_chain(chain, current_phi);
  const double reach = std::sqrt(straight.reach_squared);
  const double aim = std::min(soften(distance, reach, ik.softness), reach);
  double stretch = 1;
  double aim_distance = aim;
  if (ik.stretch && distance > aim * (1 + 1e-9) && aim > kTiny) {
    stretch = distance / aim;
    parent_shape.a *= stretch;
    parent_shape.c *= stretch;
    if (data.uniform) {
      parent_shape.b *= stretch;
      parent_shape.d *= stretch;
    }
    chain = chain_for(parent_shape);
    straight = straight_chain(chain, current_phi);
    aim_distance = distance;
  }
  const double phi = bend_chain(chain, straight, aim_distance, ik.bend < 0 ? -1 : 1);

  // The parent turns the tip (before turning) onto the target's direction.
  const Vec2d tip = chain.tip(phi);
  const double target_angle = distance > kTiny ? direction(t) : direction(tip);
  const double parent_turn = target_angle - direction(tip);  // R(r₁) with the parent's shape already in tip
  const double parent_solved = parent_turn * kRadToDegD;

  double child_solved = 0;
  bool child_ok = true;
  if (normal_child) {
    child_solved = (phi - axis_offset(child_shape)) * kRadToDegD;
  } else {
    // Point the child from the solved elbow at the aim point, through the frame it would inherit.
    const Matrix2d parent_local = Matrix2d::rotation(parent_turn) * parent_shape;
    const Matrix2d parent_world = frame * parent_local;
    const Vec2d elbow_local = parent_local * offset;
    const Vec2d elbow = frame * elbow_local;
    const double scale = distance > kTiny ? aim_distance / distance : 0.0;
    const Vec2d aim_point = frame * (t * scale);
    const Matrix2d child_frame = to_mat(inherited_frame(to_matrix2(parent_world), p.inherit[ci]));
    child_ok = point_at(child_frame, child_shape, aim_point - elbow, child_solved);
  }

  p.rotation[pi] = mixed_rotation(p.rotation[pi], parent_solved, ik.mix);
  if (stretch != 1) {
    const double factor = 1 + (stretch - 1) * ik.mix;
    p.scale_x[pi] = static_cast<float>(p.scale_x[pi] * factor);
    if (data.uniform) p.scale_y[pi] = static_cast<float>(p.scale_y[pi] * factor);
  }
  if (child_ok) p.rotation[ci] = mixed_rotation(p.rotation[ci], child_solved, ik.mix);
  if (recompute) {
    update_world_transform(p, parent);
    update_world_transform(p, child);
  }
}

}  // namespace

namespace detail {

void solve_ik(SkeletonPose& pose, int index, bool recompute_world) {
  const IkData& data = pose.data().ik[static_cast<std::size_t>(index)];
  const IkPose& ik = pose.ik[static_cast<std::size_t>(index)];
  if (ik.mix == 0 || data.bones.empty() || !active(pose, data.target)) return;
  for (const std::int32_t bone : data.bones)
    if (!active(pose, bone)) return;
  if (data.bones.size() == 1) solve_one(pose, data, ik, data.bones[0], data.target, recompute_world);
  else solve_two(pose, data, ik, data.bones[0], data.bones[1], data.target, recompute_world);
}

}  // namespace detail

void solve_ik(SkeletonPose& pose, int index) { detail::solve_ik(pose, index, true); }

}  // namespace mf::skel
