#include "mf/scene/physics3d/physics_world_3d.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "mf/scene/physics3d/prism.hpp"

namespace mf::scene {
namespace {

constexpr float kStep = 1.0f / 60.0f;
constexpr float kExact = 1e-5f;  // positions set or computed in floats, nothing simulated

std::unique_ptr<PhysicsWorld3D> make_world(const PhysicsWorld3DDesc& desc = {}) {
  auto world = PhysicsWorld3D::create(desc);
  EXPECT_TRUE(world) << world.error().message;
  return std::move(*world);
}

BodyHandle3D add(PhysicsWorld3D& world, const BodyDesc3D& desc, const Shape3D& shape) {
  auto body = world.add_body(desc, shape);
  EXPECT_TRUE(body) << body.error().message;
  return body ? *body : BodyHandle3D{};
}

void step(PhysicsWorld3D& world) {
  Status st = world.step(kStep);
  ASSERT_TRUE(st) << st.error().message;
}

void expect_near(Vec3 got, Vec3 want, float tolerance) {
  EXPECT_NEAR(got.x, want.x, tolerance);
  EXPECT_NEAR(got.y, want.y, tolerance);
  EXPECT_NEAR(got.z, want.z, tolerance);
}

// A hitbox prism: a 0.4 m square in the XY plane, 0.1 m deep, in the body's frame.
std::vector<Vec3> hitbox_points() {
  const std::vector<Vec2> square{{-0.2f, -0.2f}, {0.2f, -0.2f}, {0.2f, 0.2f}, {-0.2f, 0.2f}};
  auto prism = make_prism(square, kDefaultHitboxDepth);
  EXPECT_TRUE(prism) << prism.error().message;
  return *prism;
}

TEST(PhysicsWorld3D, FallingBoxLandsOnThePlaneAndRests) {
  auto world = make_world();
  EXPECT_EQ(world->gravity().y, -9.81f);
  const BodyHandle3D ground = add(*world, {.type = BodyType3D::kStatic, .user_data = 1}, Shape3D::plane({0, 1, 0}));
  const BodyHandle3D box = add(*world, {.type = BodyType3D::kDynamic, .position = {0, 3, 0}, .mass = 2, .user_data = 2},
                               Shape3D::box({0.5f, 0.5f, 0.5f}));

  for (int i = 0; i < 30; ++i) step(*world);
  // 0.5 s of free fall: 9.81 × 0.5 = 4.9 m/s, 1.23 m down (Bullet's symplectic Euler: within 0.05 m).
  EXPECT_NEAR(world->linear_velocity(box).y, -4.905f, 0.01f);
  EXPECT_NEAR(world->position(box).y, 3 - 1.226f, 0.05f);

  int begins = 0, ends = 0;
  for (int i = 0; i < 270; ++i) {
    step(*world);
    for (const ContactEvent3D& e : world->events()) {
      begins += e.kind == ContactKind::kBegin;
      ends += e.kind == ContactKind::kEnd;
      EXPECT_EQ(e.body_a, ground);  // the lower slot index comes first
      EXPECT_EQ(e.body_b, box);
      EXPECT_EQ(e.user_a, 1u);
      EXPECT_EQ(e.user_b, 2u);
      EXPECT_FALSE(e.ghost);
    }
  }
  EXPECT_EQ(begins, 1);
  EXPECT_EQ(ends, 0);  // resting contact does not flicker
  // Resting: its centre half a box above the plane, within Bullet's penetration allowance (1 cm).
  EXPECT_NEAR(world->position(box).y, 0.5f, 0.01f);
  // Landing at 7 m/s, it slides a few millimetres while friction catches it.
  EXPECT_NEAR(world->position(box).x, 0.0f, 5e-3f);
  EXPECT_NEAR(world->position(box).z, 0.0f, 5e-3f);
  EXPECT_NEAR(length(world->linear_velocity(box)), 0.0f, 0.05f);
  EXPECT_GT(std::abs(dot(world->rotation(box), Quat{})), 0.9999f);  // still upright
  EXPECT_FALSE(world->awake(box));  // Bullet puts a body at rest to sleep after 2 s
}

// A ghost hitbox prism swept along +X through a static box at x = 0 and a floating dynamic sphere at
// x = 3, 0.1 m per step. Returns the ghost's x at each begin and end event per other body.
struct Sweep {
  std::unique_ptr<PhysicsWorld3D> world = make_world();
  std::vector<Vec3> prism = hitbox_points();
  BodyHandle3D block, ball, hitbox;
  struct Hit {
    ContactKind kind;
    BodyHandle3D other;
    float x;
  };
  std::vector<Hit> hits;

