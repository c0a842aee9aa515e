// Opening a rig: a .mskel or a folder holding exactly one; the example mannequin reads, builds and
// checks clean with a setup pose and bounds; a rig that does not read still opens with its error as a
// finding; the outline puts slots under their bones.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "open_rig.hpp"
#include "panel_layout.hpp"
#include "rig_outline.hpp"
#include "support/temp_dir.hpp"

namespace mf::editor {
namespace {

namespace fs = std::filesystem;
const std::string kMannequin = std::string(MF_EXAMPLES_DIR) + "/mannequin";

TEST(OpenRig, ResolvesAFileOrAFolderWithOneRig) {
  auto file = resolve_rig_path(kMannequin + "/mannequin.mskel");
  ASSERT_TRUE(file);
  EXPECT_EQ(*file, kMannequin + "/mannequin.mskel");
  auto folder = resolve_rig_path(kMannequin);
  ASSERT_TRUE(folder) << folder.error().to_string();
  EXPECT_EQ(fs::path(*folder).filename(), "mannequin.mskel");

  mf::testing::TempDir dir("mf_editor_open");
  auto empty = resolve_rig_path(dir.path().string());
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message.find("holds no .mskel"), std::string::npos);
  std::ofstream(dir.path() / "a.mskel") << "{}";
  std::ofstream(dir.path() / "b.mskel") << "{}";
  auto several = resolve_rig_path(dir.path().string());
  ASSERT_FALSE(several);
  EXPECT_NE(several.error().message.find("several rigs (a.mskel, b.mskel)"), std::string::npos) << several.error().message;
  auto missing = resolve_rig_path((dir.path() / "nothing").string());
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("no such file or folder"), std::string::npos);
}

TEST(OpenRig, TheMannequinOpensWithAPose) {
  const OpenRig rig = open_rig(kMannequin + "/mannequin.mskel");
  ASSERT_TRUE(rig.source);
  ASSERT_TRUE(rig.data);
  ASSERT_TRUE(rig.has_pose());
  EXPECT_TRUE(rig.findings.empty()) << rig.findings.front().error.to_string();
  const offline::SkeletonSource& s = rig.source->skeleton;
  ASSERT_EQ(rig.runtime_bone.size(), s.bones.size());
  for (std::size_t i = 0; i < s.bones.size(); ++i) {
    ASSERT_GE(rig.runtime_bone[i], 0);
    EXPECT_EQ(rig.source_bone[static_cast<std::size_t>(rig.runtime_bone[i])], static_cast<int>(i));
  }
  // The mannequin stands on its origin, head up (Y down: negative y).
  const Bounds b = rig.bounds();
  ASSERT_FALSE(b.empty());
  EXPECT_LT(b.min_y, -250);
  EXPECT_GE(b.max_y, 0);
  EXPECT_LT(b.min_x, 0);
  EXPECT_GT(b.max_x, 0);

  const RigOutline outline = RigOutline::of(s);
  ASSERT_EQ(outline.roots, std::vector<int>{s.find_bone("root")});
  const int hips = s.find_bone("hips");
  const auto& hips_children = outline.child_bones[static_cast<std::size_t>(hips)];
  EXPECT_NE(std::find(hips_children.begin(), hips_children.end(), s.find_bone("spine")), hips_children.end());
  for (std::size_t b = 0; b < s.bones.size(); ++b)
    for (const int slot : outline.bone_slots[b]) EXPECT_EQ(s.slots[static_cast<std::size_t>(slot)].bone, static_cast<int>(b));
  EXPECT_EQ(RigOutline::ancestry(s, s.find_bone("spine")), (std::vector<int>{s.find_bone("spine"), hips, s.find_bone("root")}));
}

TEST(OpenRig, ARigThatDoesNotReadOpensWithItsError) {
  mf::testing::TempDir dir("mf_editor_open");
  const std::string path = (dir.path() / "broken.mskel").string();
  std::ofstream(path) << "{\n  \"format\": 1,\n  \"bones\": 3\n}\n";
  const OpenRig rig = open_rig(path);
  EXPECT_FALSE(rig.source);
  EXPECT_FALSE(rig.has_pose());
  ASSERT_EQ(rig.findings.size(), 1u);
  EXPECT_EQ(rig.findings[0].severity, offline::Severity::Error);
  EXPECT_NE(rig.findings[0].error.to_string().find("broken.mskel:"), std::string::npos) << rig.findings[0].error.to_string();
  EXPECT_TRUE(rig.bounds().empty());
}

TEST(PanelLayout, FillsTheWindowWithoutOverlaps) {
  for (const Vec2 display : {Vec2{1280, 800}, Vec2{640, 480}, Vec2{320, 240}}) {
    const PanelLayout l = layout_panels(display);
    EXPECT_FLOAT_EQ(l.hierarchy.size.x + l.viewport.size.x + l.properties.size.x, display.x);
    EXPECT_FLOAT_EQ(l.viewport.size.y + l.output.size.y, display.y);
    EXPECT_FLOAT_EQ(l.viewport.min.x, l.hierarchy.max().x);
    EXPECT_FLOAT_EQ(l.properties.min.x, l.viewport.max().x);
    EXPECT_FLOAT_EQ(l.output.min.y, l.viewport.max().y);
    EXPECT_GE(l.viewport.size.x, display.x / 3 - 0.01f);
  }
}

}  // namespace
}  // namespace mf::editor
