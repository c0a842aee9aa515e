// Runs `mfe skel view` as a user would, in a window on a private Xvfb (lavapipe presents to it): a
// fixed number of frames of the example's walk with a screenshot of the last one, the same run
// twice, compute against CPU skinning, and the errors with their exit codes.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "mf/imaging/image.hpp"
#include "mf/imaging/png.hpp"
#include "support/run_command.hpp"
#include "support/temp_dir.hpp"
#include "support/virtual_display.hpp"

namespace mf::tools {
namespace {

using Result = mf::testing::CommandResult;

std::string quote(const std::string& s) { return mf::testing::shell_quote(s); }

// With the validation layer on: mfe then exits 2 and prints any validation message.
Result mfe(const std::string& args) {
  return mf::testing::run_shell("MF_VULKAN_VALIDATION=1 " + quote(MF_MFE_PATH) + " " + args);
}

const std::string kRig = quote(std::string(MF_EXAMPLES_DIR) + "/mannequin/mannequin.mskel");

// The viewer's background, 8-bit (kBackground in tools/mfe/skel_view.cpp).
constexpr int kBackground[3] = {41, 43, 51};

int character_pixels(const imaging::Image& image) {
  int count = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      const std::uint8_t* p = image.pixel(x, y);
      if (std::abs(p[0] - kBackground[0]) + std::abs(p[1] - kBackground[1]) + std::abs(p[2] - kBackground[2]) > 24) ++count;
    }
  return count;
}

int max_difference(const imaging::Image& a, const imaging::Image& b) {
  if (a.width != b.width || a.height != b.height) return 256;
  int most = 0;
  for (std::size_t i = 0; i < a.rgba.size(); ++i) most = std::max(most, std::abs(int(a.rgba[i]) - int(b.rgba[i])));
  return most;
}

class ViewCli : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(display.error().empty()) << display.error(); }

  imaging::Image view(const std::string& args, const std::string& name) {
    const std::string shot = (dir.path() / (name + ".png")).string();
    const Result r = mfe("skel view " + kRig + " --size 240x300 --screenshot " + quote(shot) + " " + args);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    auto image = imaging::read_png(shot);
    EXPECT_TRUE(image) << r.output;
    return image ? *image : imaging::Image{};
  }

  mf::testing::VirtualDisplay display;
  mf::testing::TempDir dir{"mfe_view"};
};

TEST_F(ViewCli, PlaysTheWalkForAFixedNumberOfFrames) {
  const std::string shot = (dir.path() / "walk.png").string();
  const Result r = mfe("skel view " + kRig + " --clip walk --frames 30 --size 240x300 --screenshot " + quote(shot));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("presented 30 frames (walk at 0.50 s)"), std::string::npos) << r.output;
  auto image = imaging::read_png(shot);
  ASSERT_TRUE(image) << image.error().to_string();
  EXPECT_EQ(image->width, 240);
  EXPECT_EQ(image->height, 300);
  // The character fills a good part of the window (the view fits the clip), not all of it.
  const int character = character_pixels(*image);
  EXPECT_GT(character, 240 * 300 / 20);
  EXPECT_LT(character, 240 * 300 / 2);
}

TEST_F(ViewCli, FixedFramesGiveTheSameImagesAndTheClipMoves) {
  const imaging::Image first = view("--clip walk --frames 20", "a");
  const imaging::Image again = view("--clip walk --frames 20", "b");
  const imaging::Image later = view("--clip walk --frames 40", "c");
  EXPECT_EQ(max_difference(first, again), 0) << "--frames steps 1/60 s whatever the real time";
  EXPECT_GT(max_difference(first, later), 64) << "the walk moves between 0.33 s and 0.67 s";
}

TEST_F(ViewCli, ComputeAndCpuSkinningShowTheSamePicture) {
  const imaging::Image gpu = view("--clip run --frames 12", "gpu");
  const imaging::Image cpu = view("--clip run --frames 12 --cpu-skinning", "cpu");
  EXPECT_LE(max_difference(gpu, cpu), 2);
}

// --3d: the same run on the 3D stage (the forward renderer): the character over a grey ground and
// sky, and the same picture for the same frame count.
TEST_F(ViewCli, ThreeDShowsTheCharacterOnTheStage) {
  const std::string shot = (dir.path() / "stage.png").string();
  const Result r = mfe("skel view " + kRig + " --3d --hide-slots shadow --clip walk --frames 15 --size 240x300 --screenshot " + quote(shot));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("presented 15 frames (walk at 0.25 s)"), std::string::npos) << r.output;
  auto image = imaging::read_png(shot);
  ASSERT_TRUE(image) << image.error().to_string();
  EXPECT_EQ(image->width, 240);
  EXPECT_EQ(image->height, 300);
  int coloured = 0;
  for (int y = 0; y < image->height; ++y)
    for (int x = 0; x < image->width; ++x) {
      const std::uint8_t* p = image->pixel(x, y);
      if (std::max({p[0], p[1], p[2]}) - std::min({p[0], p[1], p[2]}) > 40) ++coloured;
    }
  EXPECT_GT(coloured, 240 * 300 / 60) << "the character's art is on screen";
  EXPECT_LT(coloured, 240 * 300 / 2);
  const imaging::Image again = view("--3d --hide-slots shadow --clip walk --frames 15", "stage_again");
  EXPECT_EQ(max_difference(*image, again), 0) << "--frames steps 1/60 s whatever the real time";
}

TEST_F(ViewCli, ThreeDRefusesABadCamera) {
  const Result r = mfe("skel view " + kRig + " --3d --hide-slots shadow --camera 1,2,3,4 --frames 1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--camera \"1,2,3,4\""), std::string::npos) << r.output;
}

TEST_F(ViewCli, AnUnknownClipListsTheRigsClips) {
  const Result r = mfe("skel view " + kRig + " --clip dance --frames 1");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("no clip \"dance\"; the rig has: idle, jump, run, walk"), std::string::npos) << r.output;
}

TEST_F(ViewCli, ABadSizeIsAUsageError) {
  const Result r = mfe("skel view " + kRig + " --size 12x9000 --frames 1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--size \"12x9000\""), std::string::npos) << r.output;
}

TEST(ViewCliNoDisplay, SaysAWindowNeedsADisplay) {
  const Result r = mf::testing::run_shell("env -u DISPLAY -u WAYLAND_DISPLAY " + quote(MF_MFE_PATH) + " skel view " + kRig +
                                          " --frames 1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("a window needs a display"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("mfe skel render"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace mf::tools
