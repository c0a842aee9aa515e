// The update order walk: constraints solve where the order puts them and bones after them follow;
// constraint ids switch constraints on and off; idle bones are skipped while constrained ones are
// always recomputed; rigs from the build step and SkeletonInstance frames solve their constraints.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <vector>

#include "mf/core/math/vec2.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/skel/constraints.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "mf/skel/world_transform.hpp"
#include "bone_points.hpp"
#include "synthetic_rig.hpp"
#include "test_rig.hpp"

namespace mf::skel {
namespace {

// Positions from float world transforms, pixels.
constexpr double kPx = 1e-3;
// Directions, radians.
constexpr double kAngle = 1e-4;

using test::distance;
using test::origin;
using test::tip;

// Angle between a bone's X axis and the direction from its origin to `to`.
double aim_error(const SkeletonPose& p, int b, Vec2d to) {
  const auto i = static_cast<std::size_t>(b);
  const Vec2d from = origin(p, b);
  return std::remainder(std::atan2(p.c[i], p.a[i]) - std::atan2(to.y - from.y, to.x - from.x), 2 * 3.14159265358979);
}

void push_ik(SkeletonData& d, std::vector<std::int32_t> bones, int target) {
  IkData ik;
  ik.name = "ik" + std::to_string(d.ik.size());
  ik.bones = std::move(bones);
  ik.target = target;
  const auto index = static_cast<std::int32_t>(d.ik.size());
  d.ik.push_back(std::move(ik));
  d.update_order.push_back({UpdateKind::Ik, index});
  d.constraint_steps.push_back({UpdateKind::Ik, index});
}
void push_bone(SkeletonData& d, int bone) { d.update_order.push_back({UpdateKind::Bone, bone}); }

// Two one-bone IKs where the second reads the first's result: `arm` points at `goal`, `hand` rides on
// the arm's tip, and `eye` points at the hand.
struct Follow {
  SkeletonData data;
  int root, arm, hand, goal, eye;

