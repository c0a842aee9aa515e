// mf/core/math/quat.hpp (header-only, in mf_core): tested here beside its first user.
#include "mf/core/math/quat.hpp"

#include <gtest/gtest.h>

#include "mf/core/math/angle.hpp"
#include "scene/matrix_expect.hpp"

namespace mf {
namespace {

using scene::testing::expect_near;

void expect_near(Vec3 got, Vec3 want) {
  EXPECT_NEAR(got.x, want.x, 1e-5f);
  EXPECT_NEAR(got.y, want.y, 1e-5f);
  EXPECT_NEAR(got.z, want.z, 1e-5f);
}

TEST(Quat, AxisAngleMatchesMat4Rotation) {
  for (const Vec3 axis : {Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}, Vec3{1, 2, -3}})
    for (const float angle : {0.0f, 0.5f, kPi / 2, -2.0f, kPi})
      expect_near(Quat::from_axis_angle(axis, angle).to_mat4(), Mat4::rotation(axis, angle));
}

TEST(Quat, AQuarterTurnAboutZTurnsXIntoY) {
  const Quat q = Quat::from_axis_angle({0, 0, 1}, kPi / 2);
  expect_near(q.rotate({1, 0, 0}), {0, 1, 0});
  expect_near(q.rotate({0, 1, 0}), {-1, 0, 0});
  EXPECT_NEAR(q.w, std::sqrt(0.5f), 1e-6f);
}

TEST(Quat, MultiplyAppliesTheRightOperandFirst) {
  const Quat a = Quat::from_axis_angle({0, 1, 0}, 0.7f);
  const Quat b = Quat::from_axis_angle({1, 0, 0}, -1.1f);
  expect_near((a * b).to_mat4(), a.to_mat4() * b.to_mat4());
  const Vec3 v{0.3f, -2, 1.5f};
  expect_near((a * b).rotate(v), a.rotate(b.rotate(v)));
  const Quat id = a * a.conjugate();
  EXPECT_NEAR(id.w, 1, 1e-6f);
}

TEST(Quat, EulerIsYawThenPitchThenRollInRadians) {
  const float yaw = 0.4f, pitch = -0.9f, roll = 1.3f;
  expect_near(Quat::from_euler(yaw, pitch, roll).to_mat4(),
              Mat4::rotation({0, 1, 0}, yaw) * Mat4::rotation({1, 0, 0}, pitch) * Mat4::rotation({0, 0, 1}, roll));
  // Yaw alone turns the forward direction (−Z) towards −X for a positive angle (counter-clockwise seen from above).
  expect_near(Quat::from_euler(kPi / 2, 0, 0).rotate({0, 0, -1}), {-1, 0, 0});
}

TEST(Quat, NormalizeGivesUnitLength) {
  const Quat q = normalize(Quat{1, 2, 3, 4});
  EXPECT_NEAR(length(q), 1, 1e-6f);
  EXPECT_NEAR(q.w / q.x, 4, 1e-5f);
  EXPECT_EQ(normalize(Quat{0, 0, 0, 0}), Quat::identity());
}

TEST(Quat, RotateMatchesTheMatrix) {
  const Quat q = normalize(Quat{-0.3f, 0.5f, 0.2f, 0.7f});
  const Vec3 v{1, -4, 2.5f};
  expect_near(q.rotate(v), q.to_mat4().transform_point(v));
}

TEST(Quat, FromRotationMatrixRoundTripsEveryBranch) {
  // Large w, then large x, y and z: each branch of Shepperd's method.
  for (const Quat q : {normalize(Quat{0.1f, 0.2f, 0.3f, 0.9f}), normalize(Quat{0.9f, 0.2f, -0.1f, 0.05f}),
                       normalize(Quat{0.1f, -0.9f, 0.2f, 0.05f}), normalize(Quat{-0.2f, 0.1f, 0.95f, -0.02f})}) {
    const Quat back = Quat::from_rotation_matrix(q.to_mat4());
    EXPECT_NEAR(std::abs(dot(back, q)), 1, 1e-5f);
    expect_near(back.to_mat4(), q.to_mat4());
  }
}

}  // namespace
}  // namespace mf
