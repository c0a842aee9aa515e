// Runs `mfe skel import-psd` and `mfe skel import-images` as a user would, on PSDs GIMP wrote
// (tests/data/art, made by make_psds.sh there) and on a folder of PNGs: the summary, the files, `mfe
// skel check` and `mfe skel build` on the result, 8- and 16-bit art giving the same images, re-import
// of the edited PSD, unchanged re-import leaving every byte, and errors with their exit codes.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "mf/imaging/png.hpp"
#include "mf/offline/format/skeleton_format.hpp"
#include "support/run_command.hpp"
#include "support/temp_dir.hpp"

namespace mf::offline {
namespace {

namespace fs = std::filesystem;
using Result = mf::testing::CommandResult;
using mf::testing::read_text;

std::string quote(const std::string& s) { return mf::testing::shell_quote(s); }
Result mfe(const std::string& args) { return mf::testing::run_shell(quote(MF_MFE_PATH) + " " + args); }
std::string art(const std::string& file) { return quote(std::string(MF_TEST_DATA_DIR) + "/art/" + file); }

std::map<std::string, std::string> snapshot(const fs::path& folder) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(folder))
    if (e.is_regular_file()) files[fs::relative(e.path(), folder).string()] = read_text(e.path());
  return files;
}

class ArtImportCli : public ::testing::Test {
 protected:
  mf::testing::TempDir dir_{"mf_art_import_cli"};
  std::string arg(const std::string& relative) const { return quote(dir_.file(relative)); }
};

