// SkeletonHitboxes3D on Bullet with the hitbox rig on a SkeletonSprite3D (0.01 m per pixel, at the
// origin, facing +Z): one prism body per convex piece, bodies following their bones in the sprite's
// plane, a swing of the arm entering and leaving a static box, the lag rule of 2D.

#include "mf/scene/hitboxes/skeleton_hitboxes_3d.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/scene/scene_tree.hpp"
#include "mf/scene/sprite3d/skeleton_sprite_3d.hpp"

namespace mf::scene {
namespace {

constexpr float kStep = 1.0f / 60.0f;
constexpr float kMetres = 1e-4f;

std::shared_ptr<const skel::SkeletonData> rig() {
  static std::shared_ptr<const skel::SkeletonData> data = [] {
    auto built = offline::build_rig_file(MF_TEST_DATA_DIR "/scene/hitbox_rig.mskel");
    EXPECT_TRUE(built) << built.error().to_string();
    return built ? std::shared_ptr<const skel::SkeletonData>(built->data) : nullptr;
  }();
  return data;
}

struct Scene3D {
  SceneTree tree;
  PhysicsSpace3D* space = nullptr;
  SkeletonSprite3D* sprite = nullptr;
  SkeletonHitboxes3D* hitboxes = nullptr;

  explicit Scene3D(SkeletonUpdateMode mode, std::vector<std::string> slots = {}) {
    auto s = PhysicsSpace3D::create("space", {.gravity = {0, 0, 0}});
    EXPECT_TRUE(s);
    space = *tree.root().add_child(std::move(*s));
    auto node = std::make_unique<SkeletonSprite3D>("fighter");
    EXPECT_TRUE(node->set_clip("swing"));
    EXPECT_TRUE(node->set_data(rig()));
    node->playback().update_mode = mode;
    sprite = *space->add_child(std::move(node));
    auto h = std::make_unique<SkeletonHitboxes3D>("hitboxes");
    h->set_slots(std::move(slots));
    hitboxes = *sprite->add_child(std::move(h));
  }
  const SkeletonHitboxes3D::Piece& arm() const {
    const int slot = sprite->find_slot("arm");
    for (const auto& p : hitboxes->pieces())
      if (p.slot == slot) return p;
    ADD_FAILURE() << "no arm piece";
    return hitboxes->pieces().front();
  }
  // The arm bone's direction in the world, and the arm body's X axis.
  Vec3 bone_direction() const { return normalize(sprite->bone_global_transform(sprite->find_bone("arm")).column3(0)); }
  Vec3 body_direction() const { return space->world().rotation(arm().body).rotate({1, 0, 0}); }
};

TEST(SkeletonHitboxes3D, OnePrismBodyPerConvexPiece) {
  Scene3D scene(SkeletonUpdateMode::Physics);
  ASSERT_TRUE(scene.hitboxes->build_error().empty()) << scene.hitboxes->build_error();
  EXPECT_GE(scene.hitboxes->pieces().size(), 4u);  // the L's pieces, the arm, the belt
  EXPECT_EQ(scene.space->world().body_count(), scene.hitboxes->pieces().size());
  // The arm's prism: 0.1 m deep, from 0.1 to 1.0 m along +X at rest.
  const Aabb3D box = scene.space->world().bounds(scene.arm().body);
  EXPECT_NEAR(box.max.x, 1.0f, 0.03f);
  EXPECT_NEAR(box.max.z - box.min.z, 0.1f, 0.03f);
  EXPECT_FALSE(scene.hitboxes->set_depth(-1));
  EXPECT_FALSE(scene.hitboxes->set_collision_mask(0x10000));
}

TEST(SkeletonHitboxes3D, BodiesFollowTheirBonesWithTheLagRule) {
  {
    Scene3D scene(SkeletonUpdateMode::Physics);
    for (int i = 0; i < 15; ++i) {
      scene.tree.advance(kStep);
      const Vec3 a = scene.bone_direction(), b = scene.body_direction();
      EXPECT_NEAR(dot(a, b), 1, kMetres) << "frame " << i;
    }
    const Vec3 origin = scene.sprite->bone_global_transform(scene.sprite->find_bone("arm")).column3(3);
    EXPECT_NEAR(length(scene.space->world().position(scene.arm().body) - origin), 0, 1e-3f);
  }
  {
    Scene3D scene(SkeletonUpdateMode::Process);
    scene.tree.advance(kStep);
    for (int i = 0; i < 10; ++i) {
      const Vec3 before = scene.bone_direction();
      scene.tree.advance(kStep);
      EXPECT_NEAR(dot(scene.body_direction(), before), 1, kMetres) << "frame " << i;
      EXPECT_LT(dot(scene.bone_direction(), before), 1 - 1e-5f);
    }
  }
}

TEST(SkeletonHitboxes3D, TheSwingingArmEntersAndLeavesAStaticBox) {
  Scene3D scene(SkeletonUpdateMode::Physics, {"arm"});
  // Where the arm points at 90° (down on the canvas, −Y in the world), 0.6 m from the shoulder.
  ASSERT_TRUE(scene.space->world().add_body({.type = BodyType3D::kStatic, .position = {0, -0.6f, 0}},
                                            Shape3D::box({0.05f, 0.05f, 0.05f})));
  int entered = 0, exited = 0;
  scene.hitboxes->hitbox_entered.connect([&](SkeletonHitboxes3D*, const std::string* slot, Node* other) {
    EXPECT_EQ(*slot, "arm");
    EXPECT_EQ(other, nullptr);  // a body no node owns
    ++entered;
  });
  scene.hitboxes->hitbox_exited.connect([&](SkeletonHitboxes3D*, const std::string*, Node*) { ++exited; });
  for (int i = 0; i < 10; ++i) scene.tree.advance(kStep);
  EXPECT_EQ(entered, 0);
  for (int i = 0; i < 60; ++i) scene.tree.advance(kStep);  // to 90° at 0.5 s and back
  EXPECT_EQ(entered, 1);
  EXPECT_EQ(exited, 1);
}

}  // namespace
}  // namespace mf::scene