  // `eye_first`: the eye's constraint comes first in the order, so it sees the hand before the arm
  // turns.
  explicit Follow(bool eye_first = false) {
    root = test::add_bone(data, "root", -1);
    arm = test::add_bone(data, "arm", root, 0, 0, 0);
    hand = test::add_bone(data, "hand", arm, 50, 0);
    goal = test::add_bone(data, "goal", root, 0, 80);
    eye = test::add_bone(data, "eye", root, 100, 0);
    data.bones.length[static_cast<std::size_t>(arm)] = 50;
    if (eye_first) {
      push_ik(data, {eye}, hand);
      push_bone(data, eye);
    }
    push_ik(data, {arm}, goal);  // arm turns to point down at the goal
    push_bone(data, arm);
    push_bone(data, hand);
    if (!eye_first) {
      push_ik(data, {eye}, hand);
      push_bone(data, eye);
    }
  }
};

TEST(UpdateOrder, AConstraintSeesTheBonesSolvedBeforeIt) {
  Follow rig;
  SkeletonPose pose(rig.data);
  update_skeleton(pose, {});
  // The arm points at the goal; the hand, emitted after the arm's solve, is at the goal's side.
  EXPECT_NEAR(aim_error(pose, rig.arm, {0, 80}), 0, kAngle);
  EXPECT_LT(distance(origin(pose, rig.hand), {0, 50}), kPx);
  // The eye's constraint comes after: it points at the solved hand.
  EXPECT_NEAR(aim_error(pose, rig.eye, {0, 50}), 0, kAngle);
}

TEST(UpdateOrder, AConstraintEarlierInTheOrderSeesTheUnsolvedPose) {
  Follow rig(true);
  SkeletonPose pose(rig.data);
  update_skeleton(pose, {});
  // The eye solved before the arm turned: it points where the hand was in the setup pose, (50, 0).
  EXPECT_NEAR(aim_error(pose, rig.eye, {50, 0}), 0, kAngle);
  EXPECT_LT(distance(origin(pose, rig.hand), {0, 50}), kPx);
}

TEST(UpdateOrder, ConstraintIdsAreTheirPlaceInTheOrder) {
  Follow rig;
  ASSERT_EQ(rig.data.constraint_steps.size(), 2u);
  SkeletonPose pose(rig.data);
  pose.constraint_active[1] = 0;  // the eye's constraint, second in the order
  update_skeleton(pose, {});
  EXPECT_NEAR(aim_error(pose, rig.arm, {0, 80}), 0, kAngle);
  EXPECT_EQ(pose.rotation[static_cast<std::size_t>(rig.eye)], 0);

  pose.constraint_active[1] = 1;
  pose.constraint_active[0] = 0;  // the arm's
  pose.set_to_setup();
  update_skeleton(pose, {});
  EXPECT_EQ(pose.rotation[static_cast<std::size_t>(rig.arm)], 0);
  EXPECT_LT(distance(origin(pose, rig.hand), {50, 0}), kPx);
  EXPECT_NEAR(aim_error(pose, rig.eye, {50, 0}), 0, kAngle);
}

TEST(UpdateOrder, IdleBonesAreSkippedAndConstrainedBonesAlwaysRecomputed) {
  Follow rig;
  const int tail = test::add_bone(rig.data, "tail", rig.root, -10, 0);
  const int tip_bone = test::add_bone(rig.data, "tail_tip", tail, -10, 0);
  SkeletonPose pose(rig.data);
  update_skeleton(pose, {});
  for (int b : {tail, tip_bone, rig.arm, rig.hand, rig.eye})
    EXPECT_EQ(pose.world_changed[static_cast<std::size_t>(b)], 1) << b;

  pose.set_to_setup();  // what the clip sampler does every frame
  update_skeleton(pose, {});
  EXPECT_EQ(pose.world_changed[static_cast<std::size_t>(tail)], 0);
  EXPECT_EQ(pose.world_changed[static_cast<std::size_t>(tip_bone)], 0);
  EXPECT_EQ(pose.world_changed[static_cast<std::size_t>(rig.goal)], 0);
  // Solved bones and their descendants never count as idle: the solve rewrites them every frame.
  for (int b : {rig.arm, rig.hand, rig.eye}) EXPECT_EQ(pose.world_changed[static_cast<std::size_t>(b)], 1) << b;
  EXPECT_NEAR(aim_error(pose, rig.eye, {0, 50}), 0, kAngle);

  // Moving an idle bone recomputes it and its descendants.
  pose.set_to_setup();
  pose.rotation[static_cast<std::size_t>(tail)] = 90;
  update_skeleton(pose, {});
  EXPECT_EQ(pose.world_changed[static_cast<std::size_t>(tail)], 1);
  EXPECT_EQ(pose.world_changed[static_cast<std::size_t>(tip_bone)], 1);
  EXPECT_LT(distance(origin(pose, tip_bone), {-10, -10}), kPx);

  // Moving the goal moves the solved chain and what reads it.
  pose.set_to_setup();
  pose.rotation[static_cast<std::size_t>(tail)] = 90;
  pose.x[static_cast<std::size_t>(rig.goal)] = -80;
  pose.y[static_cast<std::size_t>(rig.goal)] = 0;
  update_skeleton(pose, {});
  EXPECT_LT(distance(origin(pose, rig.hand), {-50, 0}), kPx);
  EXPECT_NEAR(aim_error(pose, rig.eye, {-50, 0}), 0, kAngle);
}

TEST(UpdateOrder, UpdateWorldTransformsIsTheDefaultFrame) {
  Follow rig;
  SkeletonPose a(rig.data), b(rig.data);
  update_world_transforms(a);
  update_skeleton(b, FrameContext{});
  for (std::size_t i = 0; i < rig.data.bones.size(); ++i) {
    EXPECT_EQ(a.a[i], b.a[i]);
    EXPECT_EQ(a.c[i], b.c[i]);
    EXPECT_EQ(a.world_x[i], b.world_x[i]);
    EXPECT_EQ(a.world_y[i], b.world_y[i]);
  }
  EXPECT_NEAR(aim_error(a, rig.eye, {0, 50}), 0, kAngle);
}

TEST(UpdateOrder, InactiveBonesAreSkippedUntilTheyReturn) {
  Follow rig;
  rig.data.bones.skin_required[static_cast<std::size_t>(rig.goal)] = 1;
  SkeletonPose pose(rig.data);  // no skin: the goal is inactive, so the arm's constraint does nothing
  update_skeleton(pose, {});
  EXPECT_EQ(pose.rotation[static_cast<std::size_t>(rig.arm)], 0);
  EXPECT_NEAR(aim_error(pose, rig.eye, {50, 0}), 0, kAngle);

  pose.active[static_cast<std::size_t>(rig.goal)] = 1;
  pose.set_to_setup();
  update_skeleton(pose, {});
  EXPECT_LT(distance(origin(pose, rig.goal), {0, 80}), kPx);
  EXPECT_NEAR(aim_error(pose, rig.arm, {0, 80}), 0, kAngle);
}

// root ─ hip ─ thigh ─ shin ─ foot, a target under the root, built by the build step: its update
// order puts the target before the solve and the foot after it.
TEST(UpdateOrder, ARigFromTheBuildStepSolvesItsChain) {
  using namespace mf::offline;
  SkeletonSource s;
  s.uid = "skl_0123456789ab";
  auto bone = [](std::string name, int parent, float x, float y, float length) {
    Bone b;
    b.name = std::move(name);
    b.parent = parent;
    b.x = x;
    b.y = y;
    b.length = length;
    return b;
  };
  s.bones = {bone("root", -1, 0, 0, 0), bone("hip", 0, 0, -100, 0), bone("thigh", 1, 0, 0, 50),
             bone("shin", 2, 50, 0, 45), bone("foot", 3, 45, 0, 10), bone("target", 0, 20, -20, 0)};
  s.bones[2].rotation = 80;
  IkConstraint ik;
  ik.name = "leg";
  ik.bones = {2, 3};
  ik.target = 5;
  s.ik.push_back(ik);
  auto built = build_skeleton(s, [](const std::string&) { return std::optional<ImageSize>{}; }, "leg", "leg.mskel");
  ASSERT_TRUE(built.ok()) << built.error().to_string();
  const SkeletonData& data = *built->data;
  SkeletonPose pose(data);
  update_skeleton(pose, {});
  EXPECT_LT(distance(tip(pose, 3), {20, -20}), kPx);
  EXPECT_LT(distance(origin(pose, 4), {20, -20}), kPx);  // the foot follows the solved shin
  EXPECT_GT(pose.rotation[3], 0);                         // bend +1: the knee turns clockwise
}

TEST(UpdateOrder, SkeletonInstanceSolvesAfterTheClip) {
  Follow rig;
  auto clip = std::make_shared<ClipData>();
  clip->name = "move";
  clip->length = 1;
  test::add_timeline(*clip, TimelineKind::Translate, rig.goal, 2, {0, 1}, {0, 0, -80, -80});
  const int id = test::add_clip(rig.data, clip);
  SkeletonInstance instance(rig.data);
  const anim::ClipSample s = loop_sample(rig.data, id, 0, 1, false);
  instance.update({&s, 1}, FrameContext{.delta = 1.0f / 60});
  // The goal is keyed to (−80, 0): the arm points there and the eye at the hand beside it.
  EXPECT_LT(distance(origin(instance.pose(), rig.goal), {-80, 0}), kPx);
  EXPECT_LT(distance(origin(instance.pose(), rig.hand), {-50, 0}), kPx);
  EXPECT_NEAR(aim_error(instance.pose(), rig.eye, {-50, 0}), 0, kAngle);
}

}  // namespace
}  // namespace mf::skel