TEST_F(ArtImportCli, ImportsTheGimpPsdIntoARigThatChecksAndBuilds) {
  const Result r = mfe("skel import-psd " + art("hero.psd") + " --out " + arg("out"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "imported hero.psd as hero: 3 bones, 7 slots, 2 skins, 9 attachments, 10 images; 0 report "
                      "notes (report: " + dir_.file("out") + "/import-report.txt)\n");
  for (const char* f : {"out/hero.mskel", "out/import-report.txt", "out/images/Body/Torso.png", "out/images/Head_n.png",
                        "out/images/Hair.png", "out/images/red/Torso.png", "out/images/Body/Eyes/Closed.png"})
    EXPECT_TRUE(fs::is_regular_file(dir_.file(f))) << f;
  EXPECT_FALSE(fs::exists(dir_.file("out/images/Background.png")));  // [ignore]
  Expected<imaging::Image> torso = imaging::read_png(dir_.file("out/images/Body/Torso.png"));
  ASSERT_TRUE(torso.ok());
  EXPECT_EQ(torso->width, 24);  // trimmed from GIMP's layer to its pixels
  EXPECT_EQ(torso->height, 32);
  EXPECT_EQ(torso->pixel(0, 0)[0], 200);

  Expected<SkeletonSource> rig = read_skeleton_file(dir_.file("out/hero.mskel"));
  ASSERT_TRUE(rig.ok()) << rig.error().to_string();
  const Slot& head = rig->slots[static_cast<std::size_t>(rig->find_slot("Head"))];
  EXPECT_EQ(head.blend, BlendMode::Multiply);
  EXPECT_EQ(rig->slots[static_cast<std::size_t>(rig->find_slot("Glow"))].blend, BlendMode::Additive);
  EXPECT_EQ(rig->slots[static_cast<std::size_t>(rig->find_slot("Arm"))].color.a, 128);  // 50 % in GIMP
  EXPECT_EQ(rig->slots[static_cast<std::size_t>(rig->find_slot("Shadow"))].attachment, "");  // hidden

  const Result check = mfe("skel check " + arg("out/hero.mskel"));
  EXPECT_EQ(check.exit_code, 0) << check.output;
  EXPECT_NE(check.output.find("0 errors, 0 warnings"), std::string::npos) << check.output;
  const Result build = mf::testing::run_shell("MF_SKELETON_BAKE_CACHE_DIR=off " + quote(MF_MFE_PATH) + " skel build " +
                                              arg("out/hero.mskel") + " --out " + arg("hero.mbuild"));
  EXPECT_EQ(build.exit_code, 0) << build.output;
  EXPECT_TRUE(fs::is_regular_file(dir_.file("hero.mbuild")));
}

TEST_F(ArtImportCli, SixteenBitArtGivesTheSameImagesAsEightBit) {
  ASSERT_EQ(mfe("skel import-psd " + art("hero.psd") + " --out " + arg("a")).exit_code, 0);
  const Result r = mfe("skel import-psd " + art("hero16.psd") + " --out " + arg("b") + " --name hero");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto a = snapshot(dir_.path() / "a/images"), b = snapshot(dir_.path() / "b/images");
  EXPECT_EQ(a.size(), 10u);
  EXPECT_EQ(a, b);  // GIMP's 16-bit channels of 8-bit colours round back to the same bytes
}

TEST_F(ArtImportCli, ReimportingTheEditedPsdKeepsTheRigAndReportsWhatIsGone) {
  ASSERT_EQ(mfe("skel import-psd " + art("hero.psd") + " --out " + arg("out")).exit_code, 0);
  Expected<SkeletonSource> first = read_skeleton_file(dir_.file("out/hero.mskel"));
  ASSERT_TRUE(first.ok());
  // Unchanged art: no byte of any file changes.
  const auto files = snapshot(dir_.path() / "out");
  Result r = mfe("skel import-psd " + art("hero.psd") + " --out " + arg("out"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("re-imported hero.psd into hero: 0 images written, 0 layers moved, 0 new layers, 0 layers "
                          "missing from the art (kept); rig unchanged; 0 report notes"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(snapshot(dir_.path() / "out"), files);

  // The edited art (saved under a new name): torso moved by (3, -2), head repainted, a hat, no shadow.
  r = mfe("skel import-psd " + art("hero_edited.psd") + " --out " + arg("out") + " --name hero");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("re-imported hero_edited.psd (was hero.psd) into hero: 2 images written, 1 layer moved, 1 "
                          "new layer, 1 layer missing from the art (kept); rig updated; 1 report note"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(read_text(dir_.path() / "out/import-report.txt"),
            "Art import report: hero (hero_edited.psd)\nhero_edited.psd:Shadow: the layer is no longer in "
            "hero_edited.psd: image \"Shadow\" and the attachments showing it are kept\n");
  Expected<SkeletonSource> second = read_skeleton_file(dir_.file("out/hero.mskel"));
  ASSERT_TRUE(second.ok());
  EXPECT_GE(second->find_slot("Shadow"), 0);
  EXPECT_GE(second->find_slot("Hat"), 0);
  const auto region = [](const SkeletonSource& s, const char* name) {
    for (const Attachment& a : s.skins[0].attachments)
      if (a.name == name) return std::get<RegionAttachment>(a.data);
    return RegionAttachment{};
  };
  EXPECT_FLOAT_EQ(region(*second, "Torso").x, region(*first, "Torso").x + 3);
  EXPECT_FLOAT_EQ(region(*second, "Torso").y, region(*first, "Torso").y - 2);
  EXPECT_EQ(second->bones, first->bones);
  EXPECT_EQ(mfe("skel check " + arg("out/hero.mskel")).exit_code, 0);
  const auto edited = snapshot(dir_.path() / "out");
  r = mfe("skel import-psd " + art("hero_edited.psd") + " --out " + arg("out") + " --name hero");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(snapshot(dir_.path() / "out"), edited);
}

TEST_F(ArtImportCli, ImportsAFolderOfPngs) {
  imaging::Image a = imaging::Image::blank(40, 60), b = imaging::Image::blank(40, 60);
  for (int y = 10; y < 30; ++y)
    for (int x = 5; x < 15; ++x) a.pixel(x, y)[0] = 255, a.pixel(x, y)[3] = 255;
  for (int y = 40; y < 50; ++y)
    for (int x = 20; x < 35; ++x) b.pixel(x, y)[1] = 255, b.pixel(x, y)[3] = 255;
  fs::create_directories(dir_.path() / "parts/legs");
  ASSERT_TRUE(imaging::write_png(dir_.file("parts/1 arm [bone].png"), a));
  ASSERT_TRUE(imaging::write_png(dir_.file("parts/legs/foot.png"), b));
  const Result r = mfe("skel import-images " + arg("parts") + " --out " + arg("out"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("imported parts as parts: 3 bones, 2 slots, 1 skin, 2 attachments, 2 images; 0 report notes"),
            std::string::npos)
      << r.output;
  EXPECT_TRUE(fs::is_regular_file(dir_.file("out/images/legs/foot.png")));
  EXPECT_TRUE(fs::is_regular_file(dir_.file("out/images/1 arm.png")));
  EXPECT_EQ(mfe("skel check " + arg("out/parts.mskel")).exit_code, 0);
  const auto files = snapshot(dir_.path() / "out");
  ASSERT_EQ(mfe("skel import-images " + arg("parts") + " --out " + arg("out")).exit_code, 0);
  EXPECT_EQ(snapshot(dir_.path() / "out"), files);
}

TEST_F(ArtImportCli, ErrorsAndUsage) {
  dir_.write("not.psd", "this is not a PSD at all");
  Result r = mfe("skel import-psd " + arg("not.psd") + " --out " + arg("out"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("not.psd"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir_.path() / "out"));
  EXPECT_EQ(mfe("skel import-psd " + art("hero.psd")).exit_code, 2);                             // no --out
  EXPECT_EQ(mfe("skel import-psd " + arg("missing.psd") + " --out " + arg("out")).exit_code, 2);  // no such file
  fs::create_directories(dir_.path() / "empty");
  r = mfe("skel import-images " + arg("empty") + " --out " + arg("out"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("no PNG files"), std::string::npos) << r.output;
  // A rig that does not read is not imported into, and left as it is.
  dir_.write("out/hero.mskel", "{ broken");
  r = mfe("skel import-psd " + art("hero.psd") + " --out " + arg("out"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(read_text(dir_.path() / "out/hero.mskel"), "{ broken");
}

}  // namespace
}  // namespace mf::offline
