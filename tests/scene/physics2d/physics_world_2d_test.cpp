#include "mf/scene/physics2d/physics_world_2d.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace mf::scene {
namespace {

constexpr float kStep = 1.0f / 60.0f;

std::unique_ptr<PhysicsWorld2D> make_world(const PhysicsWorld2DDesc& desc = {}) {
  auto world = PhysicsWorld2D::create(desc);
  EXPECT_TRUE(world) << world.error().message;
  return std::move(*world);
}

BodyHandle add(PhysicsWorld2D& world, const BodyDesc& desc) {
  auto body = world.add_body(desc);
  EXPECT_TRUE(body) << body.error().message;
  return *body;
}

void step(PhysicsWorld2D& world) {
  Status st = world.step(kStep);
  ASSERT_TRUE(st) << st.error().message;
}

TEST(PhysicsWorld2D, DynamicBoxFallsOntoStaticGroundAndRests) {
  auto world = make_world();
  // Y down: the ground's top is at y = 500 px; a 20 px box starts at y = 0.
  const BodyHandle ground = add(*world, {.type = BodyType::kStatic, .position = {0, 510}});
  ASSERT_TRUE(world->add_box(ground, {500, 10}, {}));
  const BodyHandle box = add(*world, {.type = BodyType::kDynamic, .position = {0, 0}});
  ASSERT_TRUE(world->add_box(box, {10, 10}, {.density = 1, .friction = 0.6f}));

  for (int i = 0; i < 30; ++i) step(*world);
  EXPECT_GT(world->position(box).y, 100.0f);  // falling (0.5 s at 980 px/s²: about 120 px)
  EXPECT_GT(world->linear_velocity(box).y, 0.0f);

  for (int i = 0; i < 270; ++i) step(*world);
  // Resting on the ground: its centre half a box above the top, within Box2D's skin and slop (2 px).
  EXPECT_NEAR(world->position(box).y, 490.0f, 2.5f);
  EXPECT_NEAR(world->position(box).x, 0.0f, 0.1f);
  EXPECT_NEAR(world->linear_velocity(box).y, 0.0f, 1.0f);
  EXPECT_NEAR(world->angle(box), 0.0f, 1e-3f);
}

// A hitbox: a sensor on a dynamic body without gravity (Box2D makes no contacts between two
// non-dynamic bodies), moved onto a kinematic body and away again.
struct SensorScene {
  std::unique_ptr<PhysicsWorld2D> world = make_world();
  BodyHandle target, sensor;

  SensorScene(std::uint32_t sensor_layer = 1, std::uint32_t sensor_mask = 0xFFFF) {
    target = add(*world, {.type = BodyType::kKinematic, .position = {0, 0}});
    EXPECT_TRUE(world->add_box(target, {20, 20}, {.user_data = 7}));
    sensor = add(*world, {.type = BodyType::kDynamic, .position = {150, 0}, .gravity_scale = 0});
    EXPECT_TRUE(world->add_box(sensor, {15, 15},
                               {.sensor = true, .layer = sensor_layer, .mask = sensor_mask, .user_data = 42}));
  }

