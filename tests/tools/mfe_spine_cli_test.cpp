// Runs `mfe skel import-spine` as a user would, on copies of tests/data/spine in a temporary folder
// (with page images drawn here): the files it writes, the summary, `mfe skel check` on the result,
// identical output when imported twice, atlas lookup, and errors with their exit codes.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/wait.h>

#include "mf/imaging/png.hpp"
#include "support/temp_dir.hpp"
#include "support/run_command.hpp"

namespace mf::offline {
namespace {

namespace fs = std::filesystem;

using Result = mf::testing::CommandResult;
using mf::testing::read_text;

std::string quote(const std::string& s) { return mf::testing::shell_quote(s); }

Result mfe(const std::string& args) { return mf::testing::run_shell(quote(MF_MFE_PATH) + " " + args); }

// A page of opaque colours that differ per pixel.
imaging::Image page(int w, int h) {
  imaging::Image im = imaging::Image::blank(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::uint8_t* p = im.pixel(x, y);
      p[0] = static_cast<std::uint8_t>(x * 4), p[1] = static_cast<std::uint8_t>(y * 8), p[2] = 100, p[3] = 255;
    }
  return im;
}

class SpineCli : public ::testing::Test {
 protected:
  mf::testing::TempDir dir_{"mf_spine_cli"};

