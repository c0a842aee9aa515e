// SkeletonSprite3D and BoneAttachment3D without a GPU: skeleton pixels to world metres (one Y mirror,
// the pixel size, flips), the shared tick in each update mode, the sprite options handed to the
// renderer, attachments following a bone in the sprite's plane and driving one with OverridePose.

#include "mf/scene/sprite3d/skeleton_sprite_3d.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/scene/scene_tree.hpp"
#include "mf/scene/sprite3d/bone_attachment_3d.hpp"

namespace mf::scene {
namespace {

constexpr float kMetres = 1e-5f;  // a few float products of centimetre-sized values
constexpr float kStep = 1.0f / 60.0f;

std::shared_ptr<const skel::SkeletonData> mannequin() {
  static std::shared_ptr<const skel::SkeletonData> data = [] {
    auto built = offline::build_rig_file(MF_EXAMPLES_DIR "/mannequin/mannequin.mskel");
    EXPECT_TRUE(built) << built.error().to_string();
    return built ? std::shared_ptr<const skel::SkeletonData>(built->data) : nullptr;
  }();
  return data;
}

SkeletonSprite3D* add_sprite(SceneTree& tree, const std::string& clip = "walk") {
  auto node = std::make_unique<SkeletonSprite3D>("hero");
  EXPECT_TRUE(node->set_clip(clip));
  EXPECT_TRUE(node->set_data(mannequin()));
  return *tree.root().add_child(std::move(node));
}

float track_time(SkeletonSprite3D& s) { return s.tracks()->entry(s.tracks()->current(0))->track_time(); }

TEST(SkeletonSprite3D, SkeletonPixelsBecomeMetresWithOneYMirror) {
  SceneTree tree;
  SkeletonSprite3D* s = add_sprite(tree, "idle");
  s->set_position({2, 0, -1});
  const Vec3 p = s->skeleton_transform().transform_point({100, -50, 0});
  EXPECT_NEAR(p.x, 2 + 1.0f, kMetres);
  EXPECT_NEAR(p.y, 0.5f, kMetres);
  EXPECT_NEAR(p.z, -1, kMetres);
  s->set_pixel_size(0.02f);
  s->set_flip_h(true);
  const Vec3 q = s->skeleton_transform().transform_point({100, -50, 0});
  EXPECT_NEAR(q.x, 2 - 2.0f, kMetres);
  EXPECT_NEAR(q.y, 1.0f, kMetres);
  // A bone's world place is the same map of its skeleton-space origin.
  const int head = s->find_bone("head");
  const Affine2 b = s->bone_transform(head);
  const Vec3 origin = s->bone_global_transform(head).column3(3);
  const Vec3 expected = s->skeleton_transform().transform_point({b.x, b.y, 0});
  EXPECT_NEAR(origin.x, expected.x, kMetres);
  EXPECT_NEAR(origin.y, expected.y, kMetres);
}

TEST(SkeletonSprite3D, TicksLikeSkeleton2DInEachUpdateMode) {
  SceneTree tree;
  SkeletonSprite3D* s = add_sprite(tree);
  s->playback().time_scale = 0.5f;
  for (int i = 0; i < 10; ++i) tree.advance(0.02f);
  EXPECT_NEAR(track_time(*s), 0.1f, 1e-5f);
  s->playback().update_mode = SkeletonUpdateMode::Physics;
  s->playback().time_scale = 1;
  tree.advance(kStep);
  EXPECT_NEAR(track_time(*s), 0.1f + kStep, 1e-4f);
  s->playback().update_mode = SkeletonUpdateMode::Manual;
  tree.advance(0.5f);
  EXPECT_NEAR(track_time(*s), 0.1f + kStep, 1e-4f);
  ASSERT_TRUE(s->advance(0.25f));
  EXPECT_NEAR(track_time(*s), 0.35f + kStep, 1e-4f);
  int events = 0;
  s->animation_event.connect([&](SkeletonSprite3D* node, const SkeletonEvent& e) {
    EXPECT_EQ(node, s);
    events += *e.name == "footstep";
  });
  ASSERT_TRUE(s->advance(0.5f));  // through the footstep at 0.5 s
  EXPECT_EQ(events, 1);
}

TEST(SkeletonSprite3D, SpriteOptionsCarryTheNodesSettings) {
  SceneTree tree;
  SkeletonSprite3D* s = add_sprite(tree, "run");
  s->set_position({1, 2, 3});
  s->set_pixel_size(0.005f);
  s->set_billboard(render::SkeletonBillboard::Y);
  s->set_shaded(false);
  s->set_double_sided(false);
  s->set_alpha_cutoff(0.25f);
  s->set_slot_depth_offset(0.5f);
  s->set_object_id(42);
  tree.advance(kStep);
  const render::SpriteDrawOptions o = s->sprite_options();
  EXPECT_EQ(o.transform.column3(3).x, 1);
  EXPECT_EQ(o.pixel_size, 0.005f);
  EXPECT_EQ(o.billboard, render::SkeletonBillboard::Y);
  EXPECT_FALSE(o.shaded);
  EXPECT_FALSE(o.double_sided);
  EXPECT_EQ(o.alpha_cutoff, 0.25f);
  EXPECT_EQ(o.slot_depth_offset, 0.5f);
  EXPECT_EQ(o.object_id, 42u);
  EXPECT_FALSE(o.flip_h);
  s->set_flip_h(true);
  const render::SpriteDrawOptions flipped = s->sprite_options();
  EXPECT_TRUE(flipped.flip_h);
  EXPECT_FALSE(flipped.flip_v);
  EXPECT_TRUE(flipped.double_sided) << "one mirror shows the plane's back";
  EXPECT_EQ(flipped.transform.column3(0).x, o.transform.column3(0).x) << "the flip is the renderer's, after the billboard";
  s->set_flip_h(false);
  ASSERT_TRUE(o.cull_bounds);
  const Bounds pose = s->pose_bounds();
  EXPECT_LE(o.cull_bounds->min_x, pose.min_x);
  EXPECT_GE(o.cull_bounds->max_y, pose.max_y);
}

TEST(BoneAttachment3D, FollowsItsBoneInTheSpritePlane) {
  SceneTree tree;
  SkeletonSprite3D* s = add_sprite(tree, "walk");
  s->set_position({0, 0, 2});
  BoneAttachment3D* mount = *s->make_child<BoneAttachment3D>("sword_mount", "hand_r");
  Node3D* sword = *mount->make_child<Node3D>("sword");
  sword->set_position({0.3f, 0, 0});  // 30 cm along the hand, whatever the pixel size
  const int hand = s->find_bone("hand_r");
  for (int i = 0; i < 10; ++i) {
    tree.advance(kStep);
    const Mat4 bone = s->bone_global_transform(hand);
    const Vec3 at = mount->global_transform().column3(3);
    EXPECT_NEAR(at.x, bone.column3(3).x, kMetres);
    EXPECT_NEAR(at.y, bone.column3(3).y, kMetres);
    EXPECT_NEAR(at.z, 2, kMetres);
    EXPECT_NEAR(length(mount->global_transform().column3(0)), 1, 1e-4f);
    // The sword's tip lies 0.3 m along the bone's direction.
    const Vec3 along = normalize(bone.column3(0));
    const Vec3 tip = sword->global_transform().column3(3);
    EXPECT_NEAR(tip.x, at.x + 0.3f * along.x, 1e-4f);
    EXPECT_NEAR(tip.y, at.y + 0.3f * along.y, 1e-4f);
  }
}

TEST(BoneAttachment3D, OverridePoseDrivesTheBone) {
  SceneTree tree;
  SkeletonSprite3D* s = add_sprite(tree, "idle");
  tree.advance(kStep);
  const int target = s->find_bone("foot_r_target");
  const Affine2 start = s->bone_transform(target);
  BoneAttachment3D* handle = *s->make_child<BoneAttachment3D>("foot", "foot_r_target");
  handle->set_override_pose(true);
  // 20 cm right and 10 cm up of where the target was, in the sprite's plane.
  handle->set_position({start.x * 0.01f + 0.2f, -start.y * 0.01f + 0.1f, 0});
  tree.advance(kStep);
  EXPECT_NEAR(s->bone_transform(target).x, start.x + 20, 1e-2f);
  EXPECT_NEAR(s->bone_transform(target).y, start.y - 10, 1e-2f);
}

}  // namespace
}  // namespace mf::scene
