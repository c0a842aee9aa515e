#include "mf/scene/node_2d.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "mf/core/math/angle.hpp"
#include "mf/scene/scene_tree.hpp"
#include "scene/matrix_expect.hpp"

namespace mf::scene {
namespace {

using testing::expect_near;

TEST(Node2D, DefaultsToTheIdentity) {
  Node2D n("n");
  expect_near(n.transform(), Affine2::identity());
  expect_near(n.global_transform(), Affine2::identity());
  EXPECT_EQ(n.skew(), 0.0f);
}

TEST(Node2D, LocalTransformFromPositionRotationAndScale) {
  Node2D n("n");
  n.set_position({3, 4});
  n.set_rotation(kPi / 2);
  n.set_scale({2, 3});
  // X axis (cos 90°, sin 90°)·2 = (0, 2); Y axis (−sin 90°, cos 90°)·3 = (−3, 0).
  expect_near(n.transform(), Affine2{0, -3, 2, 0, 3, 4});
}

TEST(Node2D, SkewTiltsTheYAxis) {
  Node2D n("n");
  n.set_skew(kPi / 4);
  // The Y axis points at 90° + 45°.
  const float h = std::sqrt(0.5f);
  expect_near(n.transform(), Affine2{1, -h, 0, h, 0, 0});
  n.set_rotation(kPi / 6);
  n.set_scale({2, 1});
  const float r = kPi / 6;
  expect_near(n.transform(), Affine2{2 * std::cos(r), std::cos(r + kPi * 0.75f), 2 * std::sin(r), std::sin(r + kPi * 0.75f), 0, 0});
}

TEST(Node2D, GlobalIsTheNearest2DAncestorsGlobalTimesTheLocal) {
  SceneTree tree;
  Node2D* parent = *tree.root().make_child<Node2D>("parent");
  parent->set_position({10, 0});
  parent->set_rotation(kPi / 2);
  Node* plain = *parent->make_child<Node>("plain");  // passes the parent's transform through
  Node2D* child = *plain->make_child<Node2D>("child");
  child->set_position({1, 0});
  child->set_scale({2, 2});
  // The parent turns (1, 0) into (0, 1): the child sits at (10, 1), its X axis (0, 2), Y axis (−2, 0).
  expect_near(child->global_transform(), Affine2{0, -2, 2, 0, 10, 1});
  EXPECT_EQ(child->parent_2d(), parent);
}

TEST(Node2D, MovingAParentMarksItsDescendantsStale) {
  Node2D parent("parent");
  Node2D* child = *parent.make_child<Node2D>("child");
  Node2D* grandchild = *child->make_child<Node2D>("grandchild");
  grandchild->set_position({1, 1});
  expect_near(grandchild->global_transform(), Affine2::translation(1, 1));

  parent.set_position({5, 0});
  expect_near(grandchild->global_transform(), Affine2::translation(6, 1));
  child->set_scale({2, 2});
  expect_near(grandchild->global_transform(), Affine2{2, 0, 0, 2, 7, 2});
  // Read the child first (the stale flag of the grandchild must survive the child's recomputation).
  parent.set_rotation(kPi);
  expect_near(child->global_transform(), Affine2{-2, 0, 0, -2, 5, 0});
  expect_near(grandchild->global_transform(), Affine2{-2, 0, 0, -2, 3, -2});
}

TEST(Node2D, ReparentingRecomputesTheGlobalTransform) {
  Node2D a("a"), b("b");
  a.set_position({1, 0});
  b.set_position({0, 7});
  Node2D* child = *a.make_child<Node2D>("child");
  expect_near(child->global_transform(), Affine2::translation(1, 0));
  std::unique_ptr<Node> moved = a.remove_child(child);
  expect_near(child->global_transform(), Affine2::identity());
  ASSERT_TRUE(b.add_child(std::move(moved)).ok());
  expect_near(child->global_transform(), Affine2::translation(0, 7));
}

TEST(Node2D, SetTransformRoundTripsWithSkewAndMirror) {
  Node2D n("n");
  for (const Affine2 m : {Affine2{0.5f, -1.2f, 0.8f, 0.3f, 4, -2}, Affine2{2, 0, 0, -3, 1, 1}, Affine2{-1, 0.2f, 0.1f, 1, 0, 0}}) {
    n.set_transform(m);
    expect_near(n.transform(), m);
  }
  n.set_transform(Affine2{0, -3, 2, 0, 3, 4});
  EXPECT_NEAR(n.rotation(), kPi / 2, 1e-6f);
  EXPECT_NEAR(n.scale().x, 2, 1e-6f);
  EXPECT_NEAR(n.scale().y, 3, 1e-6f);
  EXPECT_NEAR(n.skew(), 0, 1e-6f);
}

TEST(Node2D, SetGlobalTransformRoundTrip) {
  Node2D parent("parent");
  parent.set_position({3, -1});
  parent.set_rotation(0.7f);
  parent.set_scale({1.5f, 0.5f});
  Node2D* child = *parent.make_child<Node2D>("child");
  const Affine2 want{0.2f, -1.1f, 0.9f, 0.4f, -5, 8};
  child->set_global_transform(want);
  expect_near(child->global_transform(), want);
  // Through the stored parameters too, not only the cache.
  child->set_position(child->position());
  expect_near(child->global_transform(), want);
  expect_near(parent.global_transform() * child->transform(), want);
}

}  // namespace
}  // namespace mf::scene