  explicit Sweep(BodyType3D hitbox_type, std::uint32_t layer = 1, std::uint32_t mask = 0xFFFF) {
    block = add(*world, {.type = BodyType3D::kStatic, .user_data = 10}, Shape3D::box({0.5f, 0.5f, 0.5f}));
    ball = add(*world, {.type = BodyType3D::kDynamic, .position = {3, 0, 0}, .gravity_scale = 0, .user_data = 20},
               Shape3D::sphere(0.3f));
    hitbox = add(*world,
                 {.type = hitbox_type, .position = {-2, 0, 0}, .layer = layer, .mask = mask, .user_data = 30},
                 Shape3D::convex_hull(prism));
  }

  void sweep_to(float end_x) {
    for (float x = world->position(hitbox).x + 0.1f; x <= end_x + 1e-3f; x += 0.1f) {
      EXPECT_TRUE(world->set_transform(hitbox, {x, 0, 0}, {}, MoveMode::kVelocity));
      EXPECT_TRUE(world->step(kStep));
      for (const ContactEvent3D& e : world->events()) {
        EXPECT_TRUE(e.body_a == hitbox || e.body_b == hitbox);
        const bool hitbox_is_a = e.body_a == hitbox;
        EXPECT_EQ(hitbox_is_a ? e.user_a : e.user_b, 30u);
        hits.push_back({e.kind, hitbox_is_a ? e.body_b : e.body_a, x});
      }
    }
  }
};

TEST(PhysicsWorld3D, GhostPrismReportsOverlapsAndCollidesWithNothing) {
  Sweep s(BodyType3D::kGhost);
  s.sweep_to(5);
  EXPECT_NEAR(s.world->position(s.hitbox).x, 5.0f, kExact);
  ASSERT_EQ(s.hits.size(), 4u);
  // The prism's half width is 0.2 m plus its 1 cm skin: it meets the box (half 0.5) from x = −0.71 and
  // the sphere (radius 0.3) from x = 2.49; moved at the start of each step, it is seen in that step.
  // Each end comes once the gap passes 1 cm (kContactEndDistance), within the next 0.1 m step.
  EXPECT_EQ(s.hits[0].kind, ContactKind::kBegin);
  EXPECT_EQ(s.hits[0].other, s.block);
  EXPECT_NEAR(s.hits[0].x, -0.7f, 0.05f);
  EXPECT_EQ(s.hits[1].kind, ContactKind::kEnd);
  EXPECT_EQ(s.hits[1].other, s.block);
  EXPECT_NEAR(s.hits[1].x, 0.8f, 0.05f);
  EXPECT_EQ(s.hits[2].kind, ContactKind::kBegin);
  EXPECT_EQ(s.hits[2].other, s.ball);
  EXPECT_NEAR(s.hits[2].x, 2.5f, 0.05f);
  EXPECT_EQ(s.hits[3].kind, ContactKind::kEnd);
  EXPECT_EQ(s.hits[3].other, s.ball);
  EXPECT_NEAR(s.hits[3].x, 3.6f, 0.05f);
  // Never collides: the floating sphere was not pushed.
  expect_near(s.world->position(s.ball), {3, 0, 0}, kExact);
  EXPECT_EQ(length(s.world->linear_velocity(s.ball)), 0.0f);
}

TEST(PhysicsWorld3D, GhostEventsSayGhost) {
  Sweep s(BodyType3D::kGhost);
  ASSERT_TRUE(s.world->set_transform(s.hitbox, {0, 0, 0}, {}));
  ASSERT_TRUE(s.world->step(kStep));
  ASSERT_EQ(s.world->events().size(), 1u);
  const ContactEvent3D e = s.world->events()[0];
  EXPECT_EQ(e.kind, ContactKind::kBegin);
  EXPECT_TRUE(e.ghost);
  EXPECT_EQ(e.body_a, s.block);
  EXPECT_EQ(e.user_a, 10u);
  EXPECT_EQ(e.body_b, s.hitbox);
  EXPECT_EQ(e.user_b, 30u);
}

TEST(PhysicsWorld3D, KinematicPrismTouchesStaticBodiesAndPushesDynamicOnes) {
  Sweep s(BodyType3D::kKinematic);
  s.sweep_to(1.5f);
  // Bullet reports kinematic–static contacts too (Box2D does not).
  ASSERT_EQ(s.hits.size(), 2u);
  EXPECT_EQ(s.hits[0].kind, ContactKind::kBegin);
  EXPECT_EQ(s.hits[0].other, s.block);
  EXPECT_NEAR(s.hits[0].x, -0.7f, 0.05f);
  EXPECT_EQ(s.hits[1].kind, ContactKind::kEnd);
  EXPECT_NEAR(s.hits[1].x, 0.8f, 0.05f);
  expect_near(s.world->position(s.hitbox), {1.5f, 0, 0}, kExact);
  EXPECT_EQ(length(s.world->linear_velocity(s.hitbox)), 0.0f);  // stopped after each move

  // Bullet gives the moving kinematic body the velocity of its move (6 m/s): the sphere is pushed.
  s.sweep_to(3.5f);
  EXPECT_GT(s.world->position(s.ball).x, 3.5f);
  EXPECT_GT(s.world->linear_velocity(s.ball).x, 1.0f);
}

TEST(PhysicsWorld3D, LayerAndMaskFilterContacts) {
  // The hitbox is on layer 2 and looks only at layer 2; the block is on layer 1.
  Sweep s(BodyType3D::kGhost, 2, 2);
  ASSERT_TRUE(s.world->set_transform(s.hitbox, {0, 0, 0}, {}));
  for (int i = 0; i < 3; ++i) {
    step(*s.world);
    EXPECT_TRUE(s.world->events().empty());
  }
  // Letting it see layer 1 makes the contact; taking layer 1 away again ends it.
  ASSERT_TRUE(s.world->set_collision(s.hitbox, 2, 1));
  step(*s.world);
  ASSERT_EQ(s.world->events().size(), 1u);
  EXPECT_EQ(s.world->events()[0].kind, ContactKind::kBegin);
  step(*s.world);
  EXPECT_TRUE(s.world->events().empty());
  ASSERT_TRUE(s.world->set_collision(s.hitbox, 2, 2));
  step(*s.world);
  ASSERT_EQ(s.world->events().size(), 1u);
  EXPECT_EQ(s.world->events()[0].kind, ContactKind::kEnd);

  // Both directions must agree: the block looking only at layer 4 does not see the hitbox either.
  ASSERT_TRUE(s.world->set_collision(s.hitbox, 2, 0xFFFF));
  ASSERT_TRUE(s.world->set_collision(s.block, 1, 4));
  step(*s.world);
  EXPECT_TRUE(s.world->events().empty());
}

TEST(PhysicsWorld3D, CollisionBitsAbove16AreAnError) {
  auto world = make_world();
  const BodyHandle3D body = add(*world, {.type = BodyType3D::kDynamic}, Shape3D::sphere(0.5f));
  Status st = world->set_collision(body, 1, 0x10000);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("mask 0x10000"), std::string::npos) << st.error().message;
  st = world->set_collision(body, 0x2FFFF, 1);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("layer 0x2FFFF"), std::string::npos) << st.error().message;
  EXPECT_TRUE(world->set_collision(body, 0xFFFF, 0xFFFF));
  auto added = world->add_body({.type = BodyType3D::kGhost, .mask = 0x10000}, Shape3D::sphere(0.5f));
  ASSERT_FALSE(added);
  EXPECT_NE(added.error().message.find("cannot add a ghost body with a sphere"), std::string::npos)
      << added.error().message;
  EXPECT_EQ(world->body_count(), 1u);
}

