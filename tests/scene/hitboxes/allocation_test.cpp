// Hitboxes following a swinging, deforming rig (2D: with a ball bouncing through them; 3D: arms swinging
// through static boxes) with slots connected to the contact signals allocate nothing through the
// global operator new per frame once warm.

#include <gtest/gtest.h>

#include <memory>

#include "counting_new.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/scene/hitboxes/skeleton_hitboxes_2d.hpp"
#include "mf/scene/hitboxes/skeleton_hitboxes_3d.hpp"
#include "mf/scene/sprite3d/skeleton_sprite_3d.hpp"
#include "mf/scene/physics2d/rigid_body_2d.hpp"
#include "mf/scene/scene_tree.hpp"
#include "mf/scene/skeleton/skeleton_2d.hpp"

namespace mf::scene {
namespace {

TEST(SceneHitboxesAllocation, FollowingAndContactsAllocateNothing) {
  auto built = offline::build_rig_file(MF_TEST_DATA_DIR "/scene/hitbox_rig.mskel");
  ASSERT_TRUE(built) << built.error().to_string();
  SceneTree tree;
  PhysicsWorld2DDesc desc;
  desc.gravity = {0, 0};
  auto created = PhysicsSpace2D::create("space", desc);
  ASSERT_TRUE(created);
  PhysicsSpace2D* space = *tree.root().add_child(std::move(*created));
  long hits = 0;
  for (int i = 0; i < 4; ++i) {
    auto node = std::make_unique<Skeleton2D>("s" + std::to_string(i));
    ASSERT_TRUE(node->set_clip("swing"));
    ASSERT_TRUE(node->set_data(built->data));
    node->set_update_mode(i % 2 ? SkeletonUpdateMode::Physics : SkeletonUpdateMode::Process);
    node->set_position({200.0f * static_cast<float>(i), 200});
    Skeleton2D* s = *space->add_child(std::move(node));
    SkeletonHitboxes2D* h = *s->make_child<SkeletonHitboxes2D>("hitboxes");
    if (i == 3) h->set_mode(HitboxMode::KinematicBody);
    h->hitbox_entered.connect([&](SkeletonHitboxes2D*, const std::string*, Node*) { ++hits; });
    h->hitbox_exited.connect([&](SkeletonHitboxes2D*, const std::string*, Node*) { ++hits; });
  }
  // A ball bouncing between two walls across the row of arms.
  for (float x : {-60.0f, 760.0f}) {
    auto wall = std::make_unique<RigidBody2D>("wall" + std::to_string(static_cast<int>(x)), BodyType::kStatic);
    BodyShape2D shape;
    shape.half_size = {10, 200};
    wall->add_shape(shape);
    wall->set_position({x, 200});
    ASSERT_TRUE(space->add_child(std::move(wall)));
  }
  auto ball = std::make_unique<RigidBody2D>("ball", BodyType::kDynamic);
  BodyShape2D shape;
  shape.kind = BodyShape2D::Kind::Circle;
  shape.radius = 6;
  shape.fixture.restitution = 1;
  ball->add_shape(shape);
  ball->set_position({0, 215});
  ball->set_linear_velocity({900, 0});
  ASSERT_TRUE(space->add_child(std::move(ball)));

  // Warm-up over several periods of the swing (1 s) and the ball's crossing (about 1.8 s): the
  // lists grow to the largest number of contacts one step sees.
  for (int f = 0; f < 1200; ++f) tree.advance(1 / 60.0f);
  const std::size_t before = mf::testing::allocation_count();
  for (int f = 0; f < 600; ++f) tree.advance(1 / 60.0f);
  EXPECT_EQ(mf::testing::allocation_count() - before, 0u) << "operator new calls in 600 frames";
  EXPECT_GT(hits, 10);
  std::uint64_t stale = 0;
  for (std::size_t i = 0; i < space->child_count(); ++i)
    if (auto* s = dynamic_cast<Skeleton2D*>(space->child(i)))
      stale += dynamic_cast<SkeletonHitboxes2D*>(s->child(0))->stale_piece_updates();
  EXPECT_EQ(stale, 0u) << "pieces that kept an old shape";
}

// The same in 3D: sprites swinging their arms through a static box, prisms following and reshaped.
TEST(SceneHitboxesAllocation, FollowingIn3DAllocatesNothing) {
  auto built = offline::build_rig_file(MF_TEST_DATA_DIR "/scene/hitbox_rig.mskel");
  ASSERT_TRUE(built) << built.error().to_string();
  SceneTree tree;
  auto created = PhysicsSpace3D::create("space", {.gravity = {0, 0, 0}});
  ASSERT_TRUE(created);
  PhysicsSpace3D* space = *tree.root().add_child(std::move(*created));
  long hits = 0;
  for (int i = 0; i < 4; ++i) {
    auto node = std::make_unique<SkeletonSprite3D>("s" + std::to_string(i));
    ASSERT_TRUE(node->set_clip("swing"));
    ASSERT_TRUE(node->set_data(built->data));
    node->playback().update_mode = i % 2 ? SkeletonUpdateMode::Physics : SkeletonUpdateMode::Process;
    node->set_position({2.0f * static_cast<float>(i), 0, 0});
    SkeletonSprite3D* s = *space->add_child(std::move(node));
    SkeletonHitboxes3D* h = *s->make_child<SkeletonHitboxes3D>("hitboxes");
    if (i == 3) h->set_mode(HitboxMode::KinematicBody);
    h->hitbox_entered.connect([&](SkeletonHitboxes3D*, const std::string*, Node*) { ++hits; });
    h->hitbox_exited.connect([&](SkeletonHitboxes3D*, const std::string*, Node*) { ++hits; });
    ASSERT_TRUE(space->world().add_body({.type = BodyType3D::kStatic, .position = {2.0f * static_cast<float>(i), -0.6f, 0}},
                                        Shape3D::box({0.05f, 0.05f, 0.05f})));
  }
  for (int f = 0; f < 240; ++f) tree.advance(1 / 60.0f);  // warm-up: several swings
  const std::size_t before = mf::testing::allocation_count();
  for (int f = 0; f < 600; ++f) tree.advance(1 / 60.0f);
  EXPECT_EQ(mf::testing::allocation_count() - before, 0u) << "operator new calls in 600 frames";
  EXPECT_GT(hits, 10);
}

}  // namespace
}  // namespace mf::scene
