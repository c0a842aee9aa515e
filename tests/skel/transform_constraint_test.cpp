#include <cmath>
#include <memory>

#include <gtest/gtest.h>

#include "mf/core/math/angle.hpp"
#include "mf/skel/clip_sampler.hpp"
#include "mf/skel/constraints.hpp"
#include "mf/skel/world_transform.hpp"
#include "test_rig.hpp"

namespace mf::skel {
namespace {

// Answers are a few float sines, cosines and matrix inversions from exact.
constexpr float kTolerance = 1e-4f;

// The rig (Y down, degrees clockwise):
//   root    at the origin.
//   target  child of root at (100, 50), rotated 30°, scale (2, 1.5), shear Y 10°. Its world 2×2 is its
//           local one: X axis 2·(cos 30°, sin 30°) = (1.7320508, 1), Y axis at 30 + 90 + 10 = 130° of
//           length 1.5 = (−0.9641814, 1.1490667).
//   parent  child of root at (10, 20), rotated 90°: P = [0 −1; 1 0], P⁻¹ = [0 1; −1 0].
//   bone    child of parent at local (5, 0), the constrained bone: world (10, 25), world rotation 90°.
//   child   child of bone at local (10, 0): follows the bone.
// A world point w becomes the bone's local translation P⁻¹·(w − (10, 20)) = (w.y − 20, 10 − w.x).
class TransformConstraint : public ::testing::Test {
 protected:
  TransformConstraint() {
    test::add_bone(data_, "root", -1);
    target_ = test::add_bone(data_, "target", 0, 100, 50, 30, 2, 1.5f, 0, 10);
    parent_ = test::add_bone(data_, "parent", 0, 10, 20, 90);
    bone_ = test::add_bone(data_, "bone", parent_, 5, 0);
    child_ = test::add_bone(data_, "child", bone_, 10, 0);
    TransformData c;
    c.name = "tc";
    c.bones = {bone_};
    c.target = target_;
    c.mix_rotate = c.mix_x = c.mix_y = c.mix_scale_x = c.mix_scale_y = c.mix_shear_y = 0;
    data_.transform.push_back(c);
    data_.update_order.push_back({UpdateKind::Transform, 0});
    data_.update_order.push_back({UpdateKind::Bone, bone_});
    data_.update_order.push_back({UpdateKind::Bone, child_});
    data_.constraint_steps.push_back({UpdateKind::Transform, 0});
  }

  TransformData& constraint() { return data_.transform[0]; }

  // One walk of the update order: the bones, the constraint, then the constrained bone (from its new
  // local pose) and its child again.
  std::unique_ptr<SkeletonPose> solve() {
    auto pose = std::make_unique<SkeletonPose>(data_);
    solve(*pose);
    return pose;
  }
  static void solve(SkeletonPose& pose) { update_skeleton(pose, FrameContext{}); }
  // The pose the bones have without the constraint.
  std::unique_ptr<SkeletonPose> unconstrained() {
    auto pose = std::make_unique<SkeletonPose>(data_);
    pose->constraint_active[0] = 0;
    update_skeleton(*pose, FrameContext{});
    return pose;
  }

  void expect_local(const SkeletonPose& p, float x, float y, float rotation, float sx, float sy, float shy) const {
    const auto i = static_cast<std::size_t>(bone_);
    EXPECT_NEAR(p.x[i], x, kTolerance);
    EXPECT_NEAR(p.y[i], y, kTolerance);
    EXPECT_NEAR(p.rotation[i], rotation, kTolerance);
    EXPECT_NEAR(p.scale_x[i], sx, kTolerance);
    EXPECT_NEAR(p.scale_y[i], sy, kTolerance);
    EXPECT_NEAR(p.shear_x[i], 0, kTolerance);
    EXPECT_NEAR(p.shear_y[i], shy, kTolerance);
  }

  static void expect_world(const SkeletonPose& p, int bone, float a, float b, float c, float d, float x, float y) {
    const auto i = static_cast<std::size_t>(bone);
    EXPECT_NEAR(p.a[i], a, kTolerance);
    EXPECT_NEAR(p.b[i], b, kTolerance);
    EXPECT_NEAR(p.c[i], c, kTolerance);
    EXPECT_NEAR(p.d[i], d, kTolerance);
    EXPECT_NEAR(p.world_x[i], x, kTolerance);
    EXPECT_NEAR(p.world_y[i], y, kTolerance);
  }

