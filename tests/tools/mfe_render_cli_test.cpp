// Runs `mfe skel render` as a user would, headless (lavapipe when there is no GPU), on the example
// rig: the contact sheet of the walk decoded and looked at cell by cell, a single frame with --time,
// compute against CPU skinning, --json's report, and the errors with their exit codes.
//
// The test finds the art areas from the picture itself: they are the only pixels of the cell colour
// (the sheet background, labels and strips have their own colours), so the columns and rows that
// hold that colour give each frame's rectangle.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "mf/imaging/image.hpp"
#include "mf/imaging/png.hpp"
#include "mf/offline/json/json.hpp"
#include "support/temp_dir.hpp"
#include "support/run_command.hpp"

namespace mf::tools {
namespace {

using imaging::Image;
using imaging::Rect;

using Result = mf::testing::CommandResult;

std::string quote(const std::string& s) { return mf::testing::shell_quote(s); }

// With the validation layer on: mfe then exits 2 and prints any validation message.
Result mfe(const std::string& args) {
  return mf::testing::run_shell("MF_VULKAN_VALIDATION=1 " + quote(MF_MFE_PATH) + " " + args);
}

const std::string kRig = quote(std::string(MF_EXAMPLES_DIR) + "/mannequin/mannequin.mskel");

// The art areas' background (sheet_colors::kCell in tools/mfe/contact_sheet.hpp).
constexpr std::uint8_t kCell[3] = {58, 62, 70};

bool is_cell(const Image& img, int x, int y) {
  const std::uint8_t* p = img.pixel(x, y);
  return p[0] == kCell[0] && p[1] == kCell[1] && p[2] == kCell[2];
}

// Runs of true in `flags`, as [start, end), joined across gaps of up to 3 (the ground line crosses a
// whole art area; cells are further apart).
std::vector<std::pair<int, int>> runs(const std::vector<bool>& flags) {
  std::vector<std::pair<int, int>> out;
  for (int i = 0; i < static_cast<int>(flags.size());) {
    if (!flags[static_cast<std::size_t>(i)]) {
      ++i;
      continue;
    }
    int j = i;
    while (j < static_cast<int>(flags.size()) && flags[static_cast<std::size_t>(j)]) ++j;
    if (!out.empty() && i - out.back().second <= 3)
      out.back().second = j;
    else
      out.emplace_back(i, j);
    i = j;
  }
  return out;
}

// The art rectangles, row-major, from the columns and rows holding the cell colour.
std::vector<Rect> find_cells(const Image& img) {
  std::vector<bool> columns(static_cast<std::size_t>(img.width)), rows(static_cast<std::size_t>(img.height));
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x)
      if (is_cell(img, x, y)) columns[static_cast<std::size_t>(x)] = rows[static_cast<std::size_t>(y)] = true;
  std::vector<Rect> cells;
  for (const auto& [y0, y1] : runs(rows))
    for (const auto& [x0, x1] : runs(columns)) cells.push_back({x0, y0, x1 - x0, y1 - y0});
  return cells;
}

// Pixels of the art area far from the cell colour: the character, its onion skins and overlays.
int drawn_pixels(const Image& img, const Rect& r) {
  int n = 0;
  for (int y = r.y; y < r.y + r.height; ++y)
    for (int x = r.x; x < r.x + r.width; ++x) {
      const std::uint8_t* p = img.pixel(x, y);
      n += std::abs(p[0] - kCell[0]) + std::abs(p[1] - kCell[1]) + std::abs(p[2] - kCell[2]) > 60;
    }
  return n;
}

// Pixels where two equally sized areas differ by more than `tolerance` in some channel.
int differing_pixels(const Image& a, const Rect& ra, const Image& b, const Rect& rb, int tolerance) {
  int n = 0;
  for (int y = 0; y < ra.height; ++y)
    for (int x = 0; x < ra.width; ++x) {
      const std::uint8_t* p = a.pixel(ra.x + x, ra.y + y);
      const std::uint8_t* q = b.pixel(rb.x + x, rb.y + y);
      for (int c = 0; c < 3; ++c)
        if (std::abs(p[c] - q[c]) > tolerance) {
          ++n;
          break;
        }
    }
  return n;
}

Image read(const std::string& path) {
  auto img = imaging::read_png(path);
  EXPECT_TRUE(img.ok()) << (img.ok() ? "" : img.error().to_string());
  return img.ok() ? std::move(*img) : Image{};
}

TEST(MfeRenderCli, WalkSheetShowsTheCharacterInEveryFrame) {
  mf::testing::TempDir dir("mf_render_cli");
  const std::string out = dir.file("walk.png");
  const Result r = mfe("skel render " + kRig + " --clip walk --frames 8 --size 128x160 --out " + quote(out));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("wrote " + out), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("8 frames of walk"), std::string::npos) << r.output;
  const Image sheet = read(out);
  ASSERT_FALSE(sheet.empty());
  EXPECT_NE(r.output.find(std::to_string(sheet.width) + "x" + std::to_string(sheet.height)), std::string::npos) << r.output;