namespace mf::skel {
namespace {

// World transforms of every bone, bit for bit.
bool same_world(const SkeletonPose& a, const SkeletonPose& b) {
  return a.a == b.a && a.b == b.b && a.c == b.c && a.d == b.d && a.world_x == b.world_x && a.world_y == b.world_y;
}

// An IK step whose bones the build's update order recomputes before anything reads them leaves them
// to those bone steps; the poses are the same as when the solver recomputes them itself.
TEST(UpdateOrder, IkLeavesItsBonesToTheBoneStepsThatFollowWithTheSamePose) {
  int left = 0;  // IK steps left to bone steps, over both rigs
  for (const auto& rig : {testing::make_constraint_rig(), testing::make_raptor_shaped_rig()}) {
    const auto built = testing::build_synthetic(rig);
    const SkeletonData& data = *built.data;
    SkeletonInstance deferred(data), solver(data);
    std::fill(solver.pose().ik_world_deferred.begin(), solver.pose().ik_world_deferred.end(), 0);
    for (const std::uint8_t d : deferred.pose().ik_world_deferred) left += d;
    const int clip = data.find_clip(data.clips.front().name);
    for (int f = 0; f < 90; ++f) {
      const float t = static_cast<float>(f) / 60;
      const anim::ClipSample s = loop_sample(data, clip, t - 1.0f / 60, t);
      deferred.update({&s, 1}, FrameContext{.delta = 1.0f / 60});
      solver.update({&s, 1}, FrameContext{.delta = 1.0f / 60});
      ASSERT_TRUE(same_world(deferred.pose(), solver.pose())) << "frame " << f;
    }
  }
  EXPECT_GT(left, 0) << "the builds' orders let some IK step leave its bones to bone steps";
}

// A hand-made order that never recomputes the IK's bones after it keeps the solver's own recompute.
TEST(UpdateOrder, IkKeepsRecomputingWhenNoBoneStepFollows) {
  SkeletonData data;
  const int root = test::add_bone(data, "root", -1);
  const int upper = test::add_bone(data, "upper", root, 0, 0, 0, 1, 1, 0, 0);
  const int target = test::add_bone(data, "target", root, 30, 10);
  data.bones.length[static_cast<std::size_t>(upper)] = 20;
  data.ik.push_back({"ik", {upper}, target, 1, 0, 1, false, false, false, false});
  data.update_order = {{UpdateKind::Bone, root}, {UpdateKind::Bone, upper}, {UpdateKind::Bone, target}, {UpdateKind::Ik, 0}};
  data.constraint_steps = {{UpdateKind::Ik, 0}};
  SkeletonPose pose(data);
  ASSERT_EQ(pose.ik_world_deferred.size(), 1u);
  EXPECT_EQ(pose.ik_world_deferred[0], 0);
  update_skeleton(pose, {});
  const auto u = static_cast<std::size_t>(upper);
  EXPECT_NEAR(std::atan2(pose.c[u], pose.a[u]), std::atan2(10.0f, 30.0f), 1e-5f);  // pointing at the target
}

}  // namespace
}  // namespace mf::skel
