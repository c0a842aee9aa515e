#include "mf/scene/node_3d.hpp"

#include <gtest/gtest.h>

#include "mf/core/math/angle.hpp"
#include "mf/scene/node_2d.hpp"
#include "mf/scene/scene_tree.hpp"
#include "scene/matrix_expect.hpp"

namespace mf::scene {
namespace {

using testing::expect_near;

Mat4 rows(std::initializer_list<float> values) {
  Mat4 m;
  int i = 0;
  for (float v : values) m.at(i / 4, i % 4) = v, ++i;
  return m;
}

TEST(Node3D, LocalIsTranslationTimesRotationTimesScale) {
  Node3D n("n");
  n.set_position({1, 2, 3});
  n.set_rotation(Quat::from_axis_angle({0, 0, 1}, kPi / 2));
  n.set_scale({2, 3, 4});
  // R about Z by 90°: x → y, y → −x. Columns: (0, 2, 0), (−3, 0, 0), (0, 0, 4), (1, 2, 3).
  expect_near(n.transform(), rows({0, -3, 0, 1,  //
                                   2, 0, 0, 2,   //
                                   0, 0, 4, 3,   //
                                   0, 0, 0, 1}));
  expect_near(n.transform(),
              Mat4::translation({1, 2, 3}) * Mat4::rotation({0, 0, 1}, kPi / 2) * Mat4::scale({2, 3, 4}));
}

TEST(Node3D, GlobalIsTheNearest3DAncestorsGlobalTimesTheLocal) {
  SceneTree tree;
  Node3D* parent = *tree.root().make_child<Node3D>("parent");
  parent->set_position({10, 0, 0});
  parent->set_rotation(Quat::from_axis_angle({0, 1, 0}, kPi / 2));
  Node2D* between = *parent->make_child<Node2D>("between");  // a 2D node passes the 3D one through
  between->set_position({100, 100});
  Node3D* child = *between->make_child<Node3D>("child");
  child->set_position({1, 0, 0});
  // About Y by 90°: x → −z. The child sits at (10, 0, −1) with the parent's rotation.
  expect_near(child->global_transform(), rows({0, 0, 1, 10,  //
                                               0, 1, 0, 0,   //
                                               -1, 0, 0, -1,  //
                                               0, 0, 0, 1}));
  EXPECT_EQ(child->parent_3d(), parent);
}

TEST(Node3D, MovingAParentMarksItsDescendantsStale) {
  Node3D parent("parent");
  Node* plain = *parent.make_child<Node>("plain");
  Node3D* child = *plain->make_child<Node3D>("child");
  Node3D* grandchild = *child->make_child<Node3D>("grandchild");
  grandchild->set_position({0, 1, 0});
  expect_near(grandchild->global_transform(), Mat4::translation({0, 1, 0}));
  parent.set_position({0, 0, 5});
  expect_near(grandchild->global_transform(), Mat4::translation({0, 1, 5}));
  child->set_scale({2, 2, 2});
  expect_near(child->global_transform(), Mat4::translation({0, 0, 5}) * Mat4::scale({2, 2, 2}));
  parent.set_rotation(Quat::from_axis_angle({1, 0, 0}, kPi));
  expect_near(grandchild->global_transform(), Mat4::translation({0, 0, 5}) * Mat4::rotation({1, 0, 0}, kPi) *
                                                   Mat4::scale({2, 2, 2}) * Mat4::translation({0, 1, 0}));
}

TEST(Node3D, SetTransformDecomposes) {
  Node3D n("n");
  const Quat q = normalize(Quat{0.2f, -0.4f, 0.1f, 0.9f});
  const Mat4 m = Mat4::translation({4, -5, 6}) * q.to_mat4() * Mat4::scale({1.5f, 2, 0.5f});
  n.set_transform(m);
  EXPECT_NEAR(n.position().x, 4, 1e-5f);
  EXPECT_NEAR(n.position().z, 6, 1e-5f);
  EXPECT_NEAR(n.scale().x, 1.5f, 1e-5f);
  EXPECT_NEAR(n.scale().y, 2, 1e-5f);
  EXPECT_NEAR(n.scale().z, 0.5f, 1e-5f);
  EXPECT_NEAR(std::abs(dot(n.rotation(), q)), 1, 1e-5f);
  expect_near(n.transform(), m);

  const Mat4 mirrored = q.to_mat4() * Mat4::scale({1, -2, 1});
  n.set_transform(mirrored);
  EXPECT_LT(n.scale().x, 0) << "a mirror goes into scale.x";
  expect_near(n.transform(), mirrored);
}

TEST(Node3D, SetGlobalTransformRoundTrip) {
  Node3D parent("parent");
  parent.set_position({1, 2, 3});
  parent.set_rotation(Quat::from_euler(0.3f, -0.2f, 0.5f));
  parent.set_scale({2, 2, 2});
  Node3D* child = *parent.make_child<Node3D>("child");
  const Mat4 want = Mat4::translation({-3, 0.5f, 7}) * Quat::from_euler(1.1f, 0.4f, -0.3f).to_mat4() *
                    Mat4::scale({0.5f, 1, 3});
  child->set_global_transform(want);
  expect_near(child->global_transform(), want);
  child->set_position(child->position());  // recomputed from the stored parameters
  expect_near(child->global_transform(), want);
}

}  // namespace
}  // namespace mf::scene