  // Four columns of two rows of 128 × 160 art areas, and not much else around them.
  const std::vector<Rect> cells = find_cells(sheet);
  ASSERT_EQ(cells.size(), 8u);
  for (const Rect& c : cells) {
    EXPECT_EQ(c.width, 128);
    EXPECT_EQ(c.height, 160);
  }
  EXPECT_GT(sheet.width, 4 * 128);
  EXPECT_LT(sheet.width, 4 * 128 + 64);
  EXPECT_GT(sheet.height, 2 * 160);
  EXPECT_LT(sheet.height, 2 * 160 + 200);

  // The character covers a good part of every frame (it fills the frame's height: ≥ 8 % of the
  // area), and consecutive frames differ (it walks: ≥ 2 % of the area changes).
  const int area = 128 * 160;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    EXPECT_GT(drawn_pixels(sheet, cells[i]), area * 8 / 100) << "frame " << i;
    if (i > 0) {
      EXPECT_GT(differing_pixels(sheet, cells[i - 1], sheet, cells[i], 24), area * 2 / 100) << "frame " << i;
    }
  }
}

TEST(MfeRenderCli, TimeRendersOneFrame) {
  mf::testing::TempDir dir("mf_render_cli");
  const std::string out = dir.file("frame.png");
  const Result r = mfe("skel render " + kRig + " --clip walk --time 0.25 --size 160x200 --out " + quote(out));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("1 frame of walk from 0.250s"), std::string::npos) << r.output;
  const Image sheet = read(out);
  const std::vector<Rect> cells = find_cells(sheet);
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].width, 160);
  EXPECT_EQ(cells[0].height, 200);
  EXPECT_LT(sheet.width, 160 + 32);
  EXPECT_GT(drawn_pixels(sheet, cells[0]), 160 * 200 * 8 / 100);
}

