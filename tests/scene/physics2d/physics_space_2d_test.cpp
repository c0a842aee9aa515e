// PhysicsSpace2D and RigidBody2D in a tree, and the world calls shapes that follow a pose use:
// reshaping a fixture, enabling and disabling a body, velocity moves of a body whose centre of mass
// is off its origin.

#include "mf/scene/physics2d/physics_space_2d.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "mf/scene/physics2d/rigid_body_2d.hpp"
#include "mf/scene/scene_tree.hpp"

namespace mf::scene {
namespace {

constexpr float kStep = 1.0f / 60.0f;
constexpr float kPx = 0.05f;  // Box2D keeps float metres: 1 px = 0.01 m

std::unique_ptr<PhysicsWorld2D> make_world() {
  PhysicsWorld2DDesc desc;
  desc.gravity = {0, 0};
  auto w = PhysicsWorld2D::create(desc);
  EXPECT_TRUE(w);
  return std::move(*w);
}

TEST(PhysicsWorld2DShapes, SetPolygonReshapesAFixtureAndRefusesBadOnes) {
  auto world = make_world();
  auto body = world->add_body({.type = BodyType::kStatic});
  ASSERT_TRUE(body);
  const std::vector<Vec2> small{{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  ASSERT_TRUE(world->add_polygon(*body, small, {.sensor = true}));
  auto probe = world->add_body({.type = BodyType::kDynamic, .position = {30, 5}, .gravity_scale = 0});
  ASSERT_TRUE(world->add_circle(*probe, {}, 2, {}));
  ASSERT_TRUE(world->step(kStep));
  EXPECT_TRUE(world->events().empty());
  const std::vector<Vec2> wide{{0, 0}, {40, 0}, {40, 10}, {0, 10}};
  ASSERT_TRUE(world->set_polygon(*body, 0, wide));
  ASSERT_TRUE(world->step(kStep));
  ASSERT_EQ(world->events().size(), 1u);  // the grown sensor now reaches the probe
  EXPECT_EQ(world->events()[0].kind, ContactKind::kBegin);

  const std::vector<Vec2> concave{{0, 0}, {40, 0}, {20, 5}, {40, 10}, {0, 10}};
  EXPECT_FALSE(world->fits_polygon(concave));
  EXPECT_FALSE(world->set_polygon(*body, 0, concave));
  EXPECT_FALSE(world->set_polygon(*body, 1, wide));  // no fixture 1
  EXPECT_TRUE(world->fits_polygon(wide));
}

TEST(PhysicsWorld2DShapes, ADisabledBodyEndsItsContactsAndMakesNoNewOnes) {
  auto world = make_world();
  auto a = world->add_body({.type = BodyType::kDynamic, .gravity_scale = 0});
  auto b = world->add_body({.type = BodyType::kStatic, .position = {5, 0}});
  ASSERT_TRUE(world->add_circle(*a, {}, 10, {.sensor = true}));
  ASSERT_TRUE(world->add_circle(*b, {}, 10, {}));
  ASSERT_TRUE(world->step(kStep));
  ASSERT_EQ(world->events().size(), 1u);
  ASSERT_TRUE(world->set_enabled(*a, false));
  EXPECT_FALSE(world->enabled(*a));
  ASSERT_TRUE(world->step(kStep));
  ASSERT_EQ(world->events().size(), 1u);
  EXPECT_EQ(world->events()[0].kind, ContactKind::kEnd);
  ASSERT_TRUE(world->step(kStep));
  EXPECT_TRUE(world->events().empty());
  ASSERT_TRUE(world->set_enabled(*a, true));
  ASSERT_TRUE(world->step(kStep));
  ASSERT_EQ(world->events().size(), 1u);
  EXPECT_EQ(world->events()[0].kind, ContactKind::kBegin);
}

// Box2D turns a dynamic body about its centre of mass; a velocity move still lands the origin on the
// target while it turns.
TEST(PhysicsWorld2DShapes, VelocityMovesLandTheOriginOfAnOffCentreBody) {
  auto world = make_world();
  auto body = world->add_body({.type = BodyType::kDynamic, .gravity_scale = 0});
  ASSERT_TRUE(world->add_box(*body, {45, 5}, {}, {55, 0}));  // mass centre 55 px along X
  float angle = 0;
  for (int i = 0; i < 30; ++i) {
    angle += 0.04f;
    const Vec2 target{3.0f * static_cast<float>(i), 0};
    ASSERT_TRUE(world->set_transform(*body, target, angle, MoveMode::kVelocity));
    ASSERT_TRUE(world->step(kStep));
    EXPECT_NEAR(world->position(*body).x, target.x, kPx);
    EXPECT_NEAR(world->position(*body).y, target.y, kPx);
    EXPECT_NEAR(world->angle(*body), angle, 1e-4f);
  }
}

// The space steps after every node's physics tick; a dynamic RigidBody2D moves its node, contacts
// are signalled with the other node.
TEST(PhysicsSpace2D, StepsAfterTheNodesAndMovesDynamicBodies) {
  SceneTree tree;
  auto created = PhysicsSpace2D::create("space", {.gravity = {0, 980}});
  ASSERT_TRUE(created);
  PhysicsSpace2D* space = *tree.root().add_child(std::move(*created));
  auto ground = std::make_unique<RigidBody2D>("ground", BodyType::kStatic);
  BodyShape2D floor;
  floor.half_size = {500, 10};
  ground->add_shape(floor);
  ground->set_position({0, 100});
  RigidBody2D* g = *space->add_child(std::move(ground));
  auto crate = std::make_unique<RigidBody2D>("crate", BodyType::kDynamic);
  BodyShape2D box;
  box.half_size = {10, 10};
  crate->add_shape(box);
  RigidBody2D* c = *space->add_child(std::move(crate));
  ASSERT_TRUE(c->body_error().empty()) << c->body_error();
  Node* touched = nullptr;
  c->contact_began.connect([&](RigidBody2D*, Node* other) { touched = other; });
  for (int i = 0; i < 120; ++i) tree.advance(kStep);
  EXPECT_EQ(space->steps(), 120u);
  // Resting on the ground's top; Box2D keeps two polygons up to their skins apart (b2_polygonRadius,
  // 1 px at 100 px/m, each) and lets them sink by up to its linear slop.
  EXPECT_NEAR(c->global_transform().y, 100 - 10 - 10, 2.5f);
  EXPECT_EQ(touched, g);
  // Outside a space a body reports why it has none.
  RigidBody2D* lost = *tree.root().make_child<RigidBody2D>("lost", BodyType::kDynamic);
  EXPECT_NE(lost->body_error().find("PhysicsSpace2D"), std::string::npos);
}

}  // namespace
}  // namespace mf::scene