TEST(PhysicsWorld3D, PrismBodyBounds) {
  auto world = make_world();
  const std::vector<Vec3> prism = hitbox_points();
  const BodyHandle3D ghost =
      add(*world, {.type = BodyType3D::kGhost, .position = {1, 2, 3}}, Shape3D::convex_hull(prism));
  // The points' box (±0.2, ±0.2, ±0.05) around the body, grown by the hull's 1 cm skin.
  constexpr float m = Shape3D::kDefaultHullMargin;
  Aabb3D b = world->bounds(ghost);
  expect_near(b.min, Vec3{1 - 0.2f - m, 2 - 0.2f - m, 3 - 0.05f - m}, kExact);
  expect_near(b.max, Vec3{1 + 0.2f + m, 2 + 0.2f + m, 3 + 0.05f + m}, kExact);

  // Turned a quarter turn about +Y: the depth now runs along X.
  ASSERT_TRUE(world->set_transform(ghost, {0, 0, 0}, Quat::from_axis_angle({0, 1, 0}, std::numbers::pi_v<float> / 2)));
  b = world->bounds(ghost);
  expect_near(b.min, Vec3{-0.05f - m, -0.2f - m, -0.2f - m}, kExact);
  expect_near(b.max, Vec3{0.05f + m, 0.2f + m, 0.2f + m}, kExact);

  // New points of the same count replace the shape in place (a skinned hitbox); another count is an
  // error.
  std::vector<Vec3> wider = prism;
  for (Vec3& p : wider) p.x *= 2;
  ASSERT_TRUE(world->set_hull_points(ghost, wider));
  b = world->bounds(ghost);
  expect_near(b.min, Vec3{-0.05f - m, -0.2f - m, -0.4f - m}, kExact);
  Status st = world->set_hull_points(ghost, std::span(wider).first(6));
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("it has 8 points, 6 were given"), std::string::npos) << st.error().message;

  // Boxes and spheres are exact; a horizontal plane's box is bounded above only.
  const BodyHandle3D box =
      add(*world, {.type = BodyType3D::kKinematic, .position = {5, 0, 0}}, Shape3D::box({0.1f, 0.2f, 0.3f}));
  b = world->bounds(box);
  expect_near(b.min, Vec3{4.9f, -0.2f, -0.3f}, kExact);
  expect_near(b.max, Vec3{5.1f, 0.2f, 0.3f}, kExact);
  const BodyHandle3D ground =
      add(*world, {.type = BodyType3D::kStatic, .position = {0, -1, 0}}, Shape3D::plane({0, 2, 0}, 1));
  b = world->bounds(ground);
  EXPECT_NEAR(b.max.y, -0.5f, kExact);  // y = 0.5 in the body's frame, moved down 1 m
  EXPECT_EQ(b.min.y, -INFINITY);
  EXPECT_EQ(b.max.x, INFINITY);
  EXPECT_FALSE(world->set_hull_points(box, wider));  // not a hull
}

