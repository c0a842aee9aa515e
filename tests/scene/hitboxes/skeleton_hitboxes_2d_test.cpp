// SkeletonHitboxes2D on Box2D with a small rig (tests/data/scene/hitbox_rig.mskel): an L-shaped box on
// the torso (concave: several convex pieces), a rigid box on the arm, a belt weighted half to the
// torso and half to the arm that the "swing" clip (arm 0° → 90° → 0° over 1 s) deforms. Shapes follow
// the pose, contacts are signalled per slot, and the documented lag: none with UpdateMode Physics, one
// tick with Process.

#include "mf/scene/hitboxes/skeleton_hitboxes_2d.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/scene/physics2d/rigid_body_2d.hpp"
#include "mf/scene/scene_tree.hpp"
#include "mf/scene/skeleton/skeleton_2d.hpp"

namespace mf::scene {
namespace {

constexpr float kStep = 1.0f / 60.0f;
constexpr float kPx = 0.05f;       // Box2D keeps positions in float metres (1 px = 0.01 m)
constexpr float kRadians = 1e-3f;

std::shared_ptr<const skel::SkeletonData> rig() {
  static std::shared_ptr<const skel::SkeletonData> data = [] {
    auto built = offline::build_rig_file(MF_TEST_DATA_DIR "/scene/hitbox_rig.mskel");
    EXPECT_TRUE(built) << built.error().to_string();
    return built ? std::shared_ptr<const skel::SkeletonData>(built->data) : nullptr;
  }();
  return data;
}

struct Scene {
  SceneTree tree;
  PhysicsSpace2D* space = nullptr;
  Skeleton2D* skeleton = nullptr;
  SkeletonHitboxes2D* hitboxes = nullptr;

  explicit Scene(SkeletonUpdateMode mode = SkeletonUpdateMode::Physics, std::vector<std::string> slots = {}) {
    PhysicsWorld2DDesc desc;
    desc.gravity = {0, 0};
    auto s = PhysicsSpace2D::create("space", desc);
    EXPECT_TRUE(s);
    space = *tree.root().add_child(std::move(*s));
    auto node = std::make_unique<Skeleton2D>("fighter");
    EXPECT_TRUE(node->set_clip("swing"));
    EXPECT_TRUE(node->set_data(rig()));
    node->set_update_mode(mode);
    node->set_position({300, 200});
    skeleton = *space->add_child(std::move(node));
    auto h = std::make_unique<SkeletonHitboxes2D>("hitboxes");
    h->set_slots(std::move(slots));
    hitboxes = *skeleton->add_child(std::move(h));
  }

  const SkeletonHitboxes2D::Hitbox& box(const std::string& slot) const {
    const int index = skeleton->find_slot(slot);
    for (const auto& h : hitboxes->hitboxes())
      if (h.slot == index) return h;
    ADD_FAILURE() << "no hitbox for slot " << slot;
    return hitboxes->hitboxes().front();
  }
  float bone_angle(const std::string& bone) const {
    const Affine2 t = skeleton->bone_global_transform(skeleton->find_bone(bone));
    return std::atan2(t.c, t.a);
  }
};

TEST(SkeletonHitboxes2D, BuildsOneBodyPerBoxWithConvexPiecesOfAtMostEightPoints) {
  Scene scene;
  ASSERT_TRUE(scene.hitboxes->build_error().empty()) << scene.hitboxes->build_error();
  ASSERT_EQ(scene.hitboxes->hitboxes().size(), 3u);
  const auto& body = scene.box("body");
  EXPECT_GE(body.pieces.size(), 2u);  // the L is concave
  for (const auto& h : scene.hitboxes->hitboxes())
    for (const auto& piece : h.pieces) {
      EXPECT_GE(piece.size(), 3u);
      EXPECT_LE(piece.size(), 8u);
    }
  EXPECT_EQ(scene.space->world().body_count(), 3u);
}

TEST(SkeletonHitboxes2D, CollisionBitsAbove16AreErrorsAndSlotsFilter) {
  SkeletonHitboxes2D h("h");
  const Status bad = h.set_collision_layer(0x10000);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().to_string().find("16 bits"), std::string::npos);
  EXPECT_EQ(h.collision_layer(), 1u);
  EXPECT_TRUE(h.set_collision_mask(0xFFFF));

