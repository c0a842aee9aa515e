// PhysicsWorld3D::step allocates nothing once warm: boxes fall and rest on a plane, a ghost prism
// sweeps back and forth through a kinematic box and a resting box, a kinematic prism moves by velocity
// (contacts made and destroyed, events gathered). Counted twice: the global operator new (our code and
// anything of the standard library), and Bullet's own allocator (btAlignedAlloc, hooked here through
// btAlignedAllocSetCustom), so that Bullet's arrays, pair caches and pools are seen to keep their memory.

#include <LinearMath/btAlignedAllocator.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>

#include "counting_new.hpp"
#include "mf/scene/physics3d/physics_world_3d.hpp"
#include "mf/scene/physics3d/prism.hpp"

namespace mf::scene {
namespace {

std::atomic<std::size_t> g_bullet_allocations{0};

void* counting_bullet_alloc(std::size_t size) {
  g_bullet_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size);
}
void bullet_free(void* p) { std::free(p); }

TEST(Physics3DAllocation, SteadyStepsAllocateNothing) {
  // Bullet's default allocator is malloc too, so blocks from before the hook are freed alike.
  btAlignedAllocSetCustom(counting_bullet_alloc, bullet_free);

  auto created = PhysicsWorld3D::create();
  ASSERT_TRUE(created);
  PhysicsWorld3D& world = **created;
  ASSERT_TRUE(world.add_body({.type = BodyType3D::kStatic}, Shape3D::plane({0, 1, 0})));
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(world.add_body({.type = BodyType3D::kDynamic, .position = {i * 0.8f - 4, 1 + i * 0.5f, 0}},
                               Shape3D::box({0.25f, 0.25f, 0.25f})));
  }
  ASSERT_TRUE(
      world.add_body({.type = BodyType3D::kKinematic, .position = {0, 2, 0}}, Shape3D::box({0.3f, 0.3f, 0.3f})));

  const std::vector<Vec2> square{{-0.2f, -0.2f}, {0.2f, -0.2f}, {0.2f, 0.2f}, {-0.2f, 0.2f}};
  const std::vector<Vec3> prism = *make_prism(square);
  const BodyHandle3D ghost =
      *world.add_body({.type = BodyType3D::kGhost, .position = {-5, 0.25f, 0}}, Shape3D::convex_hull(prism));
  const BodyHandle3D paddle =
      *world.add_body({.type = BodyType3D::kKinematic, .position = {0, 2, 3}}, Shape3D::convex_hull(prism));

  std::size_t events = 0;
  std::vector<Vec3> moved(prism.size());
  auto run = [&](int steps) {
    for (int s = 0; s < steps; ++s) {
      // The ghost sweeps along the row of boxes and back, and over the kinematic box, every 100 steps;
      // the paddle's outline breathes (new hull points of the same count).
      const float t = static_cast<float>(s % 100) / 100.0f;
      const float x = -5 + 10 * (t < 0.5f ? 2 * t : 2 - 2 * t);
      (void)world.set_transform(ghost, {x, (s / 100) % 2 == 0 ? 0.25f : 2.0f, 0}, {}, MoveMode::kVelocity);
      (void)world.set_transform(paddle, {x * 0.1f, 2, 3}, Quat::from_axis_angle({0, 1, 0}, t), MoveMode::kVelocity);
      for (std::size_t i = 0; i < prism.size(); ++i) moved[i] = prism[i] * (1 + 0.2f * t);
      (void)world.set_hull_points(paddle, moved);
      (void)world.step(1.0f / 60.0f);
      events += world.events().size();
    }
  };
  run(600);  // warm-up: the lists reach their size, the boxes come to rest
  const std::size_t before = mf::testing::allocation_count();
  const std::size_t bullet_before = g_bullet_allocations.load();
  const std::size_t events_before = events;
  run(1000);
  EXPECT_EQ(mf::testing::allocation_count() - before, 0u) << "operator new calls in 1000 steps";
  EXPECT_EQ(g_bullet_allocations.load() - bullet_before, 0u) << "btAlignedAlloc calls in 1000 steps";
  EXPECT_GE(events - events_before, 100u);  // the ghost's begins and ends: 10 sweeps over 10 boxes
}

}  // namespace
}  // namespace mf::scene