TEST(PhysicsWorld3D, StaleHandlesAreErrors) {
  auto world = make_world();
  EXPECT_FALSE(world->valid(BodyHandle3D{}));
  const BodyHandle3D body = add(*world, {.type = BodyType3D::kDynamic, .position = {1, 2, 3}}, Shape3D::sphere(0.5f));
  EXPECT_TRUE(world->valid(body));
  ASSERT_TRUE(world->remove_body(body));
  EXPECT_FALSE(world->valid(body));
  EXPECT_EQ(world->body_count(), 0u);

  Status st = world->remove_body(body);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("stale"), std::string::npos) << st.error().message;
  EXPECT_FALSE(world->set_transform(body, {0, 0, 0}, {}));
  EXPECT_FALSE(world->set_collision(body, 1, 1));
  EXPECT_FALSE(world->set_linear_velocity(body, {1, 0, 0}));
  EXPECT_FALSE(world->set_hull_points(body, hitbox_points()));
  expect_near(world->position(body), {0, 0, 0}, 0);
  EXPECT_EQ(world->rotation(body), Quat{});
  EXPECT_FALSE(world->awake(body));

  // The slot is reused with a new generation: the old handle stays stale.
  const BodyHandle3D again = add(*world, {.type = BodyType3D::kStatic}, Shape3D::box({1, 1, 1}));
  EXPECT_EQ(again.index, body.index);
  EXPECT_NE(again, body);
  EXPECT_FALSE(world->valid(body));
  EXPECT_TRUE(world->valid(again));
  EXPECT_FALSE(world->set_transform(body, {0, 0, 0}, {}));
}