// --json says what was drawn: the file, the frames and their times, the events fired in them (the
// walk's footsteps at 0 and 0.5 s), and the sizes, which match the PNG.
TEST(MfeRenderCli, JsonReportsWhatWasDrawn) {
  mf::testing::TempDir dir("mf_render_cli");
  const std::string out = dir.file("walk.png");
  const Result r = mfe("skel render " + kRig + " --clip walk --frames 4 --size 64x80 --out " + quote(out) + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto doc = json::parse(r.output, "stdout");
  ASSERT_TRUE(doc.ok()) << doc.error().to_string() << "\n" << r.output;
  EXPECT_EQ(json::find_path(*doc, "files[0]")->string, out);
  EXPECT_EQ(json::find_path(*doc, "clip")->string, "walk");
  EXPECT_EQ(json::find_path(*doc, "mode")->string, "sheet");
  EXPECT_EQ(json::find_path(*doc, "loop")->string, "Linear");
  const Image sheet = read(out);
  EXPECT_EQ(json::find_path(*doc, "size.width")->number, sheet.width);
  EXPECT_EQ(json::find_path(*doc, "size.height")->number, sheet.height);
  EXPECT_EQ(json::find_path(*doc, "frameSize.width")->number, 64);
  ASSERT_EQ(json::find_path(*doc, "frames")->items.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    const std::string frame = "frames[" + std::to_string(i) + "]";
    EXPECT_EQ(json::find_path(*doc, frame + ".index")->number, i);
    EXPECT_NEAR(json::find_path(*doc, frame + ".t")->number, 0.25 * i, 1e-6);
    EXPECT_EQ(json::find_path(*doc, frame + ".events")->items.size(), i % 2 == 0 ? 1u : 0u) << frame;
  }
  ASSERT_EQ(json::find_path(*doc, "events")->items.size(), 2u);
  EXPECT_EQ(json::find_path(*doc, "events[1].name")->string, "footstep");
  EXPECT_EQ(json::find_path(*doc, "events[1].t")->number, 0.5);
  EXPECT_EQ(json::find_path(*doc, "events[1].frame")->number, 2);
  EXPECT_EQ(json::find_path(*doc, "events[1].string")->string, "right");
  EXPECT_EQ(json::find_path(*doc, "skinning")->string, "compute");

  // One frame of the jump at its landing.
  const Result one = mfe("skel render " + kRig + " --clip jump --time 0.7 --size 64x80 --out " + quote(out) + " --json");
  ASSERT_EQ(one.exit_code, 0) << one.output;
  auto frame = json::parse(one.output, "stdout");
  ASSERT_TRUE(frame.ok()) << one.output;
  EXPECT_EQ(json::find_path(*frame, "mode")->string, "frame");
  EXPECT_NEAR(json::find_path(*frame, "frames[0].t")->number, 0.7, 1e-6);
  EXPECT_EQ(json::find_path(*frame, "events[0].name")->string, "land");
}

TEST(MfeRenderCli, CpuSkinningMatchesComputeSkinning) {
  mf::testing::TempDir dir("mf_render_cli");
  const std::string gpu = dir.file("gpu.png"), cpu = dir.file("cpu.png");
  const std::string args = "skel render " + kRig + " --clip run --frames 4 --size 128x160 --skin default --out ";
  const Result g = mfe(args + quote(gpu));
  ASSERT_EQ(g.exit_code, 0) << g.output;
  EXPECT_NE(g.output.find("compute skinning"), std::string::npos) << g.output;
  const Result c = mfe(args + quote(cpu) + " --cpu-skinning");
  ASSERT_EQ(c.exit_code, 0) << c.output;
  EXPECT_NE(c.output.find("cpu skinning"), std::string::npos) << c.output;
  const Image a = read(gpu), b = read(cpu);
  ASSERT_EQ(a.width, b.width);
  ASSERT_EQ(a.height, b.height);
  const std::vector<Rect> ca = find_cells(a), cb = find_cells(b);
  ASSERT_EQ(ca.size(), 4u);
  ASSERT_EQ(cb.size(), 4u);
  // The two paths differ only in float rounding: edges may move by a fraction of a pixel. Allowed:
  // at most 1 % of each frame's pixels off by more than 16 of 255 in any channel.
  for (std::size_t i = 0; i < ca.size(); ++i)
    EXPECT_LE(differing_pixels(a, ca[i], b, cb[i], 16), 128 * 160 / 100) << "frame " << i;
}

TEST(MfeRenderCli, UnknownClipOrSkinIsAnInputError) {
  mf::testing::TempDir dir("mf_render_cli");
  const std::string out = quote(dir.file("x.png"));
  Result r = mfe("skel render " + kRig + " --clip moonwalk --out " + out);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("no clip \"moonwalk\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("walk"), std::string::npos) << r.output;  // the clips it has
  r = mfe("skel render " + kRig + " --clip walk --skin default,pirate --out " + out);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("pirate"), std::string::npos) << r.output;
  r = mfe("skel render " + quote(dir.file("missing.mskel")) + " --clip walk --out " + out);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("missing.mskel"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir.file("x.png")));
}

TEST(MfeRenderCli, BadOptionsAreUsageErrors) {
  mf::testing::TempDir dir("mf_render_cli");
  const std::string out = quote(dir.file("x.png"));
  for (const char* size : {"12", "256x", "x320", "10x10", "256x99999", "-5x20", "abcxdef"}) {
    const Result r = mfe("skel render " + kRig + " --clip walk --size=" + quote(size) + " --out " + out);
    EXPECT_EQ(r.exit_code, 2) << size << ": " << r.output;
    EXPECT_NE(r.output.find("--size"), std::string::npos) << size << ": " << r.output;
  }
  Result r = mfe("skel render " + kRig + " --clip walk --frames 0 --out " + out);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  r = mfe("skel render " + kRig + " --clip walk --time -1 --out " + out);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  r = mfe("skel render " + kRig + " --out " + out);  // no --clip
  EXPECT_EQ(r.exit_code, 2) << r.output;
  // An output folder that does not exist: the write fails with the path named.
  r = mfe("skel render " + kRig + " --clip walk --frames 1 --size 64x64 --out " + quote(dir.file("no/such/dir/x.png")));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("no/such/dir/x.png"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir.file("x.png")));
}

}  // namespace
}  // namespace mf::tools
