// Runs `mfe skel clip new | duplicate | rename | delete` as a user would, on a copy of the example
// mannequin (its four clips and locomotion.mgraph) in a temporary folder: each command's success, its
// refusals with their exit codes and messages, clip files that stay byte-identical when not touched,
// and the graphs beside the rig, updated through the graph writer only with --update-graphs.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/format/rig_files.hpp"
#include "mf/offline/format/uid.hpp"
#include "mf/offline/graph/graph_clip_refs.hpp"
#include "mf/offline/graph/graph_format.hpp"
#include "support/run_command.hpp"
#include "support/temp_dir.hpp"

namespace mf::offline {
namespace {

namespace fs = std::filesystem;
using Result = mf::testing::CommandResult;
using mf::testing::read_text;

std::string quote(const std::string& s) { return mf::testing::shell_quote(s); }
Result mfe(const std::string& args) { return mf::testing::run_shell(quote(MF_MFE_PATH) + " " + args); }

// Every file under a folder with its bytes, by path relative to it.
std::map<std::string, std::string> snapshot(const fs::path& root) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file()) out[fs::relative(e.path(), root).generic_string()] = read_text(e.path());
  return out;
}

class MfeClipCli : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::copy(std::string(MF_EXAMPLES_DIR) + "/mannequin", dir_.path(), fs::copy_options::recursive);
  }
  std::string path(const std::string& relative) const { return dir_.file(relative); }
  std::string rig() const { return quote(path("mannequin.mskel")); }
  std::string clip_file(const std::string& stem) const { return path("mannequin.clips/" + stem + ".manim"); }
  std::map<std::string, std::string> before() const { return snapshot(dir_.path()); }
  // Every file as it was, except those named.
  void expect_unchanged_but(const std::map<std::string, std::string>& was, std::initializer_list<std::string> changed) {
    std::map<std::string, std::string> now = snapshot(dir_.path()), expected = was;
    for (const std::string& c : changed) {
      now.erase(c);
      expected.erase(c);
    }
    EXPECT_EQ(now, expected);
  }

  mf::testing::TempDir dir_{"mf_clip_cli"};
};

ClipSource read_ok(const std::string& file) {
  auto clip = read_clip_file(file);
  EXPECT_TRUE(clip.ok()) << clip.error().to_string();
  return clip.ok() ? *clip : ClipSource{};
}

// ---- new ----------------------------------------------------------------------------------------

TEST_F(MfeClipCli, NewWritesAnEmptyCanonicalClipOfTheRig) {
  const auto was = before();
  const Result r = mfe("skel clip new " + rig() + " wave --length 1.5 --loop");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("created clip \"wave\": " + clip_file("wave")), std::string::npos) << r.output;
  const ClipSource clip = read_ok(clip_file("wave"));
  EXPECT_TRUE(is_valid_uid(clip.uid, kClipUidPrefix)) << clip.uid;
  EXPECT_EQ(clip.skeleton_uid, "skl_5e1a7c93b20d");
  EXPECT_EQ(clip.skeleton_path, "mannequin.mskel");
  EXPECT_EQ(clip.length, 1.5f);
  EXPECT_EQ(clip.fps, 30);  // the rig's
  EXPECT_EQ(clip.loop, LoopMode::Linear);
  EXPECT_TRUE(clip.curves.empty() && clip.events.empty());
  EXPECT_EQ(write_clip(clip), read_text(clip_file("wave")));  // canonical
  expect_unchanged_but(was, {"mannequin.clips/wave.manim"});

  // The rig finds it by name; nested names make their folders; --fps and the loop modes.
  ASSERT_EQ(mfe("skel clip new " + rig() + " emotes/nod --length 0.5 --fps 24").exit_code, 0);
  ASSERT_EQ(mfe("skel clip new " + rig() + " swing --length 2 --pingpong").exit_code, 0);
  const ClipSource nod = read_ok(clip_file("emotes/nod"));
  EXPECT_EQ(nod.fps, 24);
  EXPECT_EQ(nod.loop, LoopMode::None);
  EXPECT_EQ(read_ok(clip_file("swing")).loop, LoopMode::PingPong);
  EXPECT_NE(clip.uid, nod.uid);
  auto loaded = load_rig(path("mannequin.mskel"));
  ASSERT_TRUE(loaded.ok());
  EXPECT_TRUE(load_clip(*loaded, "emotes/nod").ok());
  EXPECT_EQ(mfe("skel check " + rig()).exit_code, 0);
}

