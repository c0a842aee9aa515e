// Findings → the bone or slot they name: .mskel paths by index, clip paths by name, attachments to
// their slot, constraints to their bones or target; paths that name neither select nothing.

#include <gtest/gtest.h>

#include "finding_target.hpp"
#include "support/model_builders.hpp"

namespace mf::editor {
namespace {

using mf::testing::named;

offline::SkeletonSource skeleton() {
  offline::SkeletonSource s;
  s.bones.push_back(named<offline::Bone>("root"));
  for (const char* name : {"hips", "thigh l", "shin"}) {
    offline::Bone b = named<offline::Bone>(name);
    b.parent = static_cast<int>(s.bones.size()) - 1;
    s.bones.push_back(b);
  }
  s.slots.push_back(mf::testing::slot("body", 1));
  s.slots.push_back(mf::testing::slot("leg", 3));
  offline::Skin skin = named<offline::Skin>("default");
  skin.attachments.push_back(mf::testing::attachment(1, "leg", offline::RegionAttachment{}));
  skin.attachments.push_back(mf::testing::attachment(0, "body", offline::RegionAttachment{}));
  s.skins.push_back(skin);
  offline::IkConstraint ik = named<offline::IkConstraint>("leg-ik");
  ik.bones = {2, 3};
  ik.target = 1;
  s.ik.push_back(ik);
  offline::PhysicsConstraint physics = named<offline::PhysicsConstraint>("sway");
  physics.bone = 2;
  s.physics.push_back(physics);
  return s;
}

Selection target_of(const std::string& path) {
  offline::Finding f;
  f.error.path = path;
  return finding_target(f, skeleton());
}

TEST(FindingTarget, NamesBonesAndSlots) {
  EXPECT_EQ(target_of("bones[2].rotation"), Selection::bone(2));
  EXPECT_EQ(target_of("bones.hips.rotate.v[1]"), Selection::bone(1));
  EXPECT_EQ(target_of("bones[\"thigh l\"].rotate"), Selection::bone(2));
  EXPECT_EQ(target_of("slots[1].attachment"), Selection::slot(1));
  EXPECT_EQ(target_of("slots.body.rgba"), Selection::slot(0));
  EXPECT_EQ(target_of("skins[0].attachments[0].weights.v[3]"), Selection::slot(1));
  EXPECT_EQ(target_of("skins[0].attachments[1].name"), Selection::slot(0));
  EXPECT_EQ(target_of("deform.default.leg.leg"), Selection::slot(1));
  EXPECT_EQ(target_of("ik[0].bones[1]"), Selection::bone(3));
  EXPECT_EQ(target_of("ik[0].target"), Selection::bone(1));
  EXPECT_EQ(target_of("ik[0].mix"), Selection::bone(2));
  EXPECT_EQ(target_of("physics[0].strength"), Selection::bone(2));
}

TEST(FindingTarget, OtherPathsNameNothing) {
  EXPECT_TRUE(target_of("").empty());
  EXPECT_TRUE(target_of("skeleton.uid").empty());
  EXPECT_TRUE(target_of("events.step").empty());
  EXPECT_TRUE(target_of("ik[\"leg-ik\"]").empty());
  EXPECT_TRUE(target_of("bones[9].x").empty()) << "an index the skeleton lacks";
  EXPECT_TRUE(target_of("bones.nobody.rotate").empty());
  EXPECT_TRUE(target_of("skins[3].attachments[0]").empty());
}

}  // namespace
}  // namespace mf::editor
