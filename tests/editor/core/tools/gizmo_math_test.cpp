// Gizmo maths: snapping, pointer angles, translate in world, parent and local space along chosen
// axes with a grid, rotate with an angle step (and a mirroring parent), scale in local and parent
// space, and the scale factor a pointer gives.

#include <gtest/gtest.h>

#include <cmath>

#include "editor_fixture.hpp"
#include "mf/editor/core/tools/bone_world.hpp"
#include "mf/editor/core/tools/gizmo_math.hpp"

namespace mf::editor {
namespace {

using offline::Bone;
constexpr double kTolerance = 1e-4;

Affine2d world_after(const GizmoDrag& d, const Bone& b) {
  return world_of(b, d.start.parent < 0 ? std::nullopt : std::optional<Affine2d>(d.parent_world));
}

TEST(GizmoMath, SnapAndAngles) {
  EXPECT_EQ(snap(7.4, 5), 5);
  EXPECT_EQ(snap(7.6, 5), 10);
  EXPECT_EQ(snap(-7.6, 5), -10);
  EXPECT_EQ(snap(7.3, 0), 7.3);
  EXPECT_NEAR(pointer_angle({0, 0}, {0, 10}), 90, 1e-12);  // Y down: straight down is clockwise 90°
  EXPECT_NEAR(pointer_angle({1, 1}, {0, 1}), 180, 1e-12);
  EXPECT_NEAR(angle_between(170, -170), 20, 1e-12);
  EXPECT_NEAR(angle_between(-170, 170), -20, 1e-12);
  EXPECT_NEAR(angle_between(0, 180), 180, 1e-12);
  EXPECT_NEAR(angle_between(0, -180), 180, 1e-12);
}

TEST(GizmoMath, TranslateInEachSpace) {
  test::RigFixture f;
  const GizmoDrag d = begin_drag(f.s(), f.bone("forearm_l"));  // parent turned about 180°
  const Vec2d origin = d.world.origin();
  // World: the origin follows the pointer.
  Bone b = translate(d, {10, -4}, GizmoSpace::World);
  const Vec2d moved = world_after(d, b).origin();
  EXPECT_NEAR(moved.x, origin.x + 10, kTolerance);
  EXPECT_NEAR(moved.y, origin.y - 4, kTolerance);
  // World, X only, on a 5 px grid: Y stays, X lands on the grid.
  b = translate(d, {12, 30}, GizmoSpace::World, kAxisX, 5);
  const Vec2d snapped = world_after(d, b).origin();
  EXPECT_NEAR(snapped.y, origin.y, kTolerance);
  EXPECT_NEAR(std::remainder(snapped.x, 5.0), 0, kTolerance);
  // Parent: the stored x and y move along the parent's axes and snap themselves.
  b = translate(d, {3, 0}, GizmoSpace::Parent, kAxesXY, 2);
  EXPECT_NEAR(std::remainder(b.x, 2.0f), 0, kTolerance);
  EXPECT_NEAR(std::remainder(b.y, 2.0f), 0, kTolerance);
  b = translate(d, {0, 10}, GizmoSpace::Parent, kAxisY);
  EXPECT_EQ(b.x, d.start.x);
  // Local: along the bone's own X axis only, the origin moves along that axis.
  const Vec2d axis = d.world.linear().x_axis() / std::hypot(d.world.a, d.world.c);
  b = translate(d, axis * 8.0 + Vec2d{-axis.y, axis.x} * 3.0, GizmoSpace::Local, kAxisX);
  const Vec2d along = world_after(d, b).origin();
  EXPECT_NEAR(along.x, origin.x + axis.x * 8, kTolerance);
  EXPECT_NEAR(along.y, origin.y + axis.y * 8, kTolerance);
}

TEST(GizmoMath, RotateSnapsInItsSpace) {
  test::RigFixture f;
  const GizmoDrag d = begin_drag(f.s(), f.bone("forearm_l"));
  Bone b = rotate(d, 22, GizmoSpace::Local, 15);
  EXPECT_NEAR(b.rotation, std::round((d.start.rotation + 22) / 15) * 15, 1e-4);
  // World: the bone's X axis ends on a multiple of the step in the world.
  b = rotate(d, 22, GizmoSpace::World, 15);
  const Affine2d w = world_after(d, b);
  const double angle = std::atan2(w.c, w.a) * 180 / 3.14159265358979323846;
  EXPECT_NEAR(std::remainder(angle, 15.0), 0, 1e-3);
  const double start_angle = std::atan2(d.world.c, d.world.a) * 180 / 3.14159265358979323846;
  EXPECT_LT(std::abs(angle_between(start_angle + 22, angle)), 7.5 + 1e-3);
  // Without a step, World turns the bone on screen by exactly the pointer's angle.
  b = rotate(d, 22, GizmoSpace::World);
  const Affine2d w2 = world_after(d, b);
  EXPECT_NEAR(angle_between(start_angle, std::atan2(w2.c, w2.a) * 180 / 3.14159265358979323846), 22, 1e-3);
}

TEST(GizmoMath, RotateUnderAMirroringParentTurnsTheWayThePointerDoes) {
  offline::SkeletonSource s;
  s.bones.push_back(Bone{"root"});
  s.bones[0].scale_x = -1;  // mirrors its children
  Bone child;
  child.name = "child";
  child.parent = 0;
  child.x = 10;
  s.bones.push_back(child);
  const GizmoDrag d = begin_drag(s, 1);
  const Bone b = rotate(d, 30, GizmoSpace::Local);
  const Affine2d w = world_after(d, b);
  const double before = std::atan2(d.world.c, d.world.a), after = std::atan2(w.c, w.a);
  EXPECT_NEAR(angle_between(before * 180 / 3.14159265358979323846, after * 180 / 3.14159265358979323846), 30, 1e-3);
}

TEST(GizmoMath, ScaleInLocalAndParentSpace) {
  test::RigFixture f;
  const GizmoDrag d = begin_drag(f.s(), f.bone("upper_arm_l"));
  Bone b = scale(d, {1.37, 1}, GizmoSpace::Local, 0.25);
  EXPECT_EQ(b.scale_x, 1.25f);
  EXPECT_EQ(b.scale_y, d.start.scale_y);
  EXPECT_EQ(b.rotation, d.start.rotation);
  // Parent space: the world 2×2 becomes parent frame · S · local; the origin stays.
  b = scale(d, {2, 1}, GizmoSpace::Parent);
  const Affine2d w = world_after(d, b);
  const Matrix2d expected = d.parent_world.linear() * (Matrix2d{2, 0, 0, 1} * local_matrix(d.start));
  EXPECT_NEAR(w.a, expected.a, 1e-5);
  EXPECT_NEAR(w.b, expected.b, 1e-5);
  EXPECT_NEAR(w.c, expected.c, 1e-5);
  EXPECT_NEAR(w.d, expected.d, 1e-5);
  EXPECT_EQ(b.x, d.start.x);
  // World space: along the skeleton's axes.
  b = scale(d, {1, 0.5}, GizmoSpace::World);
  const Affine2d ww = world_after(d, b);
  EXPECT_NEAR(ww.c, d.world.c * 0.5, 1e-5);
  EXPECT_NEAR(ww.a, d.world.a, 1e-5);
  EXPECT_NEAR(scale_factor({0, 0}, {10, 0}, {25, 7}, {1, 0}), 2.5, 1e-12);
  EXPECT_EQ(scale_factor({0, 0}, {0, 0}, {25, 7}, {1, 0}), 1);
}

}  // namespace
}  // namespace mf::editor