  // Steps once after moving the sensor by velocity; returns the step's events.
  std::vector<ContactEvent> move_and_step(Vec2 to) {
    EXPECT_TRUE(world->set_transform(sensor, to, 0, MoveMode::kVelocity));
    EXPECT_TRUE(world->step(kStep));
    return {world->events().begin(), world->events().end()};
  }
};

TEST(PhysicsWorld2D, SensorReportsOneBeginAndOneEndInTheStepsTheyHappen) {
  SensorScene scene;
  EXPECT_TRUE(scene.move_and_step({150, 0}).empty());

  // Step 1 moves the sensor onto the target: Box2D finds the new pair at the end of that step and
  // updates contacts at the start of the next one, so the begin event comes with step 2.
  EXPECT_TRUE(scene.move_and_step({10, 0}).empty());
  EXPECT_NEAR(scene.world->position(scene.sensor).x, 10.0f, 1e-3f);
  const auto begin = scene.move_and_step({10, 0});
  ASSERT_EQ(begin.size(), 1u);
  EXPECT_EQ(begin[0].kind, ContactKind::kBegin);
  EXPECT_TRUE(begin[0].sensor);
  const bool sensor_is_a = begin[0].body_a == scene.sensor;
  EXPECT_EQ(sensor_is_a ? begin[0].body_b : begin[0].body_a, scene.target);
  EXPECT_EQ(sensor_is_a ? begin[0].fixture_a : begin[0].fixture_b, 42u);
  EXPECT_EQ(sensor_is_a ? begin[0].fixture_b : begin[0].fixture_a, 7u);

  // Staying inside: no more events.
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(scene.move_and_step({12, 0}).empty());

  // Moving away: the end event comes with the step after the one that left.
  EXPECT_TRUE(scene.move_and_step({200, 0}).empty());
  const auto end = scene.move_and_step({200, 0});
  ASSERT_EQ(end.size(), 1u);
  EXPECT_EQ(end[0].kind, ContactKind::kEnd);
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(scene.move_and_step({200, 0}).empty());
  EXPECT_NEAR(scene.world->position(scene.sensor).x, 200.0f, 1e-3f);
  EXPECT_EQ(scene.world->linear_velocity(scene.sensor).x, 0.0f);  // stopped after the move

  // Longer than 2 m in one step: it jumps there.
  EXPECT_TRUE(scene.move_and_step({900, 0}).empty());
  EXPECT_NEAR(scene.world->position(scene.sensor).x, 900.0f, 1e-3f);
}

TEST(PhysicsWorld2D, TeleportIsSeenByTheNextStep) {
  SensorScene scene;
  ASSERT_TRUE(scene.world->set_transform(scene.sensor, {0, 0}, 0));
  ASSERT_TRUE(scene.world->step(kStep));
  ASSERT_EQ(scene.world->events().size(), 1u);
  EXPECT_EQ(scene.world->events()[0].kind, ContactKind::kBegin);
}

TEST(PhysicsWorld2D, CategoryAndMaskPreventTheContact) {
  // The sensor is on layer 2 and only looks at layer 2; the target is on layer 1.
  SensorScene scene(2, 2);
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(scene.move_and_step({0, 0}).empty());

  // Letting it see layer 1 makes the contact.
  ASSERT_TRUE(scene.world->set_collision(scene.sensor, 2, 1));
  int begins = 0;
  for (int i = 0; i < 3; ++i) {
    for (const ContactEvent& e : scene.move_and_step({0, 0})) begins += e.kind == ContactKind::kBegin;
  }
  EXPECT_EQ(begins, 1);
}

TEST(PhysicsWorld2D, CollisionBitsAbove16AreAnError) {
  auto world = make_world();
  const BodyHandle body = add(*world, {.type = BodyType::kDynamic});
  ASSERT_TRUE(world->add_box(body, {10, 10}, {}));
  Status st = world->set_collision(body, 1, 0x10000);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("mask 0x10000"), std::string::npos) << st.error().message;
  st = world->set_collision(body, 0x2FFFF, 1);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("layer 0x2FFFF"), std::string::npos) << st.error().message;
  EXPECT_TRUE(world->set_collision(body, 0xFFFF, 0xFFFF));
  EXPECT_FALSE(world->add_box(body, {10, 10}, {.mask = 0x10000}));
}