  Scene only_arm(SkeletonUpdateMode::Physics, {"arm"});
  ASSERT_EQ(only_arm.hitboxes->hitboxes().size(), 1u);
  Scene unknown(SkeletonUpdateMode::Physics, {"tail"});
  EXPECT_NE(unknown.hitboxes->build_error().find("tail"), std::string::npos);
  EXPECT_TRUE(unknown.hitboxes->hitboxes().empty());
}

// The rigid boxes move with their bones and keep their fixtures; the weighted belt is reshaped.
TEST(SkeletonHitboxes2D, RigidBoxesFollowTheirBonesWeightedBoxesAreReshaped) {
  Scene scene;
  const std::vector<Vec2> arm_local = scene.box("arm").local;
  const std::vector<Vec2> belt_setup = scene.box("belt").local;
  for (int i = 0; i < 20; ++i) scene.tree.advance(kStep);
  PhysicsWorld2D& world = scene.space->world();
  const auto& arm = scene.box("arm");
  const Affine2 arm_bone = scene.skeleton->bone_global_transform(scene.skeleton->find_bone("arm"));
  EXPECT_NEAR(world.position(arm.body).x, arm_bone.x, kPx);
  EXPECT_NEAR(world.position(arm.body).y, arm_bone.y, kPx);
  EXPECT_NEAR(world.angle(arm.body), scene.bone_angle("arm"), kRadians);
  for (std::size_t i = 0; i < arm_local.size(); ++i) {
    EXPECT_NEAR(arm.local[i].x, arm_local[i].x, 1e-3f);
    EXPECT_NEAR(arm.local[i].y, arm_local[i].y, 1e-3f);
  }
  // The belt's second corner is half on the torso, half on the turned arm.
  const auto& belt = scene.box("belt");
  EXPECT_GT(std::abs(belt.local[1].y - belt_setup[1].y), 5.0f);
  EXPECT_GT(scene.hitboxes->shape_updates(), 0u);
  const float theta = scene.bone_angle("arm");
  const Vec2 expected{300 + 0.5f * 80 + 0.5f * (80 * std::cos(theta) + 10 * std::sin(theta)),
                      200 + 0.5f * -10 + 0.5f * (80 * std::sin(theta) - 10 * std::cos(theta))};
  EXPECT_NEAR(belt.canvas[1].x, expected.x, 1e-2f);
  EXPECT_NEAR(belt.canvas[1].y, expected.y, 1e-2f);
}

// A body only the deformed belt reaches: the contact proves the reshaped fixture, not just the numbers.
TEST(SkeletonHitboxes2D, TheDeformedBeltTouchesWhatItsSetupShapeDoesNot) {
  Scene scene(SkeletonUpdateMode::Physics, {"belt"});
  auto post = std::make_unique<RigidBody2D>("post", BodyType::kStatic);
  BodyShape2D shape;
  shape.kind = BodyShape2D::Kind::Circle;
  shape.radius = 3;
  post->add_shape(shape);
  post->set_position({300 + 40, 200 + 36});
  RigidBody2D* p = *scene.space->add_child(std::move(post));
  ASSERT_TRUE(p->body_error().empty()) << p->body_error();
  std::vector<std::string> log;
  scene.hitboxes->hitbox_entered.connect([&](SkeletonHitboxes2D*, const std::string* slot, Node* other) {
    log.push_back("entered " + *slot + " " + (other ? other->name() : "?"));
  });
  scene.hitboxes->hitbox_exited.connect([&](SkeletonHitboxes2D*, const std::string* slot, Node* other) {
    log.push_back("exited " + *slot + " " + (other ? other->name() : "?"));
  });
  for (int i = 0; i < 5; ++i) scene.tree.advance(kStep);
  EXPECT_TRUE(log.empty());  // the belt still lies flat
  for (int i = 0; i < 60; ++i) scene.tree.advance(kStep);  // the arm swings to 90° and back
  ASSERT_GE(log.size(), 2u);
  EXPECT_EQ(log[0], "entered belt post");
  EXPECT_EQ(log[1], "exited belt post");
}

TEST(SkeletonHitboxes2D, AProjectileHitsTheArmOnceAndLeaves) {
  Scene scene(SkeletonUpdateMode::Physics, {"arm"});
  auto ball = std::make_unique<RigidBody2D>("ball", BodyType::kDynamic);
  BodyShape2D shape;
  shape.kind = BodyShape2D::Kind::Circle;
  shape.radius = 4;
  ball->add_shape(shape);
  ball->set_position({300 + 60, 200 - 80});
  ball->set_linear_velocity({0, 600});
  ball->set_bullet(true);
  RigidBody2D* b = *scene.space->add_child(std::move(ball));
  scene.skeleton->set_update_mode(SkeletonUpdateMode::Manual);  // the arm holds still at 0°
  int entered = 0, exited = 0;
  scene.hitboxes->hitbox_entered.connect([&](SkeletonHitboxes2D*, const std::string* slot, Node* other) {
    EXPECT_EQ(*slot, "arm");
    EXPECT_EQ(other, b);
    ++entered;
  });
  scene.hitboxes->hitbox_exited.connect([&](SkeletonHitboxes2D*, const std::string*, Node*) { ++exited; });
  for (int i = 0; i < 40; ++i) scene.tree.advance(kStep);
  EXPECT_EQ(entered, 1);
  EXPECT_EQ(exited, 1);
  EXPECT_GT(b->global_transform().y, 200 + 20);  // it flew through the sensor
}

// Hiding the slot's attachment disables its body; showing it again enables it.
TEST(SkeletonHitboxes2D, ABoxTheSlotDoesNotShowIsDisabled) {
  Scene scene;
  scene.tree.advance(kStep);
  const int arm = scene.skeleton->find_slot("arm");
  ASSERT_TRUE(scene.skeleton->set_slot_attachment(arm, ""));
  scene.tree.advance(kStep);
  EXPECT_FALSE(scene.space->world().enabled(scene.box("arm").body));
  EXPECT_FALSE(scene.box("arm").active);
  ASSERT_TRUE(scene.skeleton->set_slot_attachment(arm, "arm"));
  scene.tree.advance(kStep);
  EXPECT_TRUE(scene.space->world().enabled(scene.box("arm").body));
}

// UpdateMode Physics: the shapes match the pose of the same step. Process: the physics step runs before
// the process tick, so the shapes show the previous frame's pose.
TEST(SkeletonHitboxes2D, NoLagWithPhysicsModeOneTickWithProcessMode) {
  {
    Scene scene(SkeletonUpdateMode::Physics);
    for (int i = 0; i < 10; ++i) {
      scene.tree.advance(kStep);
      EXPECT_NEAR(scene.space->world().angle(scene.box("arm").body), scene.bone_angle("arm"), kRadians) << "frame " << i;
    }
  }
  {
    Scene scene(SkeletonUpdateMode::Process);
    scene.tree.advance(kStep);
    for (int i = 0; i < 10; ++i) {
      const float before = scene.bone_angle("arm");
      scene.tree.advance(kStep);
      EXPECT_NEAR(scene.space->world().angle(scene.box("arm").body), before, kRadians) << "frame " << i;
      EXPECT_GT(std::abs(scene.bone_angle("arm") - before), 0.01f);  // the drawn pose moved on
    }
  }
}

}  // namespace
}  // namespace mf::scene
