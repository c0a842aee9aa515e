// RigReloader on a copy of examples/mannequin: a settle delay of 0, so a change is rebuilt by the next
// apply_pending() (the watcher's own tests cover the delay); the bake cache in the test's folder.

#include "mf/live_reload/rig_reloader.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>

#include "live_reload/rig_copy.hpp"
#include "mf/scene/node.hpp"
#include "mf/scene/scene_tree.hpp"
#include "mf/skel/animated_skeleton.hpp"
#include "support/temp_dir.hpp"

namespace mf::live_reload {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using mf::testing::TempDir;
using test::edit;

// Local translations and rotations: the same build and times give the same floats; different keys
// differ by far more.
constexpr float kPoseTol = 1e-4f;

RigReloaderOptions options_in(const TempDir& temp) {
  RigReloaderOptions o;
  o.load.cache_dir = temp.file("cache");
  o.watcher.settle = 0ms;
  return o;
}

RigReloader open_rig(const std::string& mskel, const RigReloaderOptions& options) {
  Expected<RigReloader> r = RigReloader::open(mskel, options);
  if (!r) {
    ADD_FAILURE() << r.error().to_string();
    std::abort();
  }
  return std::move(r).value();
}

// The local y of `bone` after playing `clip` for `time` seconds on the data.
float bone_y_at(const skel::SkeletonData& data, const std::string& clip, const std::string& bone, float time) {
  skel::AnimatedSkeleton s(data);
  s.tracks().set_clip(0, data.find_clip(clip), true);
  s.update(time);
  return s.pose().y[static_cast<std::size_t>(data.find_bone(bone))];
}

std::string clip_file(const std::string& mskel, const std::string& clip) {
  return (fs::path(mskel).parent_path() / "mannequin.clips" / (clip + ".manim")).string();
}

bool mentions(const ReloadReport& r, const std::string& path) {
  return std::find(r.changed.begin(), r.changed.end(), normal_path(path)) != r.changed.end();
}

// The walk's hip bob, keyed 8 → 12 → 8 → 4 px; the edit lifts every key by 50 px.
constexpr const char* kHipKeys = "\"v\": [8, 12, 8, 4, 8, 12, 8, 4, 8]";
constexpr const char* kHipKeysLifted = "\"v\": [58, 62, 58, 54, 58, 62, 58, 54, 58]";

TEST(RigReloader, OpensTheRigWithItsGraphAndDependencies) {
  TempDir temp("mf_reload");
  const std::string mskel = test::copy_mannequin(temp);
  RigReloader r = open_rig(mskel, options_in(temp));
  EXPECT_EQ(r.generation(), 1u);
  ASSERT_NE(r.data(), nullptr);
  EXPECT_EQ(r.data()->clips.size(), 4u);
  for (std::size_t c = 0; c < r.data()->clips.size(); ++c) EXPECT_NE(r.data()->clip(static_cast<int>(c)), nullptr) << c;
  // locomotion.mgraph names mannequin.mskel: found beside it, compiled and bound.
  ASSERT_NE(r.current()->graph, nullptr);
  ASSERT_NE(r.current()->binding, nullptr);
  EXPECT_EQ(r.current()->graph_path, normal_path((fs::path(mskel).parent_path() / "locomotion.mgraph").string()));
  const RigDependencies& d = r.dependencies();
  EXPECT_EQ(d.mskel, normal_path(mskel));
  EXPECT_EQ(d.clips_folder, normal_path((fs::path(mskel).parent_path() / "mannequin.clips").string()));
  EXPECT_EQ(d.images_folder, normal_path((fs::path(mskel).parent_path() / "images").string()));
  EXPECT_EQ(r.apply_pending().outcome, ReloadOutcome::Unchanged);
}

TEST(RigReloader, RebuildsWhenAClipKeyChanges) {
  TempDir temp("mf_reload");
  const std::string mskel = test::copy_mannequin(temp);
  RigReloader r = open_rig(mskel, options_in(temp));
  const std::shared_ptr<const skel::SkeletonData> before = r.data();
  const float y_before = bone_y_at(*before, "walk", "hips", 0.25f);

  edit(clip_file(mskel, "walk"), kHipKeys, kHipKeysLifted);
  const ReloadReport report = r.apply_pending();
  ASSERT_EQ(report.outcome, ReloadOutcome::Reloaded) << (report.error ? report.error->to_string() : "");
  EXPECT_EQ(report.generation, 2u);
  EXPECT_EQ(r.generation(), 2u);
  EXPECT_TRUE(mentions(report, clip_file(mskel, "walk")));
  ASSERT_NE(r.data(), before);
  EXPECT_NEAR(bone_y_at(*r.data(), "walk", "hips", 0.25f), y_before + 50, kPoseTol);
  // The old data is untouched for whoever still holds it.
  EXPECT_NEAR(bone_y_at(*before, "walk", "hips", 0.25f), y_before, kPoseTol);
  EXPECT_EQ(r.apply_pending().outcome, ReloadOutcome::Unchanged);
}

TEST(RigReloader, RebuildsWhenAnEditorSavesByRename) {
  TempDir temp("mf_reload");
  const std::string mskel = test::copy_mannequin(temp);
  RigReloader r = open_rig(mskel, options_in(temp));
  const float y_before = bone_y_at(*r.data(), "walk", "hips", 0.25f);
  std::string text = test::read_text(clip_file(mskel, "walk"));
  text.replace(text.find(kHipKeys), std::string(kHipKeys).size(), kHipKeysLifted);
  test::save_by_rename(clip_file(mskel, "walk"), text);
  ASSERT_EQ(r.apply_pending().outcome, ReloadOutcome::Reloaded);
  EXPECT_NEAR(bone_y_at(*r.data(), "walk", "hips", 0.25f), y_before + 50, kPoseTol);
}

TEST(RigReloader, KeepsTheOldDataWhenAFileIsBrokenAndSaysWhere) {
  TempDir temp("mf_reload");
  const std::string mskel = test::copy_mannequin(temp);
  RigReloader r = open_rig(mskel, options_in(temp));
  const std::shared_ptr<const skel::SkeletonData> before = r.data();
  const std::string walk = clip_file(mskel, "walk");
  const int line = test::line_of(walk, "\"length\": 1,");
  ASSERT_GT(line, 0);

  edit(walk, "\"length\": 1,", "\"length\": \"one\",");
  ReloadReport report = r.apply_pending();
  ASSERT_EQ(report.outcome, ReloadOutcome::Failed);
  ASSERT_TRUE(report.error.has_value());
  EXPECT_EQ(normal_path(report.error->file), normal_path(walk));
  EXPECT_EQ(report.error->position.line, line) << report.error->to_string();
  EXPECT_GT(report.error->position.column, 0);
  EXPECT_EQ(report.generation, 1u);
  EXPECT_EQ(r.data(), before);
  ASSERT_TRUE(r.last_error().has_value());

  // Nothing else changed: no second attempt.
  EXPECT_EQ(r.apply_pending().outcome, ReloadOutcome::Unchanged);

  // Fixed (with a new key): the next save reloads.
  edit(walk, "\"length\": \"one\",", "\"length\": 1,");
  edit(walk, kHipKeys, kHipKeysLifted);
  report = r.apply_pending();
  ASSERT_EQ(report.outcome, ReloadOutcome::Reloaded) << (report.error ? report.error->to_string() : "");
  EXPECT_EQ(r.generation(), 2u);
  EXPECT_FALSE(r.last_error().has_value());
}

TEST(RigReloader, BrokenJsonReportsItsLine) {
  TempDir temp("mf_reload");
  const std::string mskel = test::copy_mannequin(temp);
  RigReloader r = open_rig(mskel, options_in(temp));
  const std::string idle = clip_file(mskel, "idle");
  const int line = test::line_of(idle, "\"fps\": 30,");
  ASSERT_GT(line, 0);
  edit(idle, "\"fps\": 30,", "\"fps\": 30,,");
  const ReloadReport report = r.apply_pending();
  ASSERT_EQ(report.outcome, ReloadOutcome::Failed);
  EXPECT_EQ(normal_path(report.error->file), normal_path(idle));
  EXPECT_EQ(report.error->position.line, line) << report.error->to_string();
  EXPECT_EQ(r.generation(), 1u);
}

TEST(RigReloader, AClipKeyingABoneTheRigLacksReportsItsLine) {
  TempDir temp("mf_reload");
  const std::string mskel = test::copy_mannequin(temp);
  RigReloader r = open_rig(mskel, options_in(temp));
  const std::string walk = clip_file(mskel, "walk");
  const int line = test::line_of(walk, "\"scarf_3\": {");
  ASSERT_GT(line, 0);
  edit(walk, "\"scarf_3\": {", "\"scarf_9\": {");
  const ReloadReport report = r.apply_pending();
  ASSERT_EQ(report.outcome, ReloadOutcome::Failed);
  EXPECT_EQ(normal_path(report.error->file), normal_path(walk));
  EXPECT_EQ(report.error->position.line, line) << report.error->to_string();
  EXPECT_NE(report.error->message.find("scarf_9"), std::string::npos) << report.error->to_string();
}

TEST(RigReloader, ABrokenMskelKeepsTheOldData) {
  TempDir temp("mf_reload");
  const std::string mskel = test::copy_mannequin(temp);
  RigReloader r = open_rig(mskel, options_in(temp));
  const int line = test::line_of(mskel, "{ \"name\": \"spine\", \"parent\": \"hips\"");
  ASSERT_GT(line, 0);
  edit(mskel, "{ \"name\": \"spine\", \"parent\": \"hips\"", "{ \"name\": \"spine\", \"parent\": \"hipz\"");
  const ReloadReport report = r.apply_pending();
  ASSERT_EQ(report.outcome, ReloadOutcome::Failed);
  EXPECT_EQ(normal_path(report.error->file), normal_path(mskel));
  EXPECT_EQ(report.error->position.line, line) << report.error->to_string();
  EXPECT_EQ(r.generation(), 1u);
}

TEST(RigReloader, NewAndDeletedClipFiles) {
  TempDir temp("mf_reload");
  const std::string mskel = test::copy_mannequin(temp);
  RigReloaderOptions o = options_in(temp);
  o.find_graph = false;  // the graph plays every clip: deleting one would break it
  RigReloader r = open_rig(mskel, o);

  fs::copy_file(clip_file(mskel, "idle"), clip_file(mskel, "wave"));
  ReloadReport report = r.apply_pending();
  ASSERT_EQ(report.outcome, ReloadOutcome::Reloaded) << (report.error ? report.error->to_string() : "");
  EXPECT_GE(r.data()->find_clip("wave"), 0);
  EXPECT_TRUE(mentions(report, clip_file(mskel, "wave")));

  fs::remove(clip_file(mskel, "jump"));
  report = r.apply_pending();
  ASSERT_EQ(report.outcome, ReloadOutcome::Reloaded);
  EXPECT_LT(r.data()->find_clip("jump"), 0);
  EXPECT_EQ(r.generation(), 3u);
}

TEST(RigReloader, ChangedImagesRebuild) {
  TempDir temp("mf_reload");
  const std::string mskel = test::copy_mannequin(temp);
  RigReloader r = open_rig(mskel, options_in(temp));
  const fs::path images = fs::path(mskel).parent_path() / "images";
  fs::copy_file(images / "head.png", images / "head_copy.png");
  const ReloadReport report = r.apply_pending();
  ASSERT_EQ(report.outcome, ReloadOutcome::Reloaded) << (report.error ? report.error->to_string() : "");
  EXPECT_TRUE(mentions(report, (images / "head_copy.png").string()));
}

TEST(RigReloader, FilesItDoesNotReadChangeNothing) {
  TempDir temp("mf_reload");
  const std::string mskel = test::copy_mannequin(temp);
  RigReloader r = open_rig(mskel, options_in(temp));
  const fs::path rig = fs::path(mskel).parent_path();
  test::write_text((rig / "locomotion-play.json").string(), "[]");
  test::write_text((rig / "notes.txt").string(), "todo");
  test::write_text((rig / "images" / "readme.txt").string(), "x");
  test::write_text((rig / "mannequin.clips" / "walk.manim.bak").string(), "x");
  EXPECT_EQ(r.apply_pending().outcome, ReloadOutcome::Unchanged);
  EXPECT_EQ(r.generation(), 1u);
}

// A node that calls apply_pending from inside the tick.
class ReloadingNode : public scene::Node {
 public:
  ReloadingNode(RigReloader& r, scene::SceneTree& tree) : Node("reloader"), reloader_(r), tree_(tree) {}
  std::vector<ReloadOutcome> outcomes;

