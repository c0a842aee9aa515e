// Runs mfe-editor as a user would, on a private Xvfb (lavapipe presents to it), driven by action
// scripts that inject real SDL events: selection in the viewport (by rig coordinates) and in the
// Hierarchy (by label path), the Output panel selecting what a finding names, pan, zoom and frame
// all, screenshots of the composed frame, failed expectations, and imported spineboy when Spine's
// example is beside the repository. Validation is on: any message fails the run (exit 2).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "bone_picking.hpp"
#include "mf/imaging/image.hpp"
#include "mf/imaging/png.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/offline/import/spine/spine_import.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "panel_layout.hpp"
#include "panels.hpp"
#include "support/run_command.hpp"
#include "support/temp_dir.hpp"
#include "support/virtual_display.hpp"

namespace mf::editor {
namespace {

namespace fs = std::filesystem;
using Result = mf::testing::CommandResult;

std::string quote(const std::string& s) { return mf::testing::shell_quote(s); }
// Temporary paths hold no quotes or backslashes: quoting is enough for JSON.
std::string json_string(const std::string& s) { return "\"" + s + "\""; }

const std::string kMannequin = std::string(MF_EXAMPLES_DIR) + "/mannequin/mannequin.mskel";
constexpr int kWidth = 1000, kHeight = 700;
// The viewport's background, 8-bit (kBackground in src/editor/app/editor_app.cpp).
constexpr int kBackground[3] = {41, 43, 51};

int distance(const std::uint8_t* p, const int rgb[3]) {
  return std::abs(p[0] - rgb[0]) + std::abs(p[1] - rgb[1]) + std::abs(p[2] - rgb[2]);
}

ScreenRect viewport_rect() { return layout_panels({kWidth, kHeight}).viewport; }

// Pixels of the viewport (below its title bar) that are not background or grid: the rig.
int rig_pixels(const imaging::Image& image) {
  const ScreenRect v = viewport_rect();
  int count = 0;
  for (int y = static_cast<int>(v.min.y) + 24; y < static_cast<int>(v.max().y); ++y)
    for (int x = static_cast<int>(v.min.x); x < static_cast<int>(v.max().x); ++x)
      if (distance(image.pixel(x, y), kBackground) > 60) ++count;
  return count;
}

int selection_pixels(const imaging::Image& image) {
  const int rgb[3] = {kSelectionRgb[0], kSelectionRgb[1], kSelectionRgb[2]};
  int count = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x)
      if (distance(image.pixel(x, y), rgb) <= 6) ++count;
  return count;
}

// The largest channel difference inside the viewport, and how many pixels differ at all.
std::pair<int, int> viewport_difference(const imaging::Image& a, const imaging::Image& b) {
  const ScreenRect v = viewport_rect();
  int most = 0, differing = 0;
  for (int y = static_cast<int>(v.min.y) + 24; y < static_cast<int>(v.max().y); ++y)
    for (int x = static_cast<int>(v.min.x); x < static_cast<int>(v.max().x); ++x) {
      int d = 0;
      for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(a.pixel(x, y)[c] - b.pixel(x, y)[c]));
      most = std::max(most, d);
      differing += d > 0 ? 1 : 0;
    }
  return {most, differing};
}

// The centre of mass of the rig's pixels in the viewport.
Vec2 rig_centre(const imaging::Image& image) {
  const ScreenRect v = viewport_rect();
  double sx = 0, sy = 0;
  int n = 0;
  for (int y = static_cast<int>(v.min.y) + 24; y < static_cast<int>(v.max().y); ++y)
    for (int x = static_cast<int>(v.min.x); x < static_cast<int>(v.max().x); ++x)
      if (distance(image.pixel(x, y), kBackground) > 60) {
        sx += x;
        sy += y;
        ++n;
      }
  return n ? Vec2{static_cast<float>(sx / n), static_cast<float>(sy / n)} : Vec2{};
}

class EditorCli : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(display.error().empty()) << display.error(); }

  // Runs the editor on `rig` with the script `actions` (a JSON array's items).
  Result edit(const std::string& rig, const std::string& actions) {
    const fs::path script = dir.path() / ("script" + std::to_string(++scripts) + ".json");
    std::ofstream(script) << "[\n" << actions << "\n]\n";
    return mf::testing::run_shell("MF_VULKAN_VALIDATION=1 " + quote(MF_EDITOR_PATH) + " " + quote(rig) + " --size " +
                                  std::to_string(kWidth) + "x" + std::to_string(kHeight) + " --script " + quote(script.string()));
  }
  std::string shot(const std::string& name) { return (dir.path() / (name + ".png")).string(); }
  imaging::Image image(const std::string& name) {
    auto read = imaging::read_png(shot(name));
    EXPECT_TRUE(read) << read.error().to_string();
    return read ? *read : imaging::Image::blank(kWidth, kHeight);
  }

  mf::testing::VirtualDisplay display;
  mf::testing::TempDir dir{"mfe_editor"};
  int scripts = 0;
};

