// PhysicsWorld2D::step allocates nothing through the global operator new once warm: bodies fall and
// rest, a sensor moves in and out of a kinematic body (contacts made and destroyed, events gathered).
// Box2D's own block and stack allocators take their memory with malloc and keep it; they are not
// counted here.

#include <gtest/gtest.h>

#include "counting_new.hpp"
#include "mf/scene/physics2d/physics_world_2d.hpp"

namespace mf::scene {
namespace {

TEST(PhysicsAllocation, SteadyStepsAllocateNothing) {
  auto created = PhysicsWorld2D::create();
  ASSERT_TRUE(created);
  PhysicsWorld2D& world = **created;
  const BodyHandle ground = *world.add_body({.type = BodyType::kStatic, .position = {0, 510}});
  ASSERT_TRUE(world.add_box(ground, {1000, 10}, {}));
  for (int i = 0; i < 10; ++i) {
    const BodyHandle box = *world.add_body({.type = BodyType::kDynamic, .position = {i * 25.0f - 125, -i * 30.0f}});
    ASSERT_TRUE(world.add_box(box, {10, 10}, {}));
  }
  const BodyHandle target = *world.add_body({.type = BodyType::kKinematic, .position = {0, 0}});
  ASSERT_TRUE(world.add_box(target, {20, 20}, {}));
  const BodyHandle sensor = *world.add_body({.type = BodyType::kDynamic, .position = {150, 0}, .gravity_scale = 0});
  ASSERT_TRUE(world.add_box(sensor, {15, 15}, {.sensor = true}));

  std::size_t events = 0;
  auto run = [&](int steps) {
    for (int s = 0; s < steps; ++s) {
      const float x = (s / 20) % 2 == 0 ? 0.0f : 150.0f;  // in for 20 steps, out for 20
      (void)world.set_transform(sensor, {x, 0}, 0, MoveMode::kVelocity);
      (void)world.step(1.0f / 60.0f);
      events += world.events().size();
    }
  };
  run(400);  // warm-up: the lists reach their size, the boxes come to rest
  const std::size_t before = mf::testing::allocation_count();
  const std::size_t events_before = events;
  run(1000);
  EXPECT_EQ(mf::testing::allocation_count() - before, 0u) << "operator new calls in 1000 steps";
  EXPECT_GE(events - events_before, 40u);  // the sensor's begins and ends: 25 round trips
}

}  // namespace
}  // namespace mf::scene