 protected:
  void on_process(float) override { outcomes.push_back(reloader_.apply_pending(tree_).outcome); }

 private:
  RigReloader& reloader_;
  scene::SceneTree& tree_;
};

TEST(RigReloader, DefersWhileTheSceneTicks) {
  TempDir temp("mf_reload");
  const std::string mskel = test::copy_mannequin(temp);
  RigReloader r = open_rig(mskel, options_in(temp));
  scene::SceneTree tree;
  auto node = tree.root().make_child<ReloadingNode>(r, tree);
  ASSERT_TRUE(node.ok());
  const std::shared_ptr<const skel::SkeletonData> before = r.data();

  edit(clip_file(mskel, "walk"), kHipKeys, kHipKeysLifted);
  tree.advance(1.0f / 60);
  ASSERT_EQ((*node)->outcomes.size(), 1u);
  EXPECT_EQ((*node)->outcomes[0], ReloadOutcome::Deferred);
  EXPECT_EQ(r.data(), before);
  EXPECT_EQ(r.generation(), 1u);
  EXPECT_TRUE(r.pending());
  tree.advance(1.0f / 60);
  EXPECT_EQ((*node)->outcomes[1], ReloadOutcome::Deferred);

  // Between ticks it goes ahead.
  const ReloadReport report = r.apply_pending(tree);
  EXPECT_EQ(report.outcome, ReloadOutcome::Reloaded);
  EXPECT_TRUE(mentions(report, clip_file(mskel, "walk")));
  EXPECT_EQ(r.generation(), 2u);
  EXPECT_FALSE(r.pending());
}

TEST(RigReloader, RebuildsTheGraphAndReportsItsErrors) {
  TempDir temp("mf_reload");
  const std::string mskel = test::copy_mannequin(temp);
  RigReloader r = open_rig(mskel, options_in(temp));
  const std::string graph = (fs::path(mskel).parent_path() / "locomotion.mgraph").string();
  const std::shared_ptr<const anim::AnimationGraph> before = r.current()->graph;

  edit(graph, "\"duration\": 0.15", "\"duration\": 0.3");
  ReloadReport report = r.apply_pending();
  ASSERT_EQ(report.outcome, ReloadOutcome::Reloaded) << (report.error ? report.error->to_string() : "");
  ASSERT_NE(r.current()->graph, before);
  bool found = false;
  for (const anim::Transition& t : r.current()->graph->transitions) found = found || std::abs(t.duration - 0.3f) < 1e-6f;
  EXPECT_TRUE(found);

  // A state playing a clip the rig lacks: the graph's file and line.
  const int line = test::line_of(graph, "{ \"name\": \"breathe\", \"clip\": \"idle\" }");
  ASSERT_GT(line, 0);
  edit(graph, "{ \"name\": \"breathe\", \"clip\": \"idle\" }", "{ \"name\": \"breathe\", \"clip\": \"idel\" }");
  report = r.apply_pending();
  ASSERT_EQ(report.outcome, ReloadOutcome::Failed);
  EXPECT_EQ(normal_path(report.error->file), normal_path(graph));
  EXPECT_EQ(report.error->position.line, line) << report.error->to_string();
  EXPECT_EQ(r.generation(), 2u);

  // Deleting the clip the graph plays fails the same way, naming the graph.
  edit(graph, "\"clip\": \"idel\"", "\"clip\": \"idle\"");
  ASSERT_EQ(r.apply_pending().outcome, ReloadOutcome::Reloaded);
  fs::remove(clip_file(mskel, "jump"));
  report = r.apply_pending();
  ASSERT_EQ(report.outcome, ReloadOutcome::Failed);
  EXPECT_EQ(normal_path(report.error->file), normal_path(graph));
  EXPECT_GE(r.data()->find_clip("jump"), 0);
}

TEST(RigReloader, AHostWatcherFeedsManyRigs) {
  TempDir temp("mf_reload");
  const std::string mskel = test::copy_mannequin(temp);
  RigReloaderOptions o = options_in(temp);
  o.own_watcher = false;
  RigReloader r = open_rig(mskel, o);
  EXPECT_EQ(r.watcher(), nullptr);

  Expected<FileWatcher> w = FileWatcher::create({0ms, 1000ms});
  ASSERT_TRUE(w.ok());
  for (const std::string& f : r.dependencies().watch_folders()) ASSERT_TRUE(w->watch_folder(f).ok());
  edit(clip_file(mskel, "walk"), kHipKeys, kHipKeysLifted);
  EXPECT_EQ(r.apply_pending().outcome, ReloadOutcome::Unchanged);  // it reads no watcher itself
  EXPECT_TRUE(r.notice(w->poll()));
  EXPECT_EQ(r.apply_pending().outcome, ReloadOutcome::Reloaded);

  r.request_reload();
  EXPECT_EQ(r.apply_pending().outcome, ReloadOutcome::Reloaded);
  EXPECT_EQ(r.generation(), 3u);
}

TEST(RigReloader, OpenFailsOnABrokenRig) {
  TempDir temp("mf_reload");
  const std::string mskel = test::copy_mannequin(temp);
  edit(clip_file(mskel, "run"), "\"length\":", "\"lenght\":");
  Expected<RigReloader> r = RigReloader::open(mskel, options_in(temp));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(normal_path(r.error().file), normal_path(clip_file(mskel, "run")));
  EXPECT_GT(r.error().position.line, 0);
}

}  // namespace
}  // namespace mf::live_reload
