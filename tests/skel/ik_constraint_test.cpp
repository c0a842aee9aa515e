// IK constraints against analytic answers: the two-bone tip lands on reachable targets, bends to the
// side asked for, follows the softened distance near full extension (its defining properties: identity
// below reach − softness, a quadratic with smooth joins, straight from reach + softness, measured in
// the parent's inherited frame), stretches to far targets, and one-bone IK points, compresses and
// stretches; mixes blend with the pose; clips drive the parameters.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "mf/core/math/angle.hpp"
#include "mf/core/math/vec2.hpp"
#include "mf/skel/clip_sampler.hpp"
#include "mf/skel/constraints.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "mf/skel/world_transform.hpp"
#include "bone_points.hpp"
#include "test_rig.hpp"

namespace mf::skel {
namespace {

// A reachable target is reached to this (pixels): the bound for the two-bone solve.
constexpr double kReach = 1e-3;
// Angles computed from float world matrices agree to this (radians).
constexpr double kAngle = 1e-4;
// Local rotations and scales written by the solver, compared with hand-computed ones.
constexpr double kValue = 1e-3;

using test::distance;
using test::origin;
using test::tip;

double axis_angle(const SkeletonPose& p, int b) {
  const auto i = static_cast<std::size_t>(b);
  return std::atan2(p.c[i], p.a[i]);
}
double direction(Vec2d from, Vec2d to) { return std::atan2(to.y - from.y, to.x - from.x); }
double wrap(double radians) { return std::remainder(radians, 2 * kPiD); }
// Which side of the line from `from` to `to` the point is on: < 0 is the side of negative (anticlockwise
// on screen) angles, > 0 of positive.
double side(Vec2d from, Vec2d to, Vec2d point) {
  return cross(to - from, point - from);
}

// Appends an ik constraint to the update order: the constraint, then its bones and all their
// descendants again (what the build step emits; every bone was already emitted by add_bone).
int add_ik(SkeletonData& d, IkData ik) {
  const auto index = static_cast<std::int32_t>(d.ik.size());
  std::vector<std::uint8_t> stale(d.bones.size(), 0);
  for (std::int32_t b : ik.bones) stale[static_cast<std::size_t>(b)] = 1;
  d.ik.push_back(std::move(ik));
  d.update_order.push_back({UpdateKind::Ik, index});
  d.constraint_steps.push_back({UpdateKind::Ik, index});
  for (std::size_t b = 0; b < d.bones.size(); ++b) {
    const int parent = d.bones.parent[b];
    if (parent >= 0 && stale[static_cast<std::size_t>(parent)]) stale[b] = 1;
    if (stale[b]) d.update_order.push_back({UpdateKind::Bone, static_cast<std::int32_t>(b)});
  }
  return index;
}

IkData ik_data(std::vector<std::int32_t> bones, int target, int bend = 1) {
  IkData ik;
  ik.name = "ik";
  ik.bones = std::move(bones);
  ik.target = target;
  ik.bend = static_cast<std::int8_t>(bend);
  return ik;
}

// A grandparent, a two-bone chain (upper 40 px, lower 30 px) and a target that is a root bone, so its
// local position is its world position.
struct Arm {
  SkeletonData data;
  int grand, upper, lower, hand, target;

