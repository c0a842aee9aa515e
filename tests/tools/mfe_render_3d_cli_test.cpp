// Runs `mfe skel render --3d` as a user would, headless (lavapipe when there is no GPU), with the
// validation layer on: the example standing on the lit ground with its shadow, the frame grid, a
// golden image lit by the sun and a point light through its normal maps, and the option errors.
//
// The test tells the picture's parts apart by colour: the ground and the sky are grey (their
// channels within a few levels of each other), the character's art is coloured (shirt, skin, hair).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "mf/imaging/image.hpp"
#include "mf/imaging/png.hpp"
#include "render/render_scene.hpp"
#include "support/run_command.hpp"
#include "support/temp_dir.hpp"

namespace mf::tools {
namespace {

using imaging::Image;
using Result = mf::testing::CommandResult;

std::string quote(const std::string& s) { return mf::testing::shell_quote(s); }

// With the validation layer on: mfe then exits 2 and prints any validation message.
Result mfe(const std::string& args) {
  return mf::testing::run_shell("MF_VULKAN_VALIDATION=1 " + quote(MF_MFE_PATH) + " " + args);
}

const std::string kRig = quote(std::string(MF_EXAMPLES_DIR) + "/mannequin/mannequin.mskel");

int saturation(const std::uint8_t* p) { return std::max({p[0], p[1], p[2]}) - std::min({p[0], p[1], p[2]}); }
int brightness(const std::uint8_t* p) { return (p[0] + p[1] + p[2]) / 3; }
bool coloured(const std::uint8_t* p) { return saturation(p) > 40; }
bool grey(const std::uint8_t* p) { return saturation(p) <= 8; }

struct Box {
  int min_x = 1 << 20, min_y = 1 << 20, max_x = -1, max_y = -1;
  bool empty() const { return max_x < min_x; }
};

// The character: the box round its coloured pixels, and how many there are.
Box character_box(const Image& image, int& count) {
  Box box;
  count = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x)
      if (coloured(image.pixel(x, y))) {
        ++count;
        box.min_x = std::min(box.min_x, x), box.max_x = std::max(box.max_x, x);
        box.min_y = std::min(box.min_y, y), box.max_y = std::max(box.max_y, y);
      }
  return box;
}

// Shadowed ground beside the character: grey pixels right (or left) of its box, from its middle
// down to a little below its feet, clearly darker than the lit ground (the bottom corners' grey,
// far from the character and its shadow).
int shadow_pixels(const Image& image, const Box& box, bool right) {
  const int lit = std::max(brightness(image.pixel(0, image.height - 1)), brightness(image.pixel(image.width - 1, image.height - 1)));
  const int x0 = right ? box.max_x + 2 : 0, x1 = right ? image.width : box.min_x - 1;
  const int y0 = (box.min_y + box.max_y) / 2, y1 = std::min(image.height, box.max_y + (box.max_y - box.min_y) / 8);
  int count = 0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) {
      const std::uint8_t* p = image.pixel(x, y);
      if (grey(p) && brightness(p) * 10 < lit * 8) ++count;
    }
  return count;
}

class Render3dCli : public ::testing::Test {
 protected:
  Image render(const std::string& args, const std::string& name) {
    const std::string out = (dir.path() / (name + ".png")).string();
    const Result r = mfe("skel render " + kRig + " --3d --hide-slots shadow --out " + quote(out) + " " + args);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    auto image = imaging::read_png(out);
    EXPECT_TRUE(image) << r.output;
    return image ? *image : Image{};
  }

  mf::testing::TempDir dir{"mfe_render_3d"};
};