TEST(PhysicsWorld3D, RemovedBodiesEndTheirContactsFirstInTheNextStep) {
  Sweep s(BodyType3D::kGhost);
  ASSERT_TRUE(s.world->set_transform(s.hitbox, {0, 0, 0}, {}));
  step(*s.world);
  ASSERT_EQ(s.world->events().size(), 1u);

  // Remove the block and, in the same step, move the hitbox onto the sphere.
  ASSERT_TRUE(s.world->remove_body(s.block));
  ASSERT_TRUE(s.world->set_transform(s.hitbox, {3, 0, 0}, {}));
  step(*s.world);
  const auto events = s.world->events();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].kind, ContactKind::kEnd);
  EXPECT_EQ(events[0].body_a, s.block);  // stale now; the user data tell what it was
  EXPECT_FALSE(s.world->valid(events[0].body_a));
  EXPECT_EQ(events[0].user_a, 10u);
  EXPECT_EQ(events[1].kind, ContactKind::kBegin);
  EXPECT_EQ(events[1].body_a, s.ball);

  // The sphere removed too: its end comes alone in the next step.
  ASSERT_TRUE(s.world->remove_body(s.ball));
  step(*s.world);
  ASSERT_EQ(s.world->events().size(), 1u);
  EXPECT_EQ(s.world->events()[0].kind, ContactKind::kEnd);
  EXPECT_EQ(s.world->events()[0].user_a, 20u);
  step(*s.world);
  EXPECT_TRUE(s.world->events().empty());
}

TEST(PhysicsWorld3D, VelocityMovesReachTheirTargetAndStop) {
  auto world = make_world();
  const BodyHandle3D kinematic = add(*world, {.type = BodyType3D::kKinematic}, Shape3D::box({0.5f, 0.5f, 0.5f}));
  const BodyHandle3D dynamic =
      add(*world, {.type = BodyType3D::kDynamic, .position = {10, 0, 0}, .gravity_scale = 0}, Shape3D::sphere(0.5f));
  const Quat turn = Quat::from_axis_angle({0, 0, 1}, 0.5f);
  ASSERT_TRUE(world->set_transform(kinematic, {0.2f, 0.1f, 0}, turn, MoveMode::kVelocity));
  ASSERT_TRUE(world->set_transform(dynamic, {10.2f, 0, -0.1f}, turn, MoveMode::kVelocity));
  expect_near(world->position(kinematic), {0, 0, 0}, 0);  // nothing moves before the step
  step(*world);
  expect_near(world->position(kinematic), {0.2f, 0.1f, 0}, kExact);
  expect_near(world->position(dynamic), {10.2f, 0, -0.1f}, 1e-4f);
  EXPECT_GT(std::abs(dot(world->rotation(kinematic), turn)), 1 - 1e-6f);
  EXPECT_GT(std::abs(dot(world->rotation(dynamic), turn)), 1 - 1e-5f);
  EXPECT_EQ(length(world->linear_velocity(dynamic)), 0.0f);
  EXPECT_EQ(length(world->angular_velocity(dynamic)), 0.0f);
  step(*world);
  expect_near(world->position(dynamic), {10.2f, 0, -0.1f}, 1e-4f);

  // More than a quarter turn in one step: the dynamic body jumps there.
  const Quat half_turn = Quat::from_axis_angle({0, 1, 0}, 3.0f);
  ASSERT_TRUE(world->set_transform(dynamic, {10, 0, 0}, half_turn, MoveMode::kVelocity));
  step(*world);
  EXPECT_GT(std::abs(dot(world->rotation(dynamic), half_turn)), 1 - 1e-6f);
  expect_near(world->position(dynamic), {10, 0, 0}, kExact);
}