TEST_F(MfeClipCli, NewRefusesTakenClashingAndFileLikeNames) {
  const auto was = before();
  const Result taken = mfe("skel clip new " + rig() + " walk --length 1");
  EXPECT_EQ(taken.exit_code, 1) << taken.output;
  EXPECT_NE(taken.output.find("there is already a clip named \"walk\""), std::string::npos) << taken.output;
  const Result clash = mfe("skel clip new " + rig() + " Walk --length 1");
  EXPECT_EQ(clash.exit_code, 1) << clash.output;
  EXPECT_NE(clash.output.find("clip \"Walk\" would clash with clip \"walk\""), std::string::npos) << clash.output;
  const Result suffix = mfe("skel clip new " + rig() + " wave.manim --length 1");
  EXPECT_EQ(suffix.exit_code, 1) << suffix.output;
  EXPECT_NE(suffix.output.find("pass \"wave\""), std::string::npos) << suffix.output;
  const Result empty = mfe("skel clip new " + rig() + " '' --length 1");
  EXPECT_EQ(empty.exit_code, 1) << empty.output;
  EXPECT_NE(empty.output.find("must not be empty"), std::string::npos) << empty.output;
  EXPECT_EQ(mfe("skel clip new " + rig() + " wave --length -1").exit_code, 2);
  EXPECT_EQ(mfe("skel clip new " + rig() + " wave").exit_code, 2);  // --length is required
  EXPECT_EQ(mfe("skel clip new " + rig() + " wave --length 1 --loop --pingpong").exit_code, 2);
  expect_unchanged_but(was, {});
}

// A name with bytes a file system refuses is escaped in its file name, and found back by name.
TEST_F(MfeClipCli, NewEscapesTheFileNameOfAnyName) {
  ASSERT_EQ(mfe("skel clip new " + rig() + " 'what?' --length 1").exit_code, 0);
  EXPECT_TRUE(fs::exists(clip_file("what%3F")));
  const Result key = mfe("skel key " + rig() + " --clip 'what?' --bone chest --timeline rotate --t 0 --v 5");
  EXPECT_EQ(key.exit_code, 0) << key.output;
}

// ---- duplicate ----------------------------------------------------------------------------------

TEST_F(MfeClipCli, DuplicateCopiesTheKeysWithANewUid) {
  const auto was = before();
  const Result r = mfe("skel clip duplicate " + rig() + " walk walk_fast");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ClipSource copy = read_ok(clip_file("walk_fast"));
  const ClipSource original = read_ok(clip_file("walk"));
  EXPECT_NE(copy.uid, original.uid);
  EXPECT_TRUE(is_valid_uid(copy.uid, kClipUidPrefix));
  copy.uid = original.uid;
  EXPECT_EQ(copy, original);
  expect_unchanged_but(was, {"mannequin.clips/walk_fast.manim"});

  const Result missing = mfe("skel clip duplicate " + rig() + " stroll x");
  EXPECT_EQ(missing.exit_code, 1) << missing.output;
  EXPECT_NE(missing.output.find("no clip named \"stroll\"; the clips are: idle, jump, run, walk, walk_fast"),
            std::string::npos)
      << missing.output;
  EXPECT_EQ(mfe("skel clip duplicate " + rig() + " walk run").exit_code, 1);
}

// ---- rename -------------------------------------------------------------------------------------

