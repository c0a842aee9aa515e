// BoneAttachment2D: following a bone (with and without its scale, through a flip, with children
// following), synced before PoseUpdated; OverridePose driving a bone with the constraints after it.

#include "mf/scene/skeleton/bone_attachment_2d.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/scene/scene_tree.hpp"
#include "mf/scene/skeleton/skeleton_2d.hpp"

namespace mf::scene {
namespace {

constexpr float kPx = 2e-3f;   // pixels: a few float products
constexpr float kUnit = 1e-5f; // matrix entries
constexpr float kStep = 1.0f / 60.0f;

std::shared_ptr<const skel::SkeletonData> mannequin() {
  static std::shared_ptr<const skel::SkeletonData> data = [] {
    auto built = offline::build_rig_file(MF_EXAMPLES_DIR "/mannequin/mannequin.mskel");
    EXPECT_TRUE(built) << built.error().to_string();
    return built ? std::shared_ptr<const skel::SkeletonData>(built->data) : nullptr;
  }();
  return data;
}

Skeleton2D* add_mannequin(SceneTree& tree, const std::string& clip) {
  auto node = std::make_unique<Skeleton2D>("hero");
  EXPECT_TRUE(node->set_clip(clip));
  EXPECT_TRUE(node->set_data(mannequin()));
  auto added = tree.root().add_child(std::move(node));
  EXPECT_TRUE(added);
  return *added;
}

void expect_near(const Affine2& a, const Affine2& b) {
  EXPECT_NEAR(a.a, b.a, kUnit);
  EXPECT_NEAR(a.b, b.b, kUnit);
  EXPECT_NEAR(a.c, b.c, kUnit);
  EXPECT_NEAR(a.d, b.d, kUnit);
  EXPECT_NEAR(a.x, b.x, kPx);
  EXPECT_NEAR(a.y, b.y, kPx);
}

Affine2 unit_axes(Affine2 t) {
  const float sx = std::hypot(t.a, t.c), sy = std::hypot(t.b, t.d);
  t.a /= sx;
  t.c /= sx;
  t.b /= sy;
  t.d /= sy;
  return t;
}

TEST(BoneAttachment2D, FollowsItsBoneAndChildrenFollowIt) {
  SceneTree tree;
  Skeleton2D* s = add_mannequin(tree, "walk");
  s->set_position({300, 400});
  s->set_rotation(0.3f);
  auto weapon_slot = s->make_child<BoneAttachment2D>("weapon_mount", "hand_r");
  ASSERT_TRUE(weapon_slot);
  BoneAttachment2D* mount = *weapon_slot;
  auto sword = mount->make_child<Node2D>("sword");
  ASSERT_TRUE(sword);
  (*sword)->set_position({20, 0});
  const int hand = s->find_bone("hand_r");
  ASSERT_EQ(mount->bone_index(), hand);
  for (int i = 0; i < 20; ++i) {
    tree.advance(kStep);
    const Affine2 bone = s->bone_global_transform(hand);
    expect_near(mount->global_transform(), unit_axes(bone));
    const Vec2 tip = unit_axes(bone).apply({20, 0});
    EXPECT_NEAR((*sword)->global_transform().x, tip.x, kPx);
    EXPECT_NEAR((*sword)->global_transform().y, tip.y, kPx);
  }
  mount->set_follow_scale(true);
  tree.advance(kStep);
  expect_near(mount->global_transform(), s->bone_global_transform(hand));
}

TEST(BoneAttachment2D, FollowsThroughAFlip) {
  SceneTree tree;
  Skeleton2D* s = add_mannequin(tree, "idle");
  s->set_position({100, 100});
  BoneAttachment2D* mount = *s->make_child<BoneAttachment2D>("mount", "head");
  s->set_flip_h(true);
  tree.advance(kStep);
  const Affine2 head = s->bone_global_transform(s->find_bone("head"));
  EXPECT_NEAR(mount->global_transform().x, head.x, kPx);
  EXPECT_NEAR(mount->global_transform().y, head.y, kPx);
  EXPECT_LT(mount->global_transform().det(), 0);  // mirrored like the bone
}

// The attachment is synced when PoseUpdated is delivered.
TEST(BoneAttachment2D, IsSyncedBeforePoseUpdated) {
  SceneTree tree;
  Skeleton2D* s = add_mannequin(tree, "run");
  BoneAttachment2D* mount = *s->make_child<BoneAttachment2D>("mount", "hand_l");
  int checked = 0;
  s->pose_updated.connect([&](Skeleton2D* node) {
    expect_near(mount->global_transform(), unit_axes(node->bone_global_transform(node->find_bone("hand_l"))));
    ++checked;
  });
  for (int i = 0; i < 5; ++i) tree.advance(kStep);
  EXPECT_EQ(checked, 5);
}

// OverridePose: the node drives its bone; the leg's IK still runs after it.
TEST(BoneAttachment2D, OverridePoseDrivesTheBoneBeforeConstraints) {
  SceneTree tree;
  Skeleton2D* s = add_mannequin(tree, "idle");
  s->set_position({200, 300});
  tree.advance(kStep);
  const int target = s->find_bone("foot_r_target"), shin = s->find_bone("shin_r");
  const Affine2 shin_before = s->bone_transform(shin);
  BoneAttachment2D* handle = *s->make_child<BoneAttachment2D>("foot_handle", "foot_r_target");
  handle->set_override_pose(true);
  const Affine2 start = s->bone_transform(target);
  handle->set_position({start.x + 25, start.y - 35});
  handle->set_rotation(0.0f);
  tree.advance(kStep);
  EXPECT_NEAR(s->bone_transform(target).x, start.x + 25, kPx);
  EXPECT_NEAR(s->bone_transform(target).y, start.y - 35, kPx);
  const Affine2 shin_after = s->bone_transform(shin);
  EXPECT_GT(std::hypot(shin_after.x - shin_before.x, shin_after.y - shin_before.y) +
                std::hypot(shin_after.a - shin_before.a, shin_after.c - shin_before.c),
            1e-3f);
  // Back to follow mode: the override is gone and the node follows the animated bone again.
  handle->set_override_pose(false);
  tree.advance(kStep);
  EXPECT_NEAR(s->bone_transform(target).x, start.x, kPx);
  EXPECT_NEAR(handle->global_transform().x, s->bone_global_transform(target).x, kPx);
}

TEST(BoneAttachment2D, AnUnknownBoneLeavesTheNodeWhereItIs) {
  SceneTree tree;
  Skeleton2D* s = add_mannequin(tree, "idle");
  BoneAttachment2D* mount = *s->make_child<BoneAttachment2D>("mount", "tail");
  mount->set_position({5, 6});
  tree.advance(kStep);
  EXPECT_EQ(mount->bone_index(), -1);
  EXPECT_NEAR(mount->position().x, 5, 0);
  mount->set_bone("head");
  EXPECT_GE(mount->bone_index(), 0);
}

}  // namespace
}  // namespace mf::scene