TEST(PhysicsWorld3D, GravityScaleAndSetGravity) {
  auto world = make_world();
  const BodyHandle3D normal = add(*world, {.type = BodyType3D::kDynamic}, Shape3D::sphere(0.5f));
  const BodyHandle3D floating =
      add(*world, {.type = BodyType3D::kDynamic, .position = {5, 0, 0}, .gravity_scale = 0}, Shape3D::sphere(0.5f));
  const BodyHandle3D half =
      add(*world, {.type = BodyType3D::kDynamic, .position = {10, 0, 0}, .gravity_scale = 0.5f}, Shape3D::sphere(0.5f));
  ASSERT_TRUE(world->step(0.1f));
  EXPECT_NEAR(world->linear_velocity(normal).y, -0.981f, 1e-5f);
  EXPECT_EQ(world->linear_velocity(floating).y, 0.0f);
  EXPECT_NEAR(world->linear_velocity(half).y, -0.4905f, 1e-5f);

  ASSERT_TRUE(world->set_gravity({2, 0, 0}));
  EXPECT_EQ(world->gravity().x, 2.0f);
  ASSERT_TRUE(world->step(0.1f));
  EXPECT_NEAR(world->linear_velocity(normal).x, 0.2f, 1e-5f);
  EXPECT_NEAR(world->linear_velocity(half).x, 0.1f, 1e-5f);
  EXPECT_EQ(world->linear_velocity(floating).x, 0.0f);
  EXPECT_FALSE(world->set_gravity({NAN, 0, 0}));
}

TEST(PhysicsWorld3D, BadBodiesAreErrors) {
  auto world = make_world();
  auto expect_error = [&](const BodyDesc3D& desc, const Shape3D& shape, const char* text) {
    auto body = world->add_body(desc, shape);
    ASSERT_FALSE(body) << text;
    EXPECT_NE(body.error().message.find(text), std::string::npos) << body.error().message;
  };
  expect_error({.type = BodyType3D::kDynamic}, Shape3D::plane({0, 1, 0}), "only static bodies");
  expect_error({.type = BodyType3D::kGhost}, Shape3D::plane({0, 1, 0}), "only static bodies");
  expect_error({.type = BodyType3D::kDynamic, .mass = 0}, Shape3D::sphere(1), "mass must be positive");
  expect_error({}, Shape3D::sphere(0), "sphere radius 0");
  expect_error({}, Shape3D::box({1, -1, 1}), "box half extents (1, -1, 1)");
  expect_error({}, Shape3D::plane({0, 0, 0}), "plane normal");
  expect_error({.position = {NAN, 0, 0}}, Shape3D::sphere(1), "finite");
  expect_error({.rotation = {0, 0, 0, 0}}, Shape3D::sphere(1), "rotation not zero");

  const std::vector<Vec3> three{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  expect_error({}, Shape3D::convex_hull(three), "at least 4 points, this one has 3");
  const std::vector<Vec3> flat{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  expect_error({}, Shape3D::convex_hull(flat), "lie in one plane");
  const std::vector<Vec3> line{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}};
  expect_error({}, Shape3D::convex_hull(line), "lie on one line");
  const std::vector<Vec3> nan_point{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, NAN}};
  expect_error({}, Shape3D::convex_hull(nan_point), "point 3 is not finite");
  expect_error({}, Shape3D::convex_hull(hitbox_points(), -1), "margin -1");
  EXPECT_EQ(world->body_count(), 0u);

  // Moves and velocities that the body's type does not allow.
  const BodyHandle3D wall = add(*world, {.type = BodyType3D::kStatic}, Shape3D::box({1, 1, 1}));
  Status st = world->set_transform(wall, {1, 0, 0}, {}, MoveMode::kVelocity);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("static"), std::string::npos) << st.error().message;
  EXPECT_TRUE(world->set_transform(wall, {1, 0, 0}, {}));
  const BodyHandle3D ghost = add(*world, {.type = BodyType3D::kGhost}, Shape3D::sphere(1));
  EXPECT_FALSE(world->set_linear_velocity(ghost, {1, 0, 0}));
  EXPECT_FALSE(world->set_transform(ghost, {INFINITY, 0, 0}, {}));

  EXPECT_FALSE(world->step(0));
  EXPECT_FALSE(world->step(-1));
  EXPECT_FALSE(world->step(NAN));
  EXPECT_FALSE(PhysicsWorld3D::create({.solver_iterations = 0}));
}

}  // namespace
}  // namespace mf::scene
