// Runs examples/arena as a user would, in a window on a private Xvfb (lavapipe presents to it) with
// the validation layer on: a fixed-length run with a screenshot, checked for its size, for a crowd of
// separate characters on the background, and for the hits its summary line reports; the same frames
// twice give the same picture and another seed another one; the errors and their exit codes.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "mf/imaging/image.hpp"
#include "mf/imaging/png.hpp"
#include "support/run_command.hpp"
#include "support/temp_dir.hpp"
#include "support/virtual_display.hpp"

namespace {

using Result = mf::testing::CommandResult;
using mf::imaging::Image;

std::string quote(const std::string& s) { return mf::testing::shell_quote(s); }

Result arena(const std::string& args, const std::string& env = "") {
  return mf::testing::run_shell(env + " MF_VULKAN_VALIDATION=1 " + quote(MF_ARENA_PATH) + " " + args);
}

// The arena's background, 8-bit (kBackground in examples/arena/main.cpp).
constexpr int kBackground[3] = {23, 26, 33};

bool is_art(const Image& image, int x, int y) {
  const std::uint8_t* p = image.pixel(x, y);
  return std::abs(p[0] - kBackground[0]) + std::abs(p[1] - kBackground[1]) + std::abs(p[2] - kBackground[2]) > 40;
}

int art_pixels(const Image& image) {
  int n = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) n += is_art(image, x, y);
  return n;
}

// Areas of the 4-connected regions of art pixels, largest first.
std::vector<int> blobs(const Image& image) {
  const int w = image.width, h = image.height;
  std::vector<char> seen(static_cast<std::size_t>(w * h), 0);
  std::vector<int> areas, stack;
  for (int start = 0; start < w * h; ++start) {
    if (seen[static_cast<std::size_t>(start)] || !is_art(image, start % w, start / w)) continue;
    int area = 0;
    stack.assign(1, start);
    seen[static_cast<std::size_t>(start)] = 1;
    while (!stack.empty()) {
      const int i = stack.back();
      stack.pop_back();
      ++area;
      const int x = i % w, y = i / w;
      const int next[4][2] = {{x + 1, y}, {x - 1, y}, {x, y + 1}, {x, y - 1}};
      for (const auto& n : next) {
        if (n[0] < 0 || n[0] >= w || n[1] < 0 || n[1] >= h) continue;
        const int j = n[1] * w + n[0];
        if (seen[static_cast<std::size_t>(j)] || !is_art(image, n[0], n[1])) continue;
        seen[static_cast<std::size_t>(j)] = 1;
        stack.push_back(j);
      }
    }
    areas.push_back(area);
  }
  std::sort(areas.rbegin(), areas.rend());
  return areas;
}

std::string list(const std::vector<int>& v) {
  std::string s;
  for (int x : v) s += std::to_string(x) + " ";
  return s;
}

int max_difference(const Image& a, const Image& b) {
  if (a.width != b.width || a.height != b.height) return 256;
  int most = 0;
  for (std::size_t i = 0; i < a.rgba.size(); ++i) most = std::max(most, std::abs(int(a.rgba[i]) - int(b.rgba[i])));
  return most;
}

class ArenaRun : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(display.error().empty()) << display.error(); }

  // `env`: variables for the run ("SDL_AUDIODRIVER=disk ..."); none: the arena opens no audio device.
  Image run(const std::string& args, const std::string& name, Result* result = nullptr, const std::string& env = "") {
    const std::string shot = (dir.path() / (name + ".png")).string();
    const Result r = arena((env.empty() ? "--mute" : "") + std::string(" --screenshot ") + quote(shot) + " " + args, env);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    if (result) *result = r;
    auto image = mf::imaging::read_png(shot);
    EXPECT_TRUE(image) << r.output;
    return image ? *image : Image{};
  }

  mf::testing::VirtualDisplay display;
  mf::testing::TempDir dir{"arena"};
};

