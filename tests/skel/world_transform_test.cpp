#include "mf/skel/world_transform.hpp"

#include <gtest/gtest.h>

#include "test_rig.hpp"

namespace mf::skel {
namespace {

// World matrices are products of a few sines and cosines in float: agree with the hand-computed values
// to this.
constexpr float kMatrixTolerance = 1e-5f;

struct Expect {
  float a, b, c, d, x, y;
};

void expect_world(const SkeletonPose& p, int bone, const Expect& e) {
  const auto i = static_cast<std::size_t>(bone);
  EXPECT_NEAR(p.a[i], e.a, kMatrixTolerance);
  EXPECT_NEAR(p.b[i], e.b, kMatrixTolerance);
  EXPECT_NEAR(p.c[i], e.c, kMatrixTolerance);
  EXPECT_NEAR(p.d[i], e.d, kMatrixTolerance);
  EXPECT_NEAR(p.world_x[i], e.x, kMatrixTolerance * 10);
  EXPECT_NEAR(p.world_y[i], e.y, kMatrixTolerance * 10);
}

// Parent at (10, 20), rotated 30°, scaled (2, 3): world 2×2 = R(30°)·diag(2, 3)
//   a = 2 cos 30° = 1.7320508   b = 3 cos 120° = −1.5
//   c = 2 sin 30° = 1           d = 3 sin 120° = 2.5980762
// Child at local (5, 0) rotated 45°: world position = P·(5, 0) + (10, 20) = (18.660254, 25).
SkeletonPose posed(SkeletonData& data, Inherit child_inherit, float parent_sx = 2, float parent_rot = 30) {
  test::add_bone(data, "parent", -1, 10, 20, parent_rot, parent_sx, 3);
  test::add_bone(data, "child", 0, 5, 0, 45, 1, 1, 0, 0, child_inherit);
  SkeletonPose pose(data);
  update_world_transforms(pose);
  return pose;
}

constexpr float kHalfRoot2 = 0.70710678f;

TEST(WorldTransform, RootIsItsLocalMatrix) {
  SkeletonData data;
  SkeletonPose pose = posed(data, Inherit::Normal);
  expect_world(pose, 0, {1.7320508f, -1.5f, 1.0f, 2.5980762f, 10, 20});
}

TEST(WorldTransform, NormalMultipliesParentAndLocal) {
  SkeletonData data;
  SkeletonPose pose = posed(data, Inherit::Normal);
  // P · R(45°)
  expect_world(pose, 1, {0.16408623f, -2.2854079f, 2.5442194f, 1.1300089f, 18.660254f, 25});
}

TEST(WorldTransform, OnlyTranslationKeepsTheLocalMatrix) {
  SkeletonData data;
  SkeletonPose pose = posed(data, Inherit::OnlyTranslation);
  expect_world(pose, 1, {kHalfRoot2, -kHalfRoot2, kHalfRoot2, kHalfRoot2, 18.660254f, 25});
}

TEST(WorldTransform, NoRotationOrReflectionKeepsParentScale) {
  SkeletonData data;
  SkeletonPose pose = posed(data, Inherit::NoRotationOrReflection);
  // diag(2, 3) · R(45°)
  expect_world(pose, 1, {1.4142136f, -1.4142136f, 2.1213203f, 2.1213203f, 18.660254f, 25});
}

TEST(WorldTransform, NoScaleKeepsParentRotation) {
  SkeletonData data;
  SkeletonPose pose = posed(data, Inherit::NoScale);
  // R(30°) · R(45°) = R(75°)
  expect_world(pose, 1, {0.25881905f, -0.96592583f, 0.96592583f, 0.25881905f, 18.660254f, 25});
}

TEST(WorldTransform, NoScaleOrReflectionKeepsParentRotation) {
  SkeletonData data;
  SkeletonPose pose = posed(data, Inherit::NoScaleOrReflection);
  expect_world(pose, 1, {0.25881905f, -0.96592583f, 0.96592583f, 0.25881905f, 18.660254f, 25});
}

// A parent mirrored in X: scale (−2, 3), no rotation, so P = diag(−2, 3) and the child sits at (0, 20).
TEST(WorldTransform, ReflectionIsInheritedByNormal) {
  SkeletonData data;
  SkeletonPose pose = posed(data, Inherit::Normal, -2, 0);
  expect_world(pose, 1, {-1.4142136f, 1.4142136f, 2.1213203f, 2.1213203f, 0, 20});
}

TEST(WorldTransform, NoScaleKeepsReflection) {
  SkeletonData data;
  SkeletonPose pose = posed(data, Inherit::NoScale, -2, 0);
  // Frame [−1 0; 0 1] (mirror X) · R(45°)
  expect_world(pose, 1, {-kHalfRoot2, kHalfRoot2, kHalfRoot2, kHalfRoot2, 0, 20});
}

TEST(WorldTransform, NoScaleOrReflectionDropsReflection) {
  SkeletonData data;
  SkeletonPose pose = posed(data, Inherit::NoScaleOrReflection, -2, 0);
  // The mirrored X axis points left: a rotation by 180°, [−1 0; 0 −1] · R(45°)
  expect_world(pose, 1, {-kHalfRoot2, kHalfRoot2, -kHalfRoot2, -kHalfRoot2, 0, 20});
}

TEST(WorldTransform, NoRotationOrReflectionDropsReflection) {
  SkeletonData data;
  SkeletonPose pose = posed(data, Inherit::NoRotationOrReflection, -2, 0);
  expect_world(pose, 1, {1.4142136f, -1.4142136f, 2.1213203f, 2.1213203f, 0, 20});
}

TEST(WorldTransform, ShearTiltsTheAxes) {
  SkeletonData data;
  test::add_bone(data, "sheared", -1, 0, 0, 0, 1, 1, 30, 0);
  SkeletonPose pose(data);
  update_world_transforms(pose);
  // X axis at 30°, Y axis unchanged.
  expect_world(pose, 0, {0.8660254f, 0, 0.5f, 1, 0, 0});
}

TEST(WorldTransform, UnchangedSubtreesAreSkipped) {
  SkeletonData data;
  test::add_bone(data, "root", -1);
  test::add_bone(data, "arm", 0, 10, 0, 20);
  test::add_bone(data, "hand", 1, 10, 0);
  test::add_bone(data, "hair", 0, 0, -10);
  SkeletonPose pose(data);
  update_world_transforms(pose);
  for (int b = 0; b < 4; ++b) EXPECT_TRUE(pose.world_changed[static_cast<std::size_t>(b)]);

  update_world_transforms(pose);
  for (int b = 0; b < 4; ++b) EXPECT_FALSE(pose.world_changed[static_cast<std::size_t>(b)]) << b;

  pose.rotation[1] = 40;  // the arm moves: it and the hand are recomputed, the hair is not
  const float hand_before = pose.world_y[2];
  update_world_transforms(pose);
  EXPECT_FALSE(pose.world_changed[0]);
  EXPECT_TRUE(pose.world_changed[1]);
  EXPECT_TRUE(pose.world_changed[2]);
  EXPECT_FALSE(pose.world_changed[3]);
  EXPECT_NE(pose.world_y[2], hand_before);

  // Skipped bones keep exactly the transform a full recomputation gives.
  SkeletonPose fresh(data);
  fresh.rotation[1] = 40;
  update_world_transforms(fresh);
  for (std::size_t b = 0; b < 4; ++b) {
    EXPECT_EQ(fresh.a[b], pose.a[b]);
    EXPECT_EQ(fresh.world_x[b], pose.world_x[b]);
    EXPECT_EQ(fresh.world_y[b], pose.world_y[b]);
  }
}

}  // namespace
}  // namespace mf::skel