TEST(PhysicsWorld2D, PixelScaleRoundTrip) {
  auto world = make_world({.gravity = {0, 500}, .pixels_per_metre = 50});
  EXPECT_EQ(world->pixels_per_metre(), 50.0f);
  EXPECT_FLOAT_EQ(world->to_metres(125.0f), 2.5f);
  EXPECT_FLOAT_EQ(world->to_pixels(2.5f), 125.0f);
  EXPECT_NEAR(world->gravity().y, 500.0f, 1e-3f);

  const BodyHandle body = add(*world, {.type = BodyType::kKinematic, .position = {123.5f, -40.25f}, .angle = 0.5f});
  EXPECT_NEAR(world->position(body).x, 123.5f, 1e-4f);
  EXPECT_NEAR(world->position(body).y, -40.25f, 1e-4f);
  EXPECT_FLOAT_EQ(world->angle(body), 0.5f);

  // 10 px/s for one step: 1/6 px.
  ASSERT_TRUE(world->set_linear_velocity(body, {10, 0}));
  EXPECT_NEAR(world->linear_velocity(body).x, 10.0f, 1e-4f);
  ASSERT_TRUE(world->step(0.1f));
  EXPECT_NEAR(world->position(body).x, 124.5f, 1e-3f);

  // A dynamic body gains gravity × dt of speed in px/s.
  const BodyHandle falling = add(*world, {.type = BodyType::kDynamic});
  ASSERT_TRUE(world->add_circle(falling, {}, 10, {}));
  ASSERT_TRUE(world->step(0.1f));
  EXPECT_NEAR(world->linear_velocity(falling).y, 50.0f, 1e-2f);

  EXPECT_FALSE(PhysicsWorld2D::create({.pixels_per_metre = 0}));
}

TEST(PhysicsWorld2D, ConvexPiecesBecomeFixtures) {
  auto world = make_world();
  std::vector<Vec2> star;
  for (int i = 0; i < 10; ++i) {
    const double a = std::numbers::pi * i / 5;
    const float r = i % 2 == 0 ? 60.0f : 25.0f;
    star.push_back({static_cast<float>(r * std::cos(a)), static_cast<float>(r * std::sin(a))});
  }
  auto pieces = convex_pieces(star, world->piece_options());
  ASSERT_TRUE(pieces) << pieces.error().message;
  const BodyHandle body = add(*world, {.type = BodyType::kDynamic});
  Status st = world->add_polygons(body, *pieces, {});
  EXPECT_TRUE(st) << st.error().message;

  // Nine points, a clockwise polygon and a non-convex one are errors.
  std::vector<Vec2> nine;
  for (int i = 0; i < 9; ++i) {
    const double a = 2 * std::numbers::pi * i / 9;
    nine.push_back({static_cast<float>(50 * std::cos(a)), static_cast<float>(50 * std::sin(a))});
  }
  st = world->add_polygon(body, nine, {});
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("9 points"), std::string::npos) << st.error().message;
  const std::vector<Vec2> clockwise{{0, 0}, {0, 10}, {10, 10}, {10, 0}};
  EXPECT_FALSE(world->add_polygon(body, clockwise, {}));
  const std::vector<Vec2> dart{{0, 0}, {10, 5}, {20, 0}, {10, 20}};
  EXPECT_FALSE(world->add_polygon(body, dart, {}));
}

TEST(PhysicsWorld2D, RemovedBodiesEndTheirContactsInTheNextStepsEvents) {
  SensorScene scene;
  ASSERT_TRUE(scene.world->set_transform(scene.sensor, {0, 0}, 0));
  ASSERT_TRUE(scene.world->step(kStep));
  ASSERT_EQ(scene.world->events().size(), 1u);

  ASSERT_TRUE(scene.world->remove_body(scene.target));
  EXPECT_FALSE(scene.world->valid(scene.target));
  EXPECT_FALSE(scene.world->remove_body(scene.target));
  EXPECT_FALSE(scene.world->set_transform(scene.target, {0, 0}, 0));
  EXPECT_EQ(scene.world->body_count(), 1u);

  ASSERT_TRUE(scene.world->step(kStep));
  ASSERT_EQ(scene.world->events().size(), 1u);
  EXPECT_EQ(scene.world->events()[0].kind, ContactKind::kEnd);

  // The slot is reused with a new generation: the old handle stays stale.
  const BodyHandle again = add(*scene.world, {.type = BodyType::kKinematic});
  EXPECT_EQ(again.index, scene.target.index);
  EXPECT_NE(again, scene.target);
  EXPECT_FALSE(scene.world->valid(scene.target));
  EXPECT_TRUE(scene.world->valid(again));
}

TEST(PhysicsWorld2D, StepMustBePositive) {
  auto world = make_world();
  EXPECT_FALSE(world->step(0));
  EXPECT_FALSE(world->step(-1));
  EXPECT_FALSE(world->step(NAN));
}

}  // namespace
}  // namespace mf::scene