  // For the local modes the bone's own setup is rotation 10°, scale (1.5, 0.5), shear Y 4°, and every
  // channel is mixed by `mix`.
  void use_local_setup(float mix = 1) {
    const auto i = static_cast<std::size_t>(bone_);
    data_.bones.rotation[i] = 10;
    data_.bones.scale_x[i] = 1.5f;
    data_.bones.scale_y[i] = 0.5f;
    data_.bones.shear_y[i] = 4;
    constraint().local = true;
    mix_all(mix);
  }
  void mix_all(float m) {
    TransformData& c = constraint();
    c.mix_rotate = c.mix_x = c.mix_y = c.mix_scale_x = c.mix_scale_y = c.mix_shear_y = m;
  }

  SkeletonData data_;
  int target_, parent_, bone_, child_;
};

constexpr float kCos30 = 0.86602540f;

TEST_F(TransformConstraint, WorldAbsoluteRotationCopiesTheTargetDirection) {
  constraint().mix_rotate = 1;
  auto p = solve();
  // World rotation 90° → 30°: local −60°; position and scale untouched.
  expect_local(*p, 5, 0, -60, 1, 1, 0);
  expect_world(*p, bone_, kCos30, -0.5f, 0.5f, kCos30, 10, 25);
  // The child follows: (10, 25) + R(30°)·(10, 0).
  EXPECT_NEAR(p->world_x[static_cast<std::size_t>(child_)], 18.660254f, kTolerance);
  EXPECT_NEAR(p->world_y[static_cast<std::size_t>(child_)], 30, kTolerance);
}

TEST_F(TransformConstraint, WorldAbsoluteRotationHalfMixAndOffset) {
  constraint().mix_rotate = 0.5f;
  expect_local(*solve(), 5, 0, -30, 1, 1, 0);  // 90 + (30 − 90)·0.5 = 60° world
  constraint().mix_rotate = 1;
  constraint().offset_rotation = 15;
  expect_local(*solve(), 5, 0, -45, 1, 1, 0);  // 30 + 15 = 45° world
}

TEST_F(TransformConstraint, WorldAbsoluteTranslation) {
  constraint().mix_x = constraint().mix_y = 1;
  auto p = solve();
  expect_local(*p, 30, -90, 0, 1, 1, 0);  // world (100, 50)
  EXPECT_NEAR(p->world_x[static_cast<std::size_t>(bone_)], 100, kTolerance);
  EXPECT_NEAR(p->world_y[static_cast<std::size_t>(bone_)], 50, kTolerance);
  // The child follows: bone world rotation stays 90°, so (100, 50) + (0, 10).
  EXPECT_NEAR(p->world_x[static_cast<std::size_t>(child_)], 100, kTolerance);
  EXPECT_NEAR(p->world_y[static_cast<std::size_t>(child_)], 60, kTolerance);

  constraint().mix_x = constraint().mix_y = 0.5f;
  expect_local(*solve(), 17.5f, -45, 0, 1, 1, 0);  // world (10, 25) + (90, 25)·0.5 = (55, 37.5)

  constraint().mix_x = 1;
  constraint().mix_y = 0;
  expect_local(*solve(), 5, -90, 0, 1, 1, 0);  // world (100, 25)
}

TEST_F(TransformConstraint, WorldTranslationOffsetIsInTheTargetsSpace) {
  constraint().mix_x = constraint().mix_y = 1;
  constraint().offset_x = 10;
  // (100, 50) + 10·(1.7320508, 1) = (117.32051, 60).
  auto p = solve();
  EXPECT_NEAR(p->world_x[static_cast<std::size_t>(bone_)], 117.32051f, kTolerance);
  EXPECT_NEAR(p->world_y[static_cast<std::size_t>(bone_)], 60, kTolerance);
  expect_local(*p, 40, -107.32051f, 0, 1, 1, 0);
}

TEST_F(TransformConstraint, WorldAbsoluteScale) {
  constraint().mix_scale_x = constraint().mix_scale_y = 1;
  auto p = solve();
  expect_local(*p, 5, 0, 0, 2, 1.5f, 0);
  expect_world(*p, bone_, 0, -1.5f, 2, 0, 10, 25);
  // The child is 10 along the bone's X axis, now twice as long.
  EXPECT_NEAR(p->world_y[static_cast<std::size_t>(child_)], 45, kTolerance);

  constraint().mix_scale_x = constraint().mix_scale_y = 0.5f;
  expect_local(*solve(), 5, 0, 0, 1.5f, 1.25f, 0);

  constraint().mix_scale_x = constraint().mix_scale_y = 1;
  constraint().offset_scale_x = 0.5f;
  constraint().offset_scale_y = -0.25f;
  expect_local(*solve(), 5, 0, 0, 2.5f, 1.25f, 0);
}

TEST_F(TransformConstraint, WorldAbsoluteShear) {
  constraint().mix_shear_y = 1;
  auto p = solve();
  expect_local(*p, 5, 0, 0, 1, 1, 10);
  // Y axis at 90 + 90 + 10 = 190°.
  expect_world(*p, bone_, 0, std::cos(190 * 0.017453292f), 1, std::sin(190 * 0.017453292f), 10, 25);

  constraint().mix_shear_y = 0.5f;
  expect_local(*solve(), 5, 0, 0, 1, 1, 5);
  constraint().mix_shear_y = 1;
  constraint().offset_shear_y = 5;
  expect_local(*solve(), 5, 0, 0, 1, 1, 15);
}

TEST_F(TransformConstraint, WorldAbsoluteAllChannelsGiveTheTargetsWorldTransform) {
  TransformData& c = constraint();
  c.mix_rotate = c.mix_x = c.mix_y = c.mix_scale_x = c.mix_scale_y = c.mix_shear_y = 1;
  auto p = solve();
  expect_local(*p, 30, -90, -60, 2, 1.5f, 10);
  expect_world(*p, bone_, 1.7320508f, -0.96418141f, 1, 1.1490667f, 100, 50);
}

// With a non-uniformly scaled parent the bone cannot keep its local shape: the world matrix is turned
// as a whole and the local pose absorbs the difference as shear.
TEST_F(TransformConstraint, WorldRotationUnderNonUniformParentScale) {
  SkeletonData data;
  test::add_bone(data, "root", -1);
  const int target = test::add_bone(data, "target", 0, 0, 0, 30);
  const int parent = test::add_bone(data, "parent", 0, 0, 0, 0, 2, 1);
  const int bone = test::add_bone(data, "bone", parent);
  TransformData c;
  c.name = "tc";
  c.bones = {bone};
  c.target = target;
  c.mix_x = c.mix_y = c.mix_scale_x = c.mix_scale_y = c.mix_shear_y = 0;
  data.transform.push_back(c);
  SkeletonPose pose(data);
  // Not in the update order: solved by hand between two walks.
  update_world_transforms(pose);
  solve_transform(pose, 0);
  update_world_transforms(pose);  // recomputed from the new local pose
  // R(30°)·diag(2, 1) = [2 cos 30, −sin 30; 2 sin 30, cos 30].
  const auto i = static_cast<std::size_t>(bone);
  EXPECT_NEAR(pose.a[i], 1.7320508f, kTolerance);
  EXPECT_NEAR(pose.b[i], -0.5f, kTolerance);
  EXPECT_NEAR(pose.c[i], 1, kTolerance);
  EXPECT_NEAR(pose.d[i], kCos30, kTolerance);
  // Local = P⁻¹·that = diag(1/2, 1)·that: X axis (cos 30, 1), Y axis (−0.25, cos 30).
  const float x_angle = std::atan2(1.0f, kCos30) * 57.29578f;
  EXPECT_NEAR(pose.rotation[i], x_angle, kTolerance);
  EXPECT_NEAR(pose.scale_x[i], std::hypot(1.0f, kCos30), kTolerance);
  EXPECT_NEAR(pose.scale_y[i], std::hypot(-0.25f, kCos30), kTolerance);
  EXPECT_NEAR(pose.shear_y[i], std::atan2(kCos30, -0.25f) * 57.29578f - x_angle - 90, kTolerance);
}

// A bone with reflection (negative scale X) and shear X keeps both: a world rotation turns its world
// matrix as a whole, M' = R(Δ)·M, and the local pose written back reproduces exactly that.
TEST_F(TransformConstraint, WorldRotationKeepsReflectionAndShearX) {
  const auto i = static_cast<std::size_t>(bone_);
  data_.bones.scale_x[i] = -1.5f;
  data_.bones.scale_y[i] = 0.8f;
  data_.bones.shear_x[i] = 5;
  data_.bones.shear_y[i] = 12;
  constraint().mix_rotate = 1;
  const auto before_pose = unconstrained();
  const SkeletonPose& before = *before_pose;
  // The bone's X axis points along −(cos 95°, sin 95°) in world (parent 90° + shear X 5°, flipped):
  // −85°. The target's is 30°, so Δ = 115°.
  const float turn = 115 * 0.017453292f, cs = std::cos(turn), sn = std::sin(turn);
  const float a = cs * before.a[i] - sn * before.c[i], c = sn * before.a[i] + cs * before.c[i];
  const float b = cs * before.b[i] - sn * before.d[i], d = sn * before.b[i] + cs * before.d[i];
  auto p = solve();
  expect_world(*p, bone_, a, b, c, d, 10, 25);
  EXPECT_NEAR(p->scale_x[i], -1.5f, kTolerance);
  EXPECT_NEAR(p->scale_y[i], 0.8f, kTolerance);
  EXPECT_NEAR(p->shear_x[i], 5, kTolerance);
  EXPECT_NEAR(p->shear_y[i], 12, kTolerance);
  EXPECT_NEAR(p->rotation[i], 115, kTolerance);
}

TEST_F(TransformConstraint, WorldRelativeAddsTheTargetsTransform) {
  constraint().relative = true;
  constraint().mix_rotate = 1;
  expect_local(*solve(), 5, 0, 30, 1, 1, 0);  // world 90 + 30 = 120°
  constraint().mix_rotate = 0.5f;
  expect_local(*solve(), 5, 0, 15, 1, 1, 0);  // world 90 + 15
  constraint().mix_rotate = 1;
  constraint().offset_rotation = 15;
  expect_local(*solve(), 5, 0, 45, 1, 1, 0);  // world 90 + 30 + 15
  constraint().mix_rotate = 0;

  constraint().mix_x = constraint().mix_y = 1;
  auto p = solve();
  expect_local(*p, 55, -100, 0, 1, 1, 0);  // world (10, 25) + (100, 50)
  EXPECT_NEAR(p->world_x[static_cast<std::size_t>(bone_)], 110, kTolerance);
  EXPECT_NEAR(p->world_y[static_cast<std::size_t>(bone_)], 75, kTolerance);
  constraint().mix_x = constraint().mix_y = 0;

  constraint().mix_scale_x = constraint().mix_scale_y = 1;
  expect_local(*solve(), 5, 0, 0, 2, 1.5f, 0);  // 1·2, 1·1.5
  constraint().mix_scale_x = constraint().mix_scale_y = 0.5f;
  expect_local(*solve(), 5, 0, 0, 1.5f, 1.25f, 0);  // 1·(1 + (2 − 1)·0.5), 1·(1 + 0.5·0.5)
  constraint().mix_scale_x = constraint().mix_scale_y = 0;

  constraint().mix_shear_y = 1;
  expect_local(*solve(), 5, 0, 0, 1, 1, 10);
}

TEST_F(TransformConstraint, WorldRelativeScaleMultipliesTheBonesOwn) {
  data_.bones.scale_x[static_cast<std::size_t>(bone_)] = 3;
  constraint().relative = true;
  constraint().mix_scale_x = 1;
  constraint().offset_scale_x = 0.5f;
  expect_local(*solve(), 5, 0, 0, 7.5f, 1, 0);  // 3·(2 + 0.5)
}

TEST_F(TransformConstraint, LocalAbsoluteCopiesTheTargetsLocalPose) {
  use_local_setup();
  auto p = solve();
  expect_local(*p, 100, 50, 30, 2, 1.5f, 10);
  // World position: P·(100, 50) + (10, 20) = (−40, 120); world rotation 90 + 30.
  const auto i = static_cast<std::size_t>(bone_);
  EXPECT_NEAR(p->world_x[i], -40, kTolerance);
  EXPECT_NEAR(p->world_y[i], 120, kTolerance);
  EXPECT_NEAR(std::atan2(p->c[i], p->a[i]) * 57.29578f, 120, kTolerance);

  mix_all(0.5f);
  expect_local(*solve(), 52.5f, 25, 20, 1.75f, 1, 7);
}

TEST_F(TransformConstraint, LocalAbsoluteWithOffsets) {
  use_local_setup();
  TransformData& c = constraint();
  c.offset_rotation = 5;
  c.offset_x = 1;
  c.offset_y = 2;
  c.offset_scale_x = 0.5f;
  c.offset_scale_y = 0.25f;
  c.offset_shear_y = 3;
  expect_local(*solve(), 101, 52, 35, 2.5f, 1.75f, 13);
}

TEST_F(TransformConstraint, LocalRelativeAddsTheTargetsLocalPose) {
  use_local_setup();
  constraint().relative = true;
  // rotation 10 + 30, x 5 + 100, y 0 + 50, scale 1.5·2 and 0.5·1.5, shear 4 + 10.
  expect_local(*solve(), 105, 50, 40, 3, 0.75f, 14);
  mix_all(0.5f);
  // 10 + 15, 5 + 50, 25, 1.5·(1 + 0.5), 0.5·(1 + 0.25), 4 + 5.
  expect_local(*solve(), 55, 25, 25, 2.25f, 0.625f, 9);
}

// Mix 0 leaves the pose exactly as it was, in every space and mode.
TEST_F(TransformConstraint, MixZeroLeavesThePoseUnchanged) {
  constraint().offset_rotation = 20;
  constraint().offset_x = 7;
  for (const bool local : {false, true}) {
    for (const bool relative : {false, true}) {
      constraint().local = local;
      constraint().relative = relative;
      const auto reference_pose = unconstrained();
      const SkeletonPose& reference = *reference_pose;
      auto p = solve();
      for (int bone = 0; bone < static_cast<int>(data_.bones.size()); ++bone) {
        const auto i = static_cast<std::size_t>(bone);
        EXPECT_EQ(p->x[i], reference.x[i]);
        EXPECT_EQ(p->y[i], reference.y[i]);
        EXPECT_EQ(p->rotation[i], reference.rotation[i]);
        EXPECT_EQ(p->scale_x[i], reference.scale_x[i]);
        EXPECT_EQ(p->scale_y[i], reference.scale_y[i]);
        EXPECT_EQ(p->shear_y[i], reference.shear_y[i]);
        EXPECT_EQ(p->a[i], reference.a[i]);
        EXPECT_EQ(p->world_x[i], reference.world_x[i]);
        EXPECT_EQ(p->world_y[i], reference.world_y[i]);
      }
    }
  }
}

// Channels with mix 0 keep their values even when others are solved.
TEST_F(TransformConstraint, UnmixedChannelsAreUntouched) {
  data_.bones.scale_x[static_cast<std::size_t>(bone_)] = 1.25f;
  data_.bones.shear_y[static_cast<std::size_t>(bone_)] = 3;
  constraint().mix_x = 1;
  auto p = solve();
  const auto i = static_cast<std::size_t>(bone_);
  EXPECT_EQ(p->rotation[i], 0);
  EXPECT_EQ(p->scale_x[i], 1.25f);
  EXPECT_EQ(p->scale_y[i], 1);
  EXPECT_EQ(p->shear_y[i], 3);
  // World (10, 25) → (100, 25); mix_y 0 keeps world y, which is local x under the turned parent.
  EXPECT_NEAR(p->x[i], 5, kTolerance);
  EXPECT_NEAR(p->y[i], -90, kTolerance);
}

// The clip sampler writes the mixes into pose.transform; the solver reads them from there.
TEST_F(TransformConstraint, MixesAnimatedThroughThePose) {
  constraint().mix_rotate = 1;
  auto clip = std::make_shared<ClipData>();
  clip->name = "mix";
  clip->length = 1;
  test::add_timeline(*clip, TimelineKind::Transform, 0, 6, {0, 1}, {0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0});
  const int id = test::add_clip(data_, clip);
  SkeletonPose pose(data_);
  ClipSampler sampler(data_);
  EventBuffer events;
  anim::ClipSample s;
  s.clip = id;
  s.time = s.previous_time = 0.5f;
  sampler.apply(pose, {&s, 1}, events);
  EXPECT_NEAR(pose.transform[0].mix_rotate, 0.5f, kTolerance);
  solve(pose);
  // Rotation halfway (world 60°), translation halfway to (100, 50): world (55, 37.5).
  expect_local(pose, 17.5f, -45, -30, 1, 1, 0);

  // Code can write the parameters too.
  pose.set_to_setup();
  pose.transform[0] = {0, 0, 0, 1, 0, 0};
  solve(pose);
  expect_local(pose, 5, 0, 0, 2, 1, 0);
}

TEST_F(TransformConstraint, SeveralBonesEachTakeTheTarget) {
  // A second constrained bone, computed before the constraint and again after it.
  const int other = test::add_bone(data_, "other", 0, -30, 40, 200, 1, 1);
  data_.update_order.pop_back();
  data_.update_order.insert(data_.update_order.begin() + child_ + 1, {UpdateKind::Bone, other});
  data_.update_order.push_back({UpdateKind::Bone, other});
  ASSERT_EQ(data_.update_order[static_cast<std::size_t>(child_) + 2].kind, UpdateKind::Transform);
  constraint().bones.push_back(other);
  constraint().mix_rotate = constraint().mix_x = constraint().mix_y = 1;
  auto p = solve();
  for (const int b : {bone_, other}) {
    const auto i = static_cast<std::size_t>(b);
    EXPECT_NEAR(p->world_x[i], 100, kTolerance);
    EXPECT_NEAR(p->world_y[i], 50, kTolerance);
    EXPECT_NEAR(std::atan2(p->c[i], p->a[i]) * 57.29578f, 30, kTolerance);
  }
  // A root bone's local pose is its world pose; its rotation stays continuous with 200° (30 + 360 − 360…).
  EXPECT_NEAR(std::remainder(p->rotation[static_cast<std::size_t>(other)] - 30, 360.0f), 0, kTolerance);
}

// An inactive bone (skin-required, no skin lists it) under an active world-space constraint: the
// constraint changes the world transform the bone holds, the identity at the origin in a fresh pose,
// and leaves its local pose alone; the update order never recomputes it, so each solve starts from
// where the last one left it.
TEST_F(TransformConstraint, WorldModeMovesTheWorldTransformOfAnInactiveBone) {
  data_.bones.skin_required[static_cast<std::size_t>(bone_)] = 1;
  constraint().mix_rotate = constraint().mix_x = constraint().mix_y = 1;
  auto p = std::make_unique<SkeletonPose>(data_);
  ASSERT_EQ(p->active[static_cast<std::size_t>(bone_)], 0);
  solve(*p);
  expect_world(*p, bone_, kCos30, -0.5f, 0.5f, kCos30, 100, 50);  // 0° → 30°, (0, 0) → (100, 50)
  expect_local(*p, 5, 0, 0, 1, 1, 0);

  constraint().mix_rotate = constraint().mix_x = constraint().mix_y = 0.5f;
  auto half = std::make_unique<SkeletonPose>(data_);
  solve(*half);
  const float c15 = std::cos(15 * kDegToRad), s15 = std::sin(15 * kDegToRad);
  expect_world(*half, bone_, c15, -s15, s15, c15, 50, 25);
  solve(*half);  // halfway again from there
  const float c22 = std::cos(22.5f * kDegToRad), s22 = std::sin(22.5f * kDegToRad);
  expect_world(*half, bone_, c22, -s22, s22, c22, 75, 37.5f);
  expect_local(*half, 5, 0, 0, 1, 1, 0);
}

TEST_F(TransformConstraint, LocalModeSkipsAnInactiveBone) {
  data_.bones.skin_required[static_cast<std::size_t>(bone_)] = 1;
  use_local_setup();
  auto p = solve();
  expect_local(*p, 5, 0, 10, 1.5f, 0.5f, 4);
  expect_world(*p, bone_, 1, 0, 0, 1, 0, 0);
}

}  // namespace
}  // namespace mf::skel
