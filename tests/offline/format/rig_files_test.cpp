// Finding a rig's clips and images on disk, and reading clips against their rig.

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

#include "mf/offline/format/rig_files.hpp"

namespace mf::offline {
namespace {

namespace fs = std::filesystem;

std::string rig_path(const std::string& name) { return std::string(MF_TEST_DATA_DIR) + "/rigs/" + name; }

// A folder for one test, removed when it ends.
class TempDir : public testing::TempDir {
 public:
  TempDir() : testing::TempDir("mf_rig_files") {}
};

// The tiny rig copied into `dir`, so tests may add files beside it.
std::string copy_tiny(const TempDir& dir) {
  fs::copy(rig_path("tiny"), dir.file("tiny"), fs::copy_options::recursive);
  return dir.file("tiny/tiny.mskel");
}

TEST(RigFiles, ClipsFolderDefaultsToTheSkeletonNameDotClips) {
  const SkeletonSource s;
  EXPECT_EQ(clips_folder(s, "art/hero/hero.mskel"), "art/hero/hero.clips");
  EXPECT_EQ(clips_folder(s, "hero.mskel"), "hero.clips");
}

TEST(RigFiles, ClipsFolderFollowsTheSkeletonsClipsKey) {
  SkeletonSource s;
  s.clips = "anims/";
  EXPECT_EQ(clips_folder(s, "art/hero/hero.mskel"), "art/hero/anims/");
  s.clips = "../shared_clips";
  EXPECT_EQ(clips_folder(s, "art/hero/hero.mskel"), "art/shared_clips");
}

TEST(RigFiles, DiscoverClipsListsManimFilesSortedByName) {
  TempDir dir;
  dir.write("hero.clips/walk.manim", "{}");
  dir.write("hero.clips/idle.manim", "{}");
  dir.write("hero.clips/notes.txt", "not a clip");
  fs::create_directories(dir.file("hero.clips/folder.manim"));
  const auto clips = discover_clips(SkeletonSource{}, dir.file("hero.mskel"));
  ASSERT_TRUE(clips.ok()) << clips.error().to_string();
  ASSERT_EQ(clips->size(), 2u);
  EXPECT_EQ((*clips)[0].name, "idle");
  EXPECT_EQ((*clips)[0].path, dir.file("hero.clips/idle.manim"));
  EXPECT_EQ((*clips)[1].name, "walk");
}

TEST(RigFiles, DiscoverClipsNamesNestedClipsByTheirPath) {
  TempDir dir;
  dir.write("hero.clips/walk.manim", "{}");
  dir.write("hero.clips/emotes/angry.manim", "{}");
  dir.write("hero.clips/emotes/happy/big.manim", "{}");
  dir.write("hero.clips/emotes/readme.txt", "not a clip");
  const auto clips = discover_clips(SkeletonSource{}, dir.file("hero.mskel"));
  ASSERT_TRUE(clips.ok()) << clips.error().to_string();
  ASSERT_EQ(clips->size(), 3u);
  EXPECT_EQ((*clips)[0].name, "emotes/angry");
  EXPECT_EQ((*clips)[0].path, dir.file("hero.clips/emotes/angry.manim"));
  EXPECT_EQ((*clips)[1].name, "emotes/happy/big");
  EXPECT_EQ((*clips)[2].name, "walk");
}

TEST(RigFiles, DiscoverClipsUndoesTheEscapes) {
  TempDir dir;
  dir.write("hero.clips/what%3F.manim", "{}");
  dir.write("hero.clips/%2Ehidden/100%25.manim", "{}");
  const auto clips = discover_clips(SkeletonSource{}, dir.file("hero.mskel"));
  ASSERT_TRUE(clips.ok()) << clips.error().to_string();
  ASSERT_EQ(clips->size(), 2u);
  EXPECT_EQ((*clips)[0].name, ".hidden/100%");
  EXPECT_EQ((*clips)[1].name, "what?");
}

TEST(RigFiles, DiscoverClipsRefusesFileNamesTheRuleDoesNotWrite) {
  TempDir dir;
  dir.write("hero.clips/50%.manim", "{}");
  const auto clips = discover_clips(SkeletonSource{}, dir.file("hero.mskel"));
  ASSERT_FALSE(clips.ok());
  EXPECT_EQ(clips.error().file, dir.file("hero.clips/50%.manim"));
  EXPECT_NE(clips.error().message.find("%25"), std::string::npos) << clips.error().message;

  TempDir other;
  other.write("hero.clips/w%61lk.manim", "{}");  // "a" needs no escape: not canonical
  const auto walk = discover_clips(SkeletonSource{}, other.file("hero.mskel"));
  ASSERT_FALSE(walk.ok());
  EXPECT_NE(walk.error().message.find("walk.manim"), std::string::npos) << walk.error().message;
}

TEST(RigFiles, DiscoverClipsRefusesNamesThatDifferOnlyByCase) {
  TempDir dir;
  dir.write("hero.clips/Emotes/angry.manim", "{}");
  dir.write("hero.clips/emotes/sad.manim", "{}");
  const auto clips = discover_clips(SkeletonSource{}, dir.file("hero.mskel"));
  if (fs::exists(dir.file("hero.clips/EMOTES")))
    GTEST_SKIP() << "this file system ignores case: the two folders are one";
  ASSERT_FALSE(clips.ok());
  EXPECT_NE(clips.error().message.find("differ only by case"), std::string::npos) << clips.error().message;
  EXPECT_NE(clips.error().message.find("Emotes/angry"), std::string::npos) << clips.error().message;
}

TEST(RigFiles, DiscoverClipsWithoutAFolderGivesNone) {
  TempDir dir;
  const auto clips = discover_clips(SkeletonSource{}, dir.file("hero.mskel"));
  ASSERT_TRUE(clips.ok());
  EXPECT_TRUE(clips->empty());
}

TEST(RigFiles, LoadRigReadsTheSkeletonAndListsItsClips) {
  auto rig = load_rig(rig_path("tiny/tiny.mskel"));
  ASSERT_TRUE(rig.ok()) << rig.error().to_string();
  EXPECT_EQ(rig->path, rig_path("tiny/tiny.mskel"));
  EXPECT_EQ(rig->skeleton.uid, "skl_7d1c40e2a9b3");
  EXPECT_EQ(rig->skeleton.bones.size(), 6u);
  ASSERT_EQ(rig->clips.size(), 2u);
  EXPECT_EQ(rig->clips[0].name, "idle");
  EXPECT_EQ(rig->clips[1].name, "wave");
}

TEST(RigFiles, LoadRigReportsReaderErrorsWithFileAndLine) {
  TempDir dir;
  const std::string mskel = copy_tiny(dir);
  std::ifstream in(mskel);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string uid = "\"skl_7d1c40e2a9b3\"";
  ASSERT_NE(text.find(uid), std::string::npos);
  dir.write("tiny/tiny.mskel", text.replace(text.find(uid), uid.size(), "7"));
  auto rig = load_rig(mskel);
  ASSERT_FALSE(rig.ok());
  EXPECT_EQ(rig.error().file, mskel);
  EXPECT_EQ(rig.error().path, "uid");
  EXPECT_EQ(rig.error().position.line, 3);
}

TEST(RigFiles, LoadRigOfAMissingFileNamesIt) {
  auto rig = load_rig(rig_path("no_such_rig.mskel"));
  ASSERT_FALSE(rig.ok());
  EXPECT_NE(rig.error().to_string().find("no_such_rig.mskel"), std::string::npos);
}

TEST(RigFiles, LoadClipReadsTheClipAgainstTheSkeleton) {
  auto rig = load_rig(rig_path("tiny/tiny.mskel"));
  ASSERT_TRUE(rig.ok()) << rig.error().to_string();
  auto clip = load_clip(*rig, "wave");
  ASSERT_TRUE(clip.ok()) << clip.error().to_string();
  EXPECT_EQ(clip->uid, "anm_0a1b2c3d4e5f");
  EXPECT_FLOAT_EQ(clip->length, 1.0f);
  ASSERT_EQ(clip->curves.size(), 2u);
  EXPECT_EQ(clip->curves[0].target, "arm_l");
  EXPECT_EQ(clip->curves[0].kind, CurveKind::Rotate);
  EXPECT_EQ(clip->curves[1].target, "hip");
  EXPECT_EQ(clip->curves[1].kind, CurveKind::Translate);
}

TEST(RigFiles, LoadClipWithAnUnknownNameListsTheClips) {
  auto rig = load_rig(rig_path("tiny/tiny.mskel"));
  ASSERT_TRUE(rig.ok()) << rig.error().to_string();
  auto clip = load_clip(*rig, "dance");
  ASSERT_FALSE(clip.ok());
  const std::string message = clip.error().to_string();
  EXPECT_NE(message.find("\"dance\""), std::string::npos) << message;
  EXPECT_NE(message.find("idle, wave"), std::string::npos) << message;
}

TEST(RigFiles, LoadClipRejectsNamesTheSkeletonLacks) {
  TempDir dir;
  const std::string mskel = copy_tiny(dir);
  dir.write("tiny/tiny.clips/tail.manim",
            "{\n  \"format\": 1,\n  \"uid\": \"anm_000000000001\",\n  \"type\": \"SkeletonClip\",\n"
            "  \"skeleton\": { \"uid\": \"skl_7d1c40e2a9b3\", \"path\": \"\" },\n  \"length\": 1,\n"
            "  \"bones\": { \"tail\": { \"rotate\": { \"t\": [0], \"v\": [0] } } }\n}\n");
  auto rig = load_rig(mskel);
  ASSERT_TRUE(rig.ok()) << rig.error().to_string();
  auto clip = load_clip(*rig, "tail");
  ASSERT_FALSE(clip.ok());
  EXPECT_EQ(clip.error().file, dir.file("tiny/tiny.clips/tail.manim"));
  EXPECT_EQ(clip.error().path, "bones.tail");
  EXPECT_EQ(clip.error().position.line, 7);
}

TEST(RigFiles, LoadClipRejectsAClipOfAnotherSkeleton) {
  TempDir dir;
  const std::string mskel = copy_tiny(dir);
  dir.write("tiny/tiny.clips/foreign.manim",
            "{\n  \"format\": 1,\n  \"uid\": \"anm_000000000002\",\n  \"type\": \"SkeletonClip\",\n"
            "  \"skeleton\": { \"uid\": \"skl_ffffffffffff\", \"path\": \"\" },\n  \"length\": 1\n}\n");
  auto rig = load_rig(mskel);
  ASSERT_TRUE(rig.ok()) << rig.error().to_string();
  auto clip = load_clip(*rig, "foreign");
  ASSERT_FALSE(clip.ok());
  EXPECT_EQ(clip.error().file, dir.file("tiny/tiny.clips/foreign.manim"));
  EXPECT_EQ(clip.error().path, "skeleton.uid");
  EXPECT_EQ(clip.error().position.line, 5);
  EXPECT_EQ(clip.error().position.column, 24);
  EXPECT_NE(clip.error().message.find("skl_ffffffffffff"), std::string::npos);
  EXPECT_NE(clip.error().message.find("skl_7d1c40e2a9b3"), std::string::npos);
}

TEST(RigFiles, TheModelsCarryThePositionsOfTheirFiles) {
  auto rig = load_rig(rig_path("tiny/tiny.mskel"));
  ASSERT_TRUE(rig.ok()) << rig.error().to_string();
  const json::SourceMap& skeleton = rig->skeleton.positions;
  ASSERT_FALSE(skeleton.empty());
  EXPECT_EQ(skeleton.position("uid").line, 3);
  EXPECT_EQ(skeleton.position("uid").column, 10);
  EXPECT_EQ(skeleton.position("bones[1].parent").line, 18);
  EXPECT_EQ(skeleton.position("bones[1].parent").column, 32);
  EXPECT_FALSE(skeleton.position("bones[99]").known());

  auto clip = load_clip(*rig, "wave");
  ASSERT_TRUE(clip.ok()) << clip.error().to_string();
  EXPECT_TRUE(clip->positions.find("skeleton.uid") != nullptr);
  EXPECT_TRUE(clip->positions.position("skeleton.uid").known());

  // Positions are not part of the model's value.
  SkeletonSource copy = rig->skeleton;
  copy.positions = {};
  EXPECT_TRUE(copy == rig->skeleton);
}

TEST(RigFiles, ImagesFolderIsImportImagesBesideTheMskel) {
  auto tiny = load_rig(rig_path("tiny/tiny.mskel"));
  ASSERT_TRUE(tiny.ok()) << tiny.error().to_string();
  EXPECT_EQ(images_folder(*tiny), rig_path("tiny/images/"));
  auto broken = load_rig(rig_path("broken/images.mskel"));
  ASSERT_TRUE(broken.ok()) << broken.error().to_string();
  EXPECT_EQ(images_folder(*broken), rig_path("tiny/images/"));  // "../tiny/images/", normalised
  EXPECT_TRUE(fs::exists(images_folder(*broken) + "/body.png"));
}

}  // namespace
}  // namespace mf::offline