TEST_F(EditorCli, ClickingABoneInTheViewportSelectsIt) {
  // spine: from 154 px above the root straight up for 44 px (hips at y −148, turned −90°, spine at x 6).
  const Result r = edit(kMannequin, R"(
    {"screenshot": )" + json_string(shot("before")) + R"(},
    {"click_rig": [0, -175]},
    {"expect_selected": "spine"},
    {"screenshot": )" + json_string(shot("after")) + R"(},
    {"click_rig": [150, -300]},
    {"expect_selected": ""},
    {"quit": true})");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const imaging::Image before = image("before"), after = image("after");
  ASSERT_EQ(before.width, kWidth);
  ASSERT_EQ(before.height, kHeight);
  // The rig is drawn: its pixels fill a good part of the viewport, and the torso is where the view
  // put it (the spine's middle).
  EXPECT_GT(rig_pixels(before), 8000);
  const ScreenRect v = viewport_rect();
  EXPECT_EQ(selection_pixels(before), 0) << "nothing selected yet";
  EXPECT_GT(selection_pixels(after), 60) << "the selected bone is drawn in the selection colour";
  // Everything of the selection colour lies in the viewport or the Hierarchy's selected row
  // (which uses ImGui's own colour): the viewport.
  int outside = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      const int rgb[3] = {kSelectionRgb[0], kSelectionRgb[1], kSelectionRgb[2]};
      if (distance(after.pixel(x, y), rgb) <= 6 && !v.contains({static_cast<float>(x), static_cast<float>(y)})) ++outside;
    }
  EXPECT_EQ(outside, 0);
}

TEST_F(EditorCli, ClickingInTheHierarchySelectsBonesAndSlots) {
  const Result r = edit(kMannequin, R"(
    {"click": "Hierarchy/hips"},
    {"expect_selected": "hips"},
    {"click": "Hierarchy/chest/torso"},
    {"expect_selected": "torso"},
    {"click": "Hierarchy/root/foot_l_target/foot_l"},
    {"expect_selected": "foot_l"},
    {"screenshot": )" + json_string(shot("foot")) + R"(},
    {"quit": true})");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_GT(selection_pixels(image("foot")), 20) << "the bone chosen in the tree is highlighted in the viewport";
}

TEST_F(EditorCli, PanZoomAndFrameAll) {
  const Result r = edit(kMannequin, R"(
    {"screenshot": )" + json_string(shot("framed")) + R"(},
    {"drag_rig": {"from": [0, -100], "to": [120, -100], "button": "middle"}},
    {"screenshot": )" + json_string(shot("panned")) + R"(},
    {"wheel_rig": {"at": [0, -150], "notches": -3}},
    {"screenshot": )" + json_string(shot("zoomed")) + R"(},
    {"key": "F"},
    {"screenshot": )" + json_string(shot("again")) + R"(},
    {"quit": true})");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const imaging::Image framed = image("framed"), panned = image("panned"), zoomed = image("zoomed"), again = image("again");
  const Vec2 c0 = rig_centre(framed), c1 = rig_centre(panned);
  // A middle drag of 120 rig pixels moves the picture right by that much at the view's scale; the
  // viewport fits the mannequin's ~330 px height into ~500 px, so the scale is about 1.4.
  EXPECT_GT(c1.x - c0.x, 120);
  EXPECT_NEAR(c1.y, c0.y, 3);
  // Three notches out: 1/1.15³ the size, about 0.43 of the area.
  EXPECT_LT(rig_pixels(zoomed), rig_pixels(panned) * 0.55) << rig_pixels(zoomed) << " vs " << rig_pixels(panned);
  EXPECT_GT(rig_pixels(zoomed), rig_pixels(panned) * 0.33) << rig_pixels(zoomed) << " vs " << rig_pixels(panned);
  const auto [most, differing] = viewport_difference(framed, again);
  EXPECT_LE(most, 2) << "F frames the rig exactly as at the start";
  EXPECT_EQ(differing, 0);
}

TEST_F(EditorCli, AFindingInTheOutputSelectsWhatItNames) {
  fs::copy(fs::path(kMannequin).parent_path(), dir.path() / "rig", fs::copy_options::recursive);
  std::ofstream(dir.path() / "rig" / "mannequin.clips" / "flip.manim") << R"({
  "format": 1,
  "uid": "anm_00000000f11f",
  "type": "SkeletonClip",
  "skeleton": { "uid": "skl_5e1a7c93b20d", "path": "mannequin.mskel" },
  "length": 1,
  "fps": 30,
  "loop": "Linear",
  "bones": {
    "chest": { "rotate": { "t": [0, 1], "v": [0, 270] } }
  }
}
)";
  const Result r = edit((dir.path() / "rig").string(), R"(
    {"click": "Output/finding 1"},
    {"expect_selected": "chest"},
    {"quit": true})");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("warning: "), std::string::npos) << "the findings are printed too";
  EXPECT_NE(r.output.find("bones.chest.rotate.v[1]: rotation turns 270°"), std::string::npos) << r.output;
}