  void SetUp() override {
    fs::create_directories(dir_.path() / "in");
    for (const char* f : {"hero.json", "hero.atlas"})
      fs::copy_file(std::string(MF_TEST_DATA_DIR) + "/spine/" + f, dir_.path() / "in" / f, fs::copy_options::none);
    ASSERT_TRUE(imaging::write_png(dir_.file("in/hero.png"), page(64, 16)));
    ASSERT_TRUE(imaging::write_png(dir_.file("in/hero-fx.png"), page(16, 8)));
  }
  std::string arg(const std::string& relative) const { return quote(dir_.file(relative)); }
};

TEST_F(SpineCli, ImportsTheRigAndItPassesCheck) {
  const Result r = mfe("skel import-spine " + arg("in/hero.json") + " --out " + arg("out"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("imported hero: 9 bones, 10 slots, 2 skins, 11 attachments, 1 clip, 7 images;"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;  // one line
  for (const char* f : {"out/hero.mskel", "out/hero.clips/nod.manim", "out/images/arm.png", "out/images/torso.png",
                        "out/images/fx01.png", "out/images/fx02.png", "out/import-report.txt"})
    EXPECT_TRUE(fs::is_regular_file(dir_.file(f))) << f;
  const std::string report = read_text(dir_.file("out/import-report.txt"));
  EXPECT_NE(report.find("skeleton.images: the image folder \"./images/\""), std::string::npos) << report;
  EXPECT_NE(report.find("bones[1].icon: editor-only \"icon\""), std::string::npos) << report;

  Expected<imaging::Image> arm = imaging::read_png(dir_.file("out/images/arm.png"));
  ASSERT_TRUE(arm);
  EXPECT_EQ(arm->width, 8);
  EXPECT_EQ(arm->height, 16);

  const Result check = mfe("skel check " + arg("out/hero.mskel"));
  EXPECT_EQ(check.exit_code, 0) << check.output;
  EXPECT_NE(check.output.find("0 errors"), std::string::npos) << check.output;
}

TEST_F(SpineCli, ImportingTwiceGivesIdenticalFiles) {
  ASSERT_EQ(mfe("skel import-spine " + arg("in/hero.json") + " --out " + arg("a")).exit_code, 0);
  ASSERT_EQ(mfe("skel import-spine " + arg("in/hero.json") + " --out " + arg("b")).exit_code, 0);
  std::size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir_.path() / "a")) {
    if (!e.is_regular_file()) continue;
    const fs::path rel = fs::relative(e.path(), dir_.path() / "a");
    EXPECT_EQ(read_text(e.path()), read_text(dir_.path() / "b" / rel)) << rel;
    ++files;
  }
  EXPECT_EQ(files, 10u);  // mskel, clip, report, 7 images
}

TEST_F(SpineCli, FindsTheOnlyAtlasOrTheNamedOne) {
  fs::rename(dir_.path() / "in/hero.atlas", dir_.path() / "in/pages.atlas");
  EXPECT_EQ(mfe("skel import-spine " + arg("in/hero.json") + " --out " + arg("o1")).exit_code, 0);
  fs::copy_file(dir_.path() / "in/pages.atlas", dir_.path() / "in/more.atlas");
  const Result two = mfe("skel import-spine " + arg("in/hero.json") + " --out " + arg("o2"));
  EXPECT_EQ(two.exit_code, 1) << two.output;
  EXPECT_NE(two.output.find("several atlases (more.atlas, pages.atlas)"), std::string::npos) << two.output;
  EXPECT_EQ(mfe("skel import-spine " + arg("in/hero.json") + " --atlas " + arg("in/more.atlas") + " --out " + arg("o3"))
                .exit_code,
            0);
}

TEST_F(SpineCli, MissingPageIsAnErrorNamingIt) {
  fs::remove(dir_.path() / "in/hero-fx.png");
  const Result r = mfe("skel import-spine " + arg("in/hero.json") + " --out " + arg("out"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("hero.atlas:18:1: page image \"hero-fx.png\" is missing"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir_.path() / "out/hero.mskel"));
}

TEST_F(SpineCli, BinarySkelIsRefusedWithAdvice) {
  dir_.write("in/hero.skel", std::string("\x01\x02skel\0binary", 12));
  const Result r = mfe("skel import-spine " + arg("in/hero.skel") + " --out " + arg("out"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("export JSON from Spine"), std::string::npos) << r.output;
}

TEST_F(SpineCli, BadJsonAndAtlasNameFileAndLine) {
  const std::string json = read_text(dir_.path() / "in/hero.json");
  dir_.write("in/hero.json", json.substr(0, json.size() / 2));
  Result r = mfe("skel import-spine " + arg("in/hero.json") + " --out " + arg("out"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("hero.json:"), std::string::npos) << r.output;

  dir_.write("in/hero.json", json);
  dir_.write("in/hero.atlas", "hero.png\n\tsize: 64, 16\nhead\n\tbounds: 0, 0, 8\n");
  r = mfe("skel import-spine " + arg("in/hero.json") + " --out " + arg("out"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("hero.atlas:4:1: \"bounds\" takes 4 numbers"), std::string::npos) << r.output;
}

TEST_F(SpineCli, UsageErrorsExitTwo) {
  EXPECT_EQ(mfe("skel import-spine " + arg("in/hero.json")).exit_code, 2);
  EXPECT_EQ(mfe("skel import-spine " + arg("in/nope.json") + " --out " + arg("out")).exit_code, 2);
}

// A physics and a transform constraint of one name (Spine keeps names unique per kind): the rig
// imports, passes check, and describe names each constraint with its kind.
TEST_F(SpineCli, ConstraintsSharingANameAcrossKindsImportAndDescribe) {
  fs::copy_file(std::string(MF_TEST_DATA_DIR) + "/spine/shared-names.json", dir_.path() / "in" / "shared-names.json");
  const Result imported = mfe("skel import-spine " + arg("in/shared-names.json") + " --out " + arg("shared"));
  ASSERT_EQ(imported.exit_code, 0) << imported.output;
  const Result check = mfe("skel check " + arg("shared/shared-names.mskel"));
  EXPECT_EQ(check.exit_code, 0) << check.output;
  const Result r = mfe("skel describe " + arg("shared/shared-names.mskel"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* expected : {
           "girl (0 attachments)  bones=[control]  transform=[girl/face-control]  physics=[girl/face-control]",
           "  physics girl/face-control  order=0  bone=face",
           "  transform girl/face-control  order=1  bones=[face]",
           "  ik aim  order=2",
           "  physics aim  order=3",
           "transform[\"girl/face-control\"]  t=[0]",
           "physics[\"girl/face-control\"].reset  t=[0.5]",
       })
    EXPECT_NE(r.output.find(expected), std::string::npos) << "missing \"" << expected << "\" in:\n" << r.output;
}

}  // namespace
}  // namespace mf::offline
