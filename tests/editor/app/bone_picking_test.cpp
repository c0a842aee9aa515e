// Picking: the distance to a bone's segment, the nearest bone within the tolerance, ties going to
// the bone drawn later (a child over its parent's tip), hidden bones skipped; and the segments of a
// built rig's setup pose through a view.

#include <gtest/gtest.h>

#include <vector>

#include "bone_picking.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "support/model_builders.hpp"

namespace mf::editor {
namespace {

TEST(BonePicking, DistanceToASegment) {
  EXPECT_FLOAT_EQ(distance_to_segment({5, 3}, {0, 0}, {10, 0}), 3);
  EXPECT_FLOAT_EQ(distance_to_segment({-4, 3}, {0, 0}, {10, 0}), 5);  // past the joint: to the joint
  EXPECT_FLOAT_EQ(distance_to_segment({13, 4}, {0, 0}, {10, 0}), 5);  // past the tip: to the tip
  EXPECT_FLOAT_EQ(distance_to_segment({3, 4}, {0, 0}, {0, 0}), 5);    // no length: a point
}

TEST(BonePicking, NearestWithinTheTolerance) {
  const std::vector<BoneSegment> bones = {{{0, 0}, {100, 0}}, {{0, 20}, {100, 20}}, {{50, 50}, {50, 50}}};
  EXPECT_EQ(pick_bone(bones, {40, 4}), 0);
  EXPECT_EQ(pick_bone(bones, {40, 15}), 1);
  EXPECT_EQ(pick_bone(bones, {53, 52}), 2);
  EXPECT_EQ(pick_bone(bones, {40, 10}), -1) << "10 from both: beyond the tolerance";
  EXPECT_EQ(pick_bone(bones, {40, 10}, 10.5f), 1) << "a tie goes to the later bone";
}

TEST(BonePicking, AChildWinsAtItsParentsTipAndHiddenBonesAreSkipped) {
  std::vector<BoneSegment> bones = {{{0, 0}, {50, 0}}, {{50, 0}, {50, 50}}};
  EXPECT_EQ(pick_bone(bones, {50, 0}), 1);
  bones[1].shown = false;
  EXPECT_EQ(pick_bone(bones, {50, 0}), 0);
  EXPECT_EQ(pick_bone(bones, {50, 30}), -1);
}

TEST(BonePicking, SegmentsOfASetupPoseThroughTheView) {
  using mf::testing::named;
  offline::SkeletonSource source;
  source.bones.push_back(named<offline::Bone>("root"));
  offline::Bone arm = named<offline::Bone>("arm");
  arm.parent = 0;
  arm.x = 10;
  arm.y = -20;
  arm.rotation = 90;  // clockwise on screen: along +y (down)
  arm.length = 30;
  source.bones.push_back(arm);
  auto built = offline::build_skeleton(source, [](const std::string&) { return std::nullopt; }, "picking", "picking.mskel");
  ASSERT_TRUE(built) << built.error().to_string();
  skel::SkeletonInstance instance(*built->data);
  instance.update({});
  RigView view;
  view.frame({0, -20, 20, 20}, {{0, 0}, {100, 100}});
  std::vector<BoneSegment> segments;
  bone_segments(instance.pose(), view, segments);
  ASSERT_EQ(segments.size(), 2u);
  const Vec2 joint = view.to_screen({10, -20}), tip = view.to_screen({10, 10});
  EXPECT_NEAR(segments[1].joint.x, joint.x, 1e-3f);
  EXPECT_NEAR(segments[1].joint.y, joint.y, 1e-3f);
  EXPECT_NEAR(segments[1].tip.x, tip.x, 1e-3f);
  EXPECT_NEAR(segments[1].tip.y, tip.y, 1e-3f);
  EXPECT_EQ(pick_bone(segments, view.to_screen({10, -5})), 1);
}

}  // namespace
}  // namespace mf::editor