TEST_F(EditorCli, AFailedExpectationExitsOneNamingTheAction) {
  const Result r = edit(kMannequin, R"(
    {"click": "Hierarchy/hips"},
    {"expect_selected": "head"},
    {"quit": true})");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("[1].expect_selected: expected \"head\" selected, found bone \"hips\""), std::string::npos) << r.output;
  const Result missing = edit(kMannequin, R"({"click": "Hierarchy/nobody"}, {"quit": true})");
  EXPECT_EQ(missing.exit_code, 1) << missing.output;
  EXPECT_NE(missing.output.find("widget \"Hierarchy/nobody\": no such widget"), std::string::npos) << missing.output;
}

TEST_F(EditorCli, UsageErrors) {
  const Result no_rig = mf::testing::run_shell(quote(MF_EDITOR_PATH) + " " + quote((dir.path() / "none").string()) + " --frames 1");
  EXPECT_EQ(no_rig.exit_code, 2) << no_rig.output;
  EXPECT_NE(no_rig.output.find("no such file or folder"), std::string::npos) << no_rig.output;
  std::ofstream(dir.path() / "bad.json") << "[{\"jump\": 1}]";
  const Result bad = mf::testing::run_shell(quote(MF_EDITOR_PATH) + " " + quote(kMannequin) + " --script " +
                                            quote((dir.path() / "bad.json").string()));
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("unknown action \"jump\""), std::string::npos) << bad.output;
  const Result size = mf::testing::run_shell(quote(MF_EDITOR_PATH) + " --size 10x10 --frames 1");
  EXPECT_EQ(size.exit_code, 2) << size.output;
}

TEST(EditorCliNoDisplay, SaysAWindowNeedsADisplay) {
  const Result r = mf::testing::run_shell("env -u DISPLAY -u WAYLAND_DISPLAY " + quote(MF_EDITOR_PATH) + " " + quote(kMannequin) +
                                          " --frames 1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("a window needs a display"), std::string::npos) << r.output;
}

// Spineboy, imported here from Spine's example beside the repository (never part of it).
TEST_F(EditorCli, ImportedSpineboy) {
  const char* env = std::getenv("MF_SPINE_EXAMPLES_DIR");
  const fs::path json = fs::path(env && *env ? env : MF_SPINE_EXAMPLES_DEFAULT) / "spineboy" / "spineboy-pro.json";
  if (!fs::is_regular_file(json)) GTEST_SKIP() << json << " not found; set MF_SPINE_EXAMPLES_DIR to run this test";
  auto imported = offline::import_spine({json.string(), {}});
  ASSERT_TRUE(imported) << imported.error().to_string();
  const fs::path out = dir.path() / "spineboy";
  ASSERT_TRUE(offline::write_spine_import(*imported, out.string()));

  // A bone to click: the longest whose middle lies at least 12 rig pixels from every other shown
  // bone (the view shows spineboy at about 0.6 screen units per rig pixel).
  auto built = offline::build_rig_file((out / "spineboy-pro.mskel").string());
  ASSERT_TRUE(built) << built.error().to_string();
  skel::SkeletonInstance instance(*built->data);
  instance.update({});
  std::vector<BoneSegment> bones;
  bone_segments(instance.pose(), RigView{}, bones);
  int chosen = -1;
  float chosen_length = 0;
  Vec2 middle;
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const float len = length(bones[i].tip - bones[i].joint);
    if (!bones[i].shown || len < 40 || len <= chosen_length) continue;
    const Vec2 m = lerp(bones[i].joint, bones[i].tip, 0.5f);
    bool alone = true;
    for (std::size_t j = 0; j < bones.size() && alone; ++j)
      if (j != i && bones[j].shown && distance_to_segment(m, bones[j].joint, bones[j].tip) < 12) alone = false;
    if (!alone) continue;
    chosen = static_cast<int>(i);
    chosen_length = len;
    middle = m;
  }
  ASSERT_GE(chosen, 0);
  const std::string name = built->data->bones.names[static_cast<std::size_t>(chosen)];

  const Result r = edit(out.string(), R"(
    {"click_rig": [)" + std::to_string(middle.x) + ", " + std::to_string(middle.y) + R"(]},
    {"expect_selected": ")" + name + R"("},
    {"click": "Hierarchy/rear-bracer/gun"},
    {"expect_selected": "gun"},
    {"screenshot": )" + json_string(shot("spineboy")) + R"(},
    {"quit": true})");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const imaging::Image shot_image = image("spineboy");
  EXPECT_GT(rig_pixels(shot_image), 8000);
  EXPECT_GT(selection_pixels(shot_image), 30);
}

}  // namespace
}  // namespace mf::editor