// The run: 300 frames (5 s of the arena) at 480 × 320.
TEST_F(ArenaRun, ShowsACrowdAndReportsHits) {
  Result r;
  // Footsteps sound through SDL's disk driver, which writes the mix to a file.
  const std::string audio = (dir.path() / "arena.raw").string();
  const Image image = run("--frames 300 --size 480x320", "crowd", &r, "SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE=" + quote(audio));
  ASSERT_EQ(image.width, 480);
  ASSERT_EQ(image.height, 320);

  // The summary: every walker there, balls thrown, some of them hits, footsteps reaching the hook.
  // Read with sscanf: std::regex trips g++ 12's -Wmaybe-uninitialized under the sanitizers.
  const std::size_t at = r.output.find("arena: 300 frames, 18 walkers, ");
  ASSERT_NE(at, std::string::npos) << r.output;
  int hits = -1, thrown = -1, footsteps = -1, sounds = -1;
  ASSERT_EQ(std::sscanf(r.output.c_str() + at, "arena: 300 frames, 18 walkers, %d hits, %d projectiles, %d footsteps, %d sounds", &hits,
                        &thrown, &footsteps, &sounds),
            4)
      << r.output;
  // Every footstep played its sound through the scene's AudioOutput (as many voices as there are).
  EXPECT_GT(sounds, 18);
  EXPECT_LE(sounds, footsteps);
  EXPECT_GT(std::filesystem::file_size(audio), 0u);
  EXPECT_GT(hits, 0);
  EXPECT_LE(hits, thrown);
  // The hero throws every 0.45 s and the sides every 0.55 s: 5 s give 11 + 9.
  EXPECT_EQ(thrown, 20);
  // 18 walkers mostly walking or running for 5 s: at least one step each, on average.
  EXPECT_GT(footsteps, 18);

  // Not blank, not filled: the characters cover part of the canvas.
  const int art = art_pixels(image);
  EXPECT_GT(art, 480 * 320 / 10);
  EXPECT_LT(art, 480 * 320 * 2 / 3);
  // Several characters stand apart from each other: regions of art the size of a character
  // (at 480 × 320 a walker covers 800 to 2000 pixels; overlapping ones join into one region).
  const std::vector<int> areas = blobs(image);
  const auto characters = std::count_if(areas.begin(), areas.end(), [](int a) { return a >= 400; });
  EXPECT_GE(characters, 5) << "region areas: " << list(areas);
}

TEST_F(ArenaRun, FixedFramesRepeatAndTheSeedPlacesTheCrowd) {
  const Image first = run("--frames 40 --size 320x240", "a");
  const Image again = run("--frames 40 --size 320x240", "b");
  const Image other = run("--frames 40 --size 320x240 --seed 7", "c");
  EXPECT_EQ(max_difference(first, again), 0) << "--frames steps 1/60 s whatever the real time";
  EXPECT_GT(max_difference(first, other), 64);
}

TEST_F(ArenaRun, TheCrowdSizeIsAnOption) {
  Result r;
  run("--frames 2 --size 320x240 --crowd 3", "three", &r);
  EXPECT_NE(r.output.find("arena: 2 frames, 3 walkers,"), std::string::npos) << r.output;
}

TEST(ArenaCli, BadOptionsAreUsageErrors) {
  Result r = arena("--size 12x9000 --frames 1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--size \"12x9000\""), std::string::npos) << r.output;
  r = arena("--crowd 0 --frames 1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--crowd"), std::string::npos) << r.output;
}

TEST(ArenaCli, AMissingMannequinIsNamed) {
  const Result r = arena("--mannequin /nonexistent/folder --frames 1");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("/nonexistent/folder/mannequin.mskel"), std::string::npos) << r.output;
}

TEST(ArenaCli, SaysAWindowNeedsADisplay) {
  const Result r = mf::testing::run_shell("env -u DISPLAY -u WAYLAND_DISPLAY " + quote(MF_ARENA_PATH) + " --frames 1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("arena: cannot open the window"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("a window needs a display"), std::string::npos) << r.output;
}

}  // namespace