  explicit Arm(float grand_rotation = 0, float grand_sx = 1, float grand_sy = 1) {
    grand = test::add_bone(data, "grand", -1, 5, -3, grand_rotation, grand_sx, grand_sy);
    upper = test::add_bone(data, "upper", grand, 10, 5, 20);
    lower = test::add_bone(data, "lower", upper, 40, 0, 0);
    hand = test::add_bone(data, "hand", lower, 30, 0, 0);
    target = test::add_bone(data, "target", -1, 60, 20);
    data.bones.length[static_cast<std::size_t>(upper)] = 40;
    data.bones.length[static_cast<std::size_t>(lower)] = 30;
  }
  IkData& add(int bend = 1) {
    add_ik(data, ik_data({upper, lower}, target, bend));
    return data.ik.back();
  }
};

void move_target(SkeletonPose& p, int target, Vec2d to) {
  p.x[static_cast<std::size_t>(target)] = static_cast<float>(to.x);
  p.y[static_cast<std::size_t>(target)] = static_cast<float>(to.y);
}

// Solves with the setup pose as the pose under the constraint.
void solve_at(SkeletonPose& p, int target, Vec2d to) {
  p.set_to_setup();
  move_target(p, target, to);
  update_skeleton(p, {});
}

// Targets around the chain's root, between its tightest fold and its reach, in several directions.
std::vector<Vec2d> reachable_targets(Vec2d root, double reach, double nearest = 0.45) {
  std::vector<Vec2d> out;
  for (double fraction : {nearest, 0.7, 0.93})
    for (double degrees : {-150.0, -60.0, 0.0, 35.0, 100.0, 170.0}) {
      const double r = degrees / kRadToDegD;
      out.push_back({root.x + std::cos(r) * reach * fraction, root.y + std::sin(r) * reach * fraction});
    }
  return out;
}

void expect_reaches(SkeletonPose& p, int tip_bone, int target, const std::vector<Vec2d>& targets) {
  for (const Vec2d& t : targets) {
    solve_at(p, target, t);
    EXPECT_LT(distance(tip(p, tip_bone), t), kReach) << "target " << t.x << ", " << t.y;
    // The child's descendants follow the solved pose.
    EXPECT_LT(distance(origin(p, tip_bone + 1), t), kReach) << "target " << t.x << ", " << t.y;
  }
}

TEST(IkConstraint, TwoBonesReachReachableTargetsExactly) {
  Arm arm;
  arm.add();
  SkeletonPose pose(arm.data);
  update_skeleton(pose, {});
  const Vec2d root = origin(pose, arm.upper);
  expect_reaches(pose, arm.lower, arm.target, reachable_targets(root, 70));
}

TEST(IkConstraint, BendPlusOneTurnsTheChildClockwiseAndMinusOneAnticlockwise) {
  for (int bend : {1, -1}) {
    Arm arm;
    arm.add(bend);
    SkeletonPose pose(arm.data);
    for (const Vec2d& t : {Vec2d{60, 20}, Vec2d{0, 50}, Vec2d{-30, -10}}) {
      solve_at(pose, arm.target, t);
      ASSERT_LT(distance(tip(pose, arm.lower), t), kReach);
      const float child = pose.rotation[static_cast<std::size_t>(arm.lower)];
      EXPECT_GT(child * bend, 1) << "bend " << bend << " child rotation " << child;
      // The elbow is on the side of the root-to-target line the parent turned to: opposite the
      // child's turn.
      const double elbow_side = side(origin(pose, arm.upper), t, origin(pose, arm.lower));
      EXPECT_LT(elbow_side * bend, 0) << "bend " << bend;
      // The angle between the bones follows from the law of cosines: 40² + 30² − 2·40·30·cos(π − θ) = d².
      const double d = distance(origin(pose, arm.upper), t);
      const double bent = std::acos((40.0 * 40 + 30.0 * 30 - d * d) / (2 * 40.0 * 30));
      EXPECT_NEAR(std::abs(child) / kRadToDegD, kPiD - bent, kAngle);
    }
  }
}

TEST(IkConstraint, NonUniformParentScaleIsExact) {
  for (int bend : {1, -1}) {
    Arm arm;
    arm.data.bones.scale_x[static_cast<std::size_t>(arm.upper)] = 1.6f;
    arm.data.bones.scale_y[static_cast<std::size_t>(arm.upper)] = 0.7f;
    arm.add(bend);
    SkeletonPose pose(arm.data);
    update_skeleton(pose, {});
    // Straight along the parent's X axis the chain reaches 1.6 · 70; use well-inside targets.
    expect_reaches(pose, arm.lower, arm.target, reachable_targets(origin(pose, arm.upper), 1.6 * 70 * 0.8));
    solve_at(pose, arm.target, {60, 20});
    EXPECT_GT(pose.rotation[static_cast<std::size_t>(arm.lower)] * bend, 0);
  }
}

TEST(IkConstraint, ChildOffsetOffTheParentAxisWithNonUniformScaleIsExact) {
  Arm arm;
  arm.data.bones.y[static_cast<std::size_t>(arm.lower)] = 8;
  arm.data.bones.scale_x[static_cast<std::size_t>(arm.upper)] = 0.8f;
  arm.data.bones.scale_y[static_cast<std::size_t>(arm.upper)] = 1.5f;
  arm.add();
  SkeletonPose pose(arm.data);
  update_skeleton(pose, {});
  expect_reaches(pose, arm.lower, arm.target, reachable_targets(origin(pose, arm.upper), 55));
}

TEST(IkConstraint, ShearOnTheChainStillReachesTheTarget) {
  Arm arm;
  arm.data.bones.shear_x[static_cast<std::size_t>(arm.upper)] = 12;
  arm.data.bones.shear_y[static_cast<std::size_t>(arm.upper)] = -20;
  arm.data.bones.shear_x[static_cast<std::size_t>(arm.lower)] = 7;
  arm.add();
  SkeletonPose pose(arm.data);
  update_skeleton(pose, {});
  expect_reaches(pose, arm.lower, arm.target, reachable_targets(origin(pose, arm.upper), 60));
}

TEST(IkConstraint, RotatedAndScaledGrandparentIsExact) {
  struct Case {
    float rotation, sx, sy;
  };
  for (const Case& c : {Case{35, 1.5f, 1.5f}, Case{-120, 2, 0.6f}, Case{80, -1, 1}, Case{10, 1.2f, -0.9f}}) {
    Arm arm(c.rotation, c.sx, c.sy);
    arm.add();
    SkeletonPose pose(arm.data);
    update_skeleton(pose, {});
    const Vec2d root = origin(pose, arm.upper);
    // The chain's world reach (70) and tightest fold (10) scale with the grandparent in the target's
    // direction: stay within the smaller scale's reach and beyond the larger one's fold.
    const double reach = 70 * std::min(std::abs(c.sx), std::abs(c.sy));
    for (const Vec2d& t : reachable_targets(root, reach, 0.6)) {
      solve_at(pose, arm.target, t);
      EXPECT_LT(distance(tip(pose, arm.lower), t), kReach)
          << "grandparent " << c.rotation << "° (" << c.sx << ", " << c.sy << "), target " << t.x << ", " << t.y;
      // Bend +1 is a positive local rotation of the child, whatever the grandparent does.
      EXPECT_GT(pose.rotation[static_cast<std::size_t>(arm.lower)], 0);
    }
  }
}

TEST(IkConstraint, EveryInheritModeOfTheParentIsExact) {
  for (Inherit mode : {Inherit::OnlyTranslation, Inherit::NoRotationOrReflection, Inherit::NoScale,
                       Inherit::NoScaleOrReflection}) {
    Arm arm(-40, 1.8f, 0.7f);
    arm.data.bones.inherit[static_cast<std::size_t>(arm.upper)] = mode;
    arm.add();
    SkeletonPose pose(arm.data);
    update_skeleton(pose, {});
    for (const Vec2d& t : reachable_targets(origin(pose, arm.upper), 70 * 0.7)) {
      solve_at(pose, arm.target, t);
      EXPECT_LT(distance(tip(pose, arm.lower), t), kReach) << "inherit " << static_cast<int>(mode);
    }
  }
}

TEST(IkConstraint, ChildInheritingNoScaleOrOnlyTranslationIsExact) {
  for (Inherit mode : {Inherit::OnlyTranslation, Inherit::NoScale, Inherit::NoScaleOrReflection}) {
    Arm arm(25, 1.5f, 1.5f);
    arm.data.bones.inherit[static_cast<std::size_t>(arm.lower)] = mode;
    arm.add();
    SkeletonPose pose(arm.data);
    update_skeleton(pose, {});
    // The upper arm is 40 · 1.5 px long in the world; the lower one keeps its 30 px.
    for (const Vec2d& t : reachable_targets(origin(pose, arm.upper), 90)) {
      solve_at(pose, arm.target, t);
      EXPECT_LT(distance(tip(pose, arm.lower), t), kReach) << "inherit " << static_cast<int>(mode);
    }
  }
}

TEST(IkConstraint, UnreachableTargetStraightensTheChainTowardsIt) {
  Arm arm(30, 1.2f, 1.2f);
  arm.add();
  SkeletonPose pose(arm.data);
  for (const Vec2d& t : {Vec2d{150, 40}, Vec2d{-90, -100}, Vec2d{5, 120}}) {
    solve_at(pose, arm.target, t);
    const Vec2d root = origin(pose, arm.upper);
    const double toward = direction(root, t);
    EXPECT_NEAR(wrap(axis_angle(pose, arm.upper) - toward), 0, kAngle);
    EXPECT_NEAR(wrap(axis_angle(pose, arm.lower) - toward), 0, kAngle);
    EXPECT_NEAR(distance(root, tip(pose, arm.lower)), 70 * 1.2, 1e-3);
    EXPECT_NEAR(std::remainder(pose.rotation[static_cast<std::size_t>(arm.lower)], 360.0), 0, kValue);
  }
}

// The softened aim distance: the identity up to reach − softness, a quadratic to reach + softness, the
// reach beyond.
double softened(double d, double reach, double soft) {
  if (d <= reach - soft) return d;
  if (d >= reach + soft) return reach;
  return reach - (reach + soft - d) * (reach + soft - d) / (4 * soft);
}

// The tip's distance from the chain's root when the target is `d` away along `heading`.
double reached_at(SkeletonPose& pose, int target, int upper, int lower, double d, double heading = 0.4) {
  pose.set_to_setup();
  update_skeleton(pose, {});
  const Vec2d root = origin(pose, upper);
  solve_at(pose, target, {root.x + std::cos(heading) * d, root.y + std::sin(heading) * d});
  return distance(root, tip(pose, lower));
}

TEST(IkConstraint, SoftnessFollowsTheQuadraticFromReachMinusSoftnessToReachPlusSoftness) {
  constexpr double kSoft = 10, kFull = 70;
  Arm arm;
  arm.add().softness = static_cast<float>(kSoft);
  SkeletonPose pose(arm.data);
  update_skeleton(pose, {});
  const Vec2d root = origin(pose, arm.upper);
  const double heading = 0.4;
  auto at = [&](double d) { return Vec2d{root.x + std::cos(heading) * d, root.y + std::sin(heading) * d}; };
  auto reached = [&](double d) { return reached_at(pose, arm.target, arm.upper, arm.lower, d, heading); };

  // Short of the soft zone the target is reached.
  for (double d : {40.0, 55.0, kFull - kSoft}) {
    solve_at(pose, arm.target, at(d));
    EXPECT_LT(distance(tip(pose, arm.lower), at(d)), kReach) << d;
  }
  // In it the tip aims along the target's direction, at the softened distance: a quarter of the
  // softness short at full extension.
  for (double d : {62.0, 66.0, 70.0, 75.0, 79.0}) {
    solve_at(pose, arm.target, at(d));
    EXPECT_NEAR(distance(root, tip(pose, arm.lower)), softened(d, kFull, kSoft), kReach) << d;
    EXPECT_NEAR(wrap(direction(root, tip(pose, arm.lower)) - heading), 0, kAngle) << d;
  }
  EXPECT_NEAR(reached(kFull), kFull - kSoft / 4, kReach);
  // Straight from reach + softness on, not before.
  EXPECT_NEAR(reached(kFull + kSoft), kFull, kReach);
  EXPECT_NEAR(reached(kFull + 3 * kSoft), kFull, kReach);
  EXPECT_LT(reached(kFull + kSoft - 1), kFull - 0.02);

  // The joins are smooth: slope 1 entering the zone, 0 leaving it, and a constant curvature −1/(2s)
  // in between (finite differences over h; the tolerances cover the solve's float error over h).
  constexpr double h = 0.5;
  EXPECT_NEAR((reached(kFull - kSoft + h) - reached(kFull - kSoft)) / h, 1 - h / (4 * kSoft), 2e-2);
  EXPECT_NEAR((reached(kFull + kSoft) - reached(kFull + kSoft - h)) / h, h / (4 * kSoft), 2e-2);
  for (double d : {62.0, 68.0, 74.0, 78.0}) {
    const double second = (reached(d + h) - 2 * reached(d) + reached(d - h)) / (h * h);
    EXPECT_NEAR(second, -1 / (2 * kSoft), 2e-2) << d;
  }

  // Swept through the soft zone and past reach, the tip advances steadily, never faster than the
  // target and never beyond reach.
  double previous = 0;
  for (double d = 50; d <= 110; d += 0.25) {
    const double now = reached(d);
    if (d > 50) {
      EXPECT_GE(now, previous - 1e-4) << d;
      EXPECT_LE(now - previous, 0.25 + 1e-4) << d;
    }
    EXPECT_LE(now, kFull + kReach) << d;
    previous = now;
  }
}

TEST(IkConstraint, SoftnessIsMeasuredInTheFrameTheParentInherits) {
  // A grandparent scaled by 2 doubles the chain and its soft zone: the pose keeps its shape.
  constexpr double kSoft = 6, kFull = 70, kScale = 2;
  Arm plain, scaled(0, static_cast<float>(kScale), static_cast<float>(kScale));
  plain.add().softness = static_cast<float>(kSoft);
  scaled.add().softness = static_cast<float>(kSoft);
  SkeletonPose p(plain.data), q(scaled.data);
  for (double d : {60.0, 66.0, 70.0, 74.0, 80.0}) {
    const double mine = reached_at(p, plain.target, plain.upper, plain.lower, d, -0.7);
    const double big = reached_at(q, scaled.target, scaled.upper, scaled.lower, kScale * d, -0.7);
    EXPECT_NEAR(mine, softened(d, kFull, kSoft), kReach) << d;
    EXPECT_NEAR(big, kScale * mine, kScale * kReach) << d;
  }
}

TEST(IkConstraint, SoftnessLargerThanTheReachIsCappedAtTheReach) {
  constexpr double kFull = 70;
  Arm arm;
  arm.add().softness = 500;
  SkeletonPose pose(arm.data);
  for (double d : {35.0, 70.0, 120.0, 200.0}) {
    const double now = reached_at(pose, arm.target, arm.upper, arm.lower, d);
    EXPECT_NEAR(now, softened(d, kFull, kFull), kReach) << d;
    EXPECT_GE(now, 0) << d;
  }
}

TEST(IkConstraint, StretchReachesTargetsBeyondReach) {
  for (bool uniform : {false, true}) {
    Arm arm;
    IkData& ik = arm.add();
    ik.stretch = true;
    ik.uniform = uniform;
    SkeletonPose pose(arm.data);
    update_skeleton(pose, {});
    const Vec2d root = origin(pose, arm.upper);
    const Vec2d far{root.x + 100 * std::cos(0.3), root.y + 100 * std::sin(0.3)};
    solve_at(pose, arm.target, far);
    EXPECT_LT(distance(tip(pose, arm.lower), far), kReach);
    const auto u = static_cast<std::size_t>(arm.upper);
    EXPECT_NEAR(pose.scale_x[u], 100.0 / 70, kValue);
    EXPECT_NEAR(pose.scale_y[u], uniform ? 100.0 / 70 : 1.0, kValue);
    // Within reach nothing stretches.
    solve_at(pose, arm.target, {40, 30});
    EXPECT_LT(distance(tip(pose, arm.lower), Vec2d{40, 30}), kReach);
    EXPECT_EQ(pose.scale_x[u], 1);
    EXPECT_EQ(pose.scale_y[u], 1);
  }
}

TEST(IkConstraint, StretchWithSoftnessStillReachesTheTarget) {
  for (bool uniform : {false, true}) {
    Arm arm;
    IkData& ik = arm.add();
    ik.stretch = true;
    ik.uniform = uniform;
    ik.softness = 8;
    SkeletonPose pose(arm.data);
    update_skeleton(pose, {});
    const Vec2d root = origin(pose, arm.upper);
    const auto u = static_cast<std::size_t>(arm.upper);
    for (double d : {60.0, 66.0, 70.0, 85.0, 140.0}) {
      const Vec2d t{root.x + d * std::cos(-1.1), root.y + d * std::sin(-1.1)};
      solve_at(pose, arm.target, t);
      EXPECT_LT(distance(tip(pose, arm.lower), t), kReach) << d << (uniform ? " uniform" : "");
      // The parent stretches by the distance over the softened distance, from the soft zone's start.
      const double factor = d / softened(d, 70, 8);
      EXPECT_NEAR(pose.scale_x[u], factor, kValue) << d;
      EXPECT_NEAR(pose.scale_y[u], uniform ? factor : 1.0, kValue) << d;
    }
  }
}

TEST(IkConstraint, CompressAndUniformAloneDoNotScaleATwoBoneChain) {
  // Compress applies to one bone only, and uniform only qualifies compress and stretch: a near target
  // is reached by bending, a far one is pointed at, and no scale changes.
  Arm arm;
  IkData& ik = arm.add();
  ik.compress = true;
  ik.uniform = true;
  SkeletonPose pose(arm.data);
  update_skeleton(pose, {});
  const Vec2d root = origin(pose, arm.upper);
  const auto u = static_cast<std::size_t>(arm.upper), l = static_cast<std::size_t>(arm.lower);
  for (double d : {15.0, 50.0, 100.0}) {
    const Vec2d t{root.x + d * std::cos(2.0), root.y + d * std::sin(2.0)};
    solve_at(pose, arm.target, t);
    EXPECT_NEAR(distance(root, tip(pose, arm.lower)), std::min(d, 70.0), kReach) << d;
    EXPECT_EQ(pose.scale_x[u], 1) << d;
    EXPECT_EQ(pose.scale_y[u], 1) << d;
    EXPECT_EQ(pose.scale_x[l], 1) << d;
    EXPECT_EQ(pose.scale_y[l], 1) << d;
  }
}

TEST(IkConstraint, MixZeroLeavesThePoseAndHalfIsHalfway) {
  Arm arm;
  IkData& ik = arm.add();
  SkeletonPose pose(arm.data);
  const Vec2d t{20, 55};
  const auto u = static_cast<std::size_t>(arm.upper), l = static_cast<std::size_t>(arm.lower);

  solve_at(pose, arm.target, t);
  const double upper_solved = pose.rotation[u], lower_solved = pose.rotation[l];

  ik.mix = 0;
  pose.set_to_setup();  // the pose's parameters come from the data at setup
  move_target(pose, arm.target, t);
  update_skeleton(pose, {});
  EXPECT_EQ(pose.rotation[u], 20);
  EXPECT_EQ(pose.rotation[l], 0);
  SkeletonPose fk(arm.data);
  fk.constraint_active[0] = 0;
  move_target(fk, arm.target, t);
  update_skeleton(fk, {});
  EXPECT_LT(distance(tip(pose, arm.lower), tip(fk, arm.lower)), 1e-6);

  ik.mix = 0.5f;
  pose.set_to_setup();
  move_target(pose, arm.target, t);
  update_skeleton(pose, {});
  EXPECT_NEAR(pose.rotation[u], 20 + std::remainder(upper_solved - 20, 360.0) / 2, kValue);
  EXPECT_NEAR(pose.rotation[l], std::remainder(lower_solved, 360.0) / 2, kValue);
}

TEST(IkConstraint, OneBonePointsAtTheTargetWithMix) {
  SkeletonData data;
  const int root = test::add_bone(data, "root", -1, 0, 0, 30, 2, 0.5f);
  const int bone = test::add_bone(data, "bone", root, 10, 10, 15, 1, 1, 6, 0);
  const int target = test::add_bone(data, "target", -1, 80, -40);
  data.bones.length[static_cast<std::size_t>(bone)] = 25;
  add_ik(data, ik_data({bone}, target));
  SkeletonPose pose(data);
  update_skeleton(pose, {});
  const auto b = static_cast<std::size_t>(bone);
  // Under a non-uniformly scaled, rotated parent and with shear X, the world X axis points at the target.
  EXPECT_NEAR(wrap(axis_angle(pose, bone) - direction(origin(pose, bone), {80, -40})), 0, kAngle);
  const double solved = pose.rotation[b];

  data.ik[0].mix = 0.5f;
  pose.set_to_setup();
  update_skeleton(pose, {});
  EXPECT_NEAR(pose.rotation[b], 15 + std::remainder(solved - 15, 360.0) / 2, kValue);
  EXPECT_EQ(pose.scale_x[b], 1);  // neither compress nor stretch
}

TEST(IkConstraint, OneBoneCompressAndStretchScaleTowardsTheTarget) {
  struct Case {
    bool compress, stretch, uniform;
    double d;            // target distance; the bone is 40 px
    double expected_sx;  // the bone's scale X after the solve
  };
  const Case cases[] = {{true, false, false, 20, 0.5}, {false, true, false, 20, 1}, {false, true, false, 80, 2},
                        {true, false, false, 80, 1},  {true, true, true, 60, 1.5},  {true, true, true, 10, 0.25}};
  for (const Case& c : cases) {
    SkeletonData data;
    const int bone = test::add_bone(data, "bone", -1, 10, 10, 70);
    const int target = test::add_bone(data, "target", -1, static_cast<float>(10 + c.d * std::cos(0.5)),
                                      static_cast<float>(10 + c.d * std::sin(0.5)));
    data.bones.length[static_cast<std::size_t>(bone)] = 40;
    IkData ik = ik_data({bone}, target);
    ik.compress = c.compress;
    ik.stretch = c.stretch;
    ik.uniform = c.uniform;
    add_ik(data, ik);
    SkeletonPose pose(data);
    update_skeleton(pose, {});
    const auto b = static_cast<std::size_t>(bone);
    EXPECT_NEAR(pose.scale_x[b], c.expected_sx, kValue) << c.d;
    EXPECT_NEAR(pose.scale_y[b], c.uniform ? c.expected_sx : 1, kValue) << c.d;
    if (c.expected_sx != 1) {
      EXPECT_LT(distance(tip(pose, bone), origin(pose, target)), kReach) << c.d;
    }

    // Half the mix scales half way.
    data.ik[0].mix = 0.5f;
    pose.set_to_setup();
    update_skeleton(pose, {});
    EXPECT_NEAR(pose.scale_x[b], 1 + (c.expected_sx - 1) / 2, kValue) << c.d;
  }
}

TEST(IkConstraint, ParametersAnimatedByAClipTakeEffect) {
  Arm arm;
  arm.add();
  // mix keyed 0 → 0.75 → 1 at t = 0, 0.75, 1 (linear); bend keyed 1, −1, −1 (stepped); softness,
  // compress and stretch not keyed.
  auto clip = std::make_shared<ClipData>();
  clip->name = "ik";
  clip->length = 1;
  // Per key: mix, softness, bend, compress, stretch.
  test::add_timeline(*clip, TimelineKind::Ik, 0, 5, {0, 0.75f, 1},
                     {0, 0, 1, 0, 0,  //
                      0.75f, 0, -1, 0, 0,  //
                      1, 0, -1, 0, 0},
                     2, 0b00101);
  const int id = test::add_clip(arm.data, clip);
  arm.data.bones.x[static_cast<std::size_t>(arm.target)] = 30;
  arm.data.bones.y[static_cast<std::size_t>(arm.target)] = 50;
  SkeletonInstance instance(arm.data);
  const SkeletonPose& pose = instance.pose();
  const auto u = static_cast<std::size_t>(arm.upper), l = static_cast<std::size_t>(arm.lower);
  auto play = [&](float t) {
    const anim::ClipSample s = loop_sample(arm.data, id, t, t, false);
    instance.update({&s, 1});
  };

  play(0);  // mix 0: the FK pose
  EXPECT_EQ(pose.ik[0].mix, 0);
  EXPECT_EQ(pose.rotation[u], 20);
  EXPECT_EQ(pose.rotation[l], 0);

  play(1);  // mix 1, bend −1: reached, child turned anticlockwise
  EXPECT_EQ(pose.ik[0].bend, -1);
  EXPECT_LT(distance(tip(pose, arm.lower), Vec2d{30, 50}), kReach);
  EXPECT_LT(pose.rotation[l], 0);
  const double upper_solved = pose.rotation[u], lower_solved = pose.rotation[l];

  EXPECT_GT(std::abs(lower_solved), 1);

  // The bend +1 solve for the same target, for comparison.
  SkeletonPose reference(arm.data);
  update_skeleton(reference, {});
  const double upper_plus = reference.rotation[u], lower_plus = reference.rotation[l];
  ASSERT_GT(lower_plus, 0);

  play(0.5f);  // mix 0.5, bend +1: halfway from the FK pose to the bend +1 solve
  EXPECT_NEAR(pose.ik[0].mix, 0.5f, 1e-6);
  EXPECT_EQ(pose.ik[0].bend, 1);
  EXPECT_NEAR(pose.rotation[u], 20 + std::remainder(upper_plus - 20, 360.0) / 2, kValue);
  EXPECT_NEAR(pose.rotation[l], std::remainder(lower_plus, 360.0) / 2, kValue);
  EXPECT_NE(pose.rotation[u], upper_solved);
}

TEST(IkConstraint, InactiveBonesOrTargetLeaveThePose) {
  Arm arm;
  arm.add();
  arm.data.bones.skin_required[static_cast<std::size_t>(arm.target)] = 1;
  SkeletonPose pose(arm.data);  // no skins: the skin-required target is inactive
  ASSERT_EQ(pose.active[static_cast<std::size_t>(arm.target)], 0);
  update_skeleton(pose, {});
  EXPECT_EQ(pose.rotation[static_cast<std::size_t>(arm.upper)], 20);
  EXPECT_EQ(pose.rotation[static_cast<std::size_t>(arm.lower)], 0);
}

}  // namespace
}  // namespace mf::skel