TEST_F(MfeClipCli, RenameMovesTheFileAsItIs) {
  ASSERT_EQ(mfe("skel clip new " + rig() + " emotes/nod --length 1").exit_code, 0);
  const std::string bytes = read_text(clip_file("emotes/nod"));
  const auto was = before();
  const Result r = mfe("skel clip rename " + rig() + " emotes/nod nod");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("renamed clip \"emotes/nod\" to \"nod\""), std::string::npos) << r.output;
  EXPECT_EQ(read_text(clip_file("nod")), bytes);
  EXPECT_FALSE(fs::exists(path("mannequin.clips/emotes")));  // the folder it left empty
  expect_unchanged_but(was, {"mannequin.clips/nod.manim", "mannequin.clips/emotes/nod.manim"});

  // Only the case of its letters.
  ASSERT_EQ(mfe("skel clip rename " + rig() + " nod Nod").exit_code, 0);
  EXPECT_EQ(read_text(clip_file("Nod")), bytes);

  EXPECT_EQ(mfe("skel clip rename " + rig() + " Nod idle").exit_code, 1);     // taken
  EXPECT_EQ(mfe("skel clip rename " + rig() + " nothing x").exit_code, 1);    // unknown
  EXPECT_EQ(mfe("skel clip rename " + rig() + " Nod Nod").exit_code, 1);      // same name
  EXPECT_EQ(read_text(clip_file("Nod")), bytes);
}

TEST_F(MfeClipCli, RenameOfAClipAGraphPlaysNeedsUpdateGraphs) {
  const auto was = before();
  const Result refused = mfe("skel clip rename " + rig() + " walk stroll");
  EXPECT_EQ(refused.exit_code, 1) << refused.output;
  EXPECT_NE(refused.output.find("clip \"walk\" is used by " + path("locomotion.mgraph") + ":22:17 (member 1 of blend1d "
                                "state \"locomotion\" of layer \"base\"); pass --update-graphs to rename it there too"),
            std::string::npos)
      << refused.output;
  expect_unchanged_but(was, {});

  // idle is a blend member and the breathing layer's only state.
  const Result r = mfe("skel clip rename " + rig() + " idle rest --update-graphs");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("updated " + path("locomotion.mgraph") + ": 2 uses renamed"), std::string::npos) << r.output;
  EXPECT_EQ(read_text(clip_file("rest")), was.at("mannequin.clips/idle.manim"));
  const std::string text = read_text(path("locomotion.mgraph"));
  auto graph = read_graph(text, "locomotion.mgraph");
  ASSERT_TRUE(graph.ok()) << graph.error().to_string();
  EXPECT_EQ(write_graph(*graph), text);  // written canonically
  EXPECT_TRUE(find_clip_refs(*graph, "idle").empty());
  EXPECT_EQ(find_clip_refs(*graph, "rest").size(), 2u);
  // Nothing else in the graph changed.
  std::string old_text = was.at("locomotion.mgraph");
  for (std::size_t at; (at = old_text.find("\"clip\": \"idle\"")) != std::string::npos;)
    old_text.replace(at, 14, "\"clip\": \"rest\"");
  EXPECT_EQ(text, old_text);
  expect_unchanged_but(was, {"mannequin.clips/idle.manim", "mannequin.clips/rest.manim", "locomotion.mgraph"});
  const Result check = mfe("skel graph check " + quote(path("locomotion.mgraph")));
  EXPECT_EQ(check.exit_code, 0) << check.output;
}

// A graph made for another skeleton is not this rig's business.
TEST_F(MfeClipCli, GraphsOfOtherRigsAreLeftAlone) {
  std::string other = read_text(path("locomotion.mgraph"));
  other.replace(other.find("skl_5e1a7c93b20d"), 16, "skl_000000000000");
  std::ofstream(path("other.mgraph"), std::ios::binary) << other;
  const Result refused = mfe("skel clip rename " + rig() + " run sprint");
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(refused.output.find("other.mgraph"), std::string::npos) << refused.output;
  ASSERT_EQ(mfe("skel clip rename " + rig() + " run sprint --update-graphs").exit_code, 0);
  EXPECT_EQ(read_text(path("other.mgraph")), other);
}