TEST_F(Render3dCli, TheSetupPoseStandsOnTheGroundWithItsShadowBehindRight) {
  const std::string out = (dir.path() / "setup.png").string();
  const Result r = mfe("skel render " + kRig + " --3d --hide-slots shadow --size 320x240 --out " + quote(out));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("1 frame of the setup pose, 320x240 each, 3D stage"), std::string::npos) << r.output;
  auto image = imaging::read_png(out);
  ASSERT_TRUE(image) << image.error().to_string();
  EXPECT_EQ(image->width, 320);
  EXPECT_EQ(image->height, 240);

  int count = 0;
  const Box box = character_box(*image, count);
  ASSERT_FALSE(box.empty()) << "no character pixels";
  EXPECT_GT(count, 320 * 240 / 60) << "the character fills a fair part of the frame";
  EXPECT_LT(count, 320 * 240 / 3);
  // The camera orbits the character's middle: its box holds the image's centre.
  EXPECT_LT(box.min_x, 160);
  EXPECT_GT(box.max_x, 160);
  EXPECT_LT(box.min_y, 120);
  EXPECT_GT(box.max_y, 120);

  // The sun comes from the front-left-top: the shadow lies on the ground right of the character,
  // none of it on the left; lit from the front-right instead, it moves to the left.
  const int right = shadow_pixels(*image, box, true), left = shadow_pixels(*image, box, false);
  EXPECT_GT(right, 150) << "no shadow right of the character (left: " << left << ")";
  EXPECT_LT(left, right / 4);
  const Image mirrored = render("--size 320x240 --light -0.55,-1,-0.6", "mirrored");
  int mirrored_count = 0;
  const Box mirrored_box = character_box(mirrored, mirrored_count);
  EXPECT_GT(shadow_pixels(mirrored, mirrored_box, false), 150) << "--light did not move the shadow to the left";
  EXPECT_LT(shadow_pixels(mirrored, mirrored_box, true), shadow_pixels(mirrored, mirrored_box, false) / 4);
}

TEST_F(Render3dCli, FramesOfAClipFillAGridOfSizedCells) {
  const Image grid = render("--clip walk --frames 6 --size 96x120", "grid");
  EXPECT_EQ(grid.width, 4 * 96);
  EXPECT_EQ(grid.height, 2 * 120);
  const Image one = render("--clip walk --time 0.25 --size 96x120", "one");
  EXPECT_EQ(one.width, 96);
  EXPECT_EQ(one.height, 120);
}

TEST_F(Render3dCli, TheCameraOptionTurnsTheView) {
  const Image front = render("--size 160x160 --camera 0,10", "front");
  const Image side = render("--size 160x160 --camera 70,10,6", "side");
  EXPECT_GT(mf::render::testing::max_difference(front, side), 64);
}

// The walk at 0.25 s, close up, lit by the sun and a warm point light in front of the chest, through the
// normal maps. Tolerance 3/255: lavapipe's rasterisation and filtering are exact; the slack is for
// rounding differences between Mesa versions.
TEST_F(Render3dCli, MatchesTheGoldenImageLitByTheSunAndAPointLight) {
  const Image image = render("--clip walk --time 0.25 --size 200x240 --camera 15,8,4.6 --point-light 0.8,2.3,1", "golden");
  ASSERT_EQ(image.width, 200);
  mf::render::testing::expect_matches_golden(image, "mfe_render_3d_mannequin_walk", 3);
}

TEST(Render3dCliErrors, BadCameraAndLightValuesNameTheOptionAndTheValue) {
  struct Case {
    const char* args;
    const char* message;
  };
  const Case cases[] = {
      {"--camera 20", "--camera \"20\": expected YAW,PITCH[,DISTANCE]"},
      {"--camera 20,x,5", "--camera \"20,x,5\": expected YAW,PITCH[,DISTANCE]"},
      {"--camera 20,95", "--camera \"20,95\": the pitch must be between -90 and 90 degrees"},
      {"--camera 20,15,-2", "--camera \"20,15,-2\": the distance must be more than zero"},
      {"--light 1,2", "--light \"1,2\": expected X,Y,Z"},
      {"--light 0.5,1,0", "--light \"0.5,1,0\": the sunlight must travel down"},
      {"--point-light 1,nan,2", "--point-light \"1,nan,2\": expected X,Y,Z"},
  };
  for (const Case& c : cases) {
    const Result r = mfe("skel render " + kRig + " --3d --hide-slots shadow --out /dev/null " + c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << ": " << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << ": " << r.output;
  }
}

TEST(Render3dCliErrors, AnUnknownHiddenSlotIsNamed) {
  const Result r = mfe("skel render " + kRig + " --3d --hide-slots cape --out /dev/null");
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("--hide-slots: the rig has no slot named 'cape'"), std::string::npos) << r.output;
}

TEST(Render3dCliErrors, The2dSheetStillNeedsAClip) {
  const Result r = mfe("skel render " + kRig + " --out /dev/null");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--clip is required"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace mf::tools