// ---- delete -------------------------------------------------------------------------------------

TEST_F(MfeClipCli, DeleteRefusesAClipWithKeysWithoutForce) {
  ASSERT_EQ(mfe("skel clip new " + rig() + " emotes/empty --length 1").exit_code, 0);
  const auto was = before();
  const Result empty = mfe("skel clip delete " + rig() + " emotes/empty");
  ASSERT_EQ(empty.exit_code, 0) << empty.output;
  EXPECT_FALSE(fs::exists(path("mannequin.clips/emotes")));
  expect_unchanged_but(was, {"mannequin.clips/emotes/empty.manim"});

  ASSERT_EQ(mfe("skel clip duplicate " + rig() + " walk walk2").exit_code, 0);
  const Result keyed = mfe("skel clip delete " + rig() + " walk2");
  EXPECT_EQ(keyed.exit_code, 1) << keyed.output;
  EXPECT_NE(keyed.output.find("keys; pass --force to delete it with its keys"), std::string::npos) << keyed.output;
  EXPECT_TRUE(fs::exists(clip_file("walk2")));
  const Result forced = mfe("skel clip delete " + rig() + " walk2 --force");
  ASSERT_EQ(forced.exit_code, 0) << forced.output;
  EXPECT_FALSE(fs::exists(clip_file("walk2")));
  expect_unchanged_but(was, {"mannequin.clips/emotes/empty.manim"});
}

TEST_F(MfeClipCli, DeleteOfAClipAGraphPlays) {
  const auto was = before();
  // walk is one member of a 1D blend space: --update-graphs removes that member.
  const Result refused = mfe("skel clip delete " + rig() + " walk --force");
  EXPECT_EQ(refused.exit_code, 1) << refused.output;
  EXPECT_NE(refused.output.find("pass --update-graphs to remove those blend-space members"), std::string::npos)
      << refused.output;
  // jump is a clip state's clip: refused even with --update-graphs.
  const Result state = mfe("skel clip delete " + rig() + " jump --force --update-graphs");
  EXPECT_EQ(state.exit_code, 1) << state.output;
  EXPECT_NE(state.output.find("state \"jump\" of layer \"base\" plays clip \"jump\" and would be left without a clip; "
                              "clip \"jump\" cannot be deleted, not even with --update-graphs"),
            std::string::npos)
      << state.output;
  expect_unchanged_but(was, {});

  const Result r = mfe("skel clip delete " + rig() + " walk --force --update-graphs");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("1 blend member removed"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(clip_file("walk")));
  auto graph = read_graph_file(path("locomotion.mgraph"));
  ASSERT_TRUE(graph.ok());
  EXPECT_TRUE(find_clip_refs(*graph, "walk").empty());
  EXPECT_EQ(find_clip_refs(*graph, "run").size(), 1u);
  EXPECT_EQ(mfe("skel graph check " + quote(path("locomotion.mgraph"))).exit_code, 0);
  expect_unchanged_but(was, {"mannequin.clips/walk.manim", "locomotion.mgraph"});
}

TEST_F(MfeClipCli, UsageErrors) {
  const auto was = before();
  EXPECT_EQ(mfe("skel clip").exit_code, 2);
  EXPECT_EQ(mfe("skel clip move " + rig() + " a b").exit_code, 2);
  EXPECT_EQ(mfe("skel clip rename " + rig() + " walk").exit_code, 2);
  EXPECT_EQ(mfe("skel clip delete " + quote(path("nothing.mskel")) + " walk").exit_code, 2);
  expect_unchanged_but(was, {});
}

}  // namespace
}  // namespace mf::offline
