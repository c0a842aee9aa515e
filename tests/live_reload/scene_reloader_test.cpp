// SceneReloader: rigs edited on disk reach the skeleton nodes of a running tree between ticks, keeping
// their playback; a broken file keeps the old build; nothing reloads in the middle of a tick. Copies of
// examples/mannequin, a settle delay of 0 (a change is rebuilt by the next apply_pending()).

#include "mf/live_reload/scene_reloader.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>

#include "live_reload/rig_copy.hpp"
#include "mf/scene/scene_tree.hpp"
#include "mf/scene/skeleton/skeleton_2d.hpp"
#include "mf/skel/animated_skeleton.hpp"
#include "support/temp_dir.hpp"

namespace mf::live_reload {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using mf::testing::TempDir;
using test::edit;

// Same data, same times: the same floats up to summation order; the edit moves the hip by 50 px.
constexpr float kPoseTol = 1e-3f;
constexpr float kTimeTol = 1e-5f;
constexpr float kDt = 1.0f / 60;

// The walk's hip bob, keyed 8 → 12 → 8 → 4 px; the edit lifts every key by 50 px.
constexpr const char* kHipKeys = "\"v\": [8, 12, 8, 4, 8, 12, 8, 4, 8]";
constexpr const char* kHipKeysLifted = "\"v\": [58, 62, 58, 54, 58, 62, 58, 54, 58]";

RigReloaderOptions options_in(const TempDir& temp, bool graph = true) {
  RigReloaderOptions o;
  o.load.cache_dir = temp.file("cache");
  o.find_graph = graph;
  return o;
}

SceneReloader make_reloader(scene::SceneTree& tree) {
  FileWatcherOptions w;
  w.settle = 0ms;
  Expected<SceneReloader> r = SceneReloader::create(tree, w);
  if (!r) {
    ADD_FAILURE() << r.error().to_string();
    std::abort();
  }
  return std::move(r).value();
}

std::shared_ptr<const RigGeneration> open_rig(SceneReloader& reloads, const std::string& mskel, const RigReloaderOptions& o) {
  auto r = reloads.open(mskel, o);
  if (!r) {
    ADD_FAILURE() << r.error().to_string();
    std::abort();
  }
  return *r;
}

std::string clip_file(const std::string& mskel, const std::string& clip) {
  return (fs::path(mskel).parent_path() / "mannequin.clips" / (clip + ".manim")).string();
}

float bone_y(const scene::Skeleton2D& node, const std::string& bone) {
  return node.pose()->y[static_cast<std::size_t>(node.find_bone(bone))];
}

// What a skeleton that played `clip` on `data` from the start shows after `time`.
float reference_bone_y(const skel::SkeletonData& data, const std::string& clip, const std::string& bone, float time) {
  skel::AnimatedSkeleton s(data);
  s.tracks().set_clip(0, data.find_clip(clip), true);
  s.update(time);
  return s.pose().y[static_cast<std::size_t>(data.find_bone(bone))];
}

// Ticks the tree `frames` times and returns the walk's track time.
float play(scene::SceneTree& tree, scene::Skeleton2D& node, int frames) {
  for (int i = 0; i < frames; ++i) tree.advance(kDt);
  return node.tracks()->entry(node.tracks()->current(0))->track_time();
}

TEST(SceneReloader, AClipEditedOnDiskReachesTheNodeKeepingItsTrackTimeAndQueue) {
  TempDir temp("mf_scene_reload");
  const std::string mskel = test::copy_mannequin(temp);
  scene::SceneTree tree;
  SceneReloader reloads = make_reloader(tree);
  auto rig = open_rig(reloads, mskel, options_in(temp, false));
  auto* hero = tree.root().make_child<scene::Skeleton2D>("hero").value();
  ASSERT_TRUE(hero->set_data(rig->data));
  ASSERT_TRUE(hero->set_clip("walk"));
  anim::AnimationTracks& tracks = *hero->tracks();
  const anim::TrackEntryHandle queued = tracks.add_clip(0, rig->data->find_clip("run"), true, 5.0f);
  ASSERT_FALSE(queued.is_null());
  const float before = play(tree, *hero, 18);
  const float hip_before = bone_y(*hero, "hips");

  edit(clip_file(mskel, "walk"), kHipKeys, kHipKeysLifted);
  const SceneReloadReport report = reloads.apply_pending();
  ASSERT_FALSE(report.deferred);
  ASSERT_EQ(report.rigs.size(), 1u);
  const RigReload& r = report.rigs[0];
  ASSERT_EQ(r.outcome, ReloadOutcome::Reloaded) << (r.error ? r.error->to_string() : "");
  EXPECT_EQ(r.generation, 2u);
  ASSERT_EQ(r.moved.size(), 1u);
  EXPECT_EQ(r.moved[0].node, "/root/hero");
  EXPECT_TRUE(r.node_errors.empty());

  // The node shows the new build, posed at once where it was in the walk.
  const auto next = reloads.current(mskel);
  ASSERT_EQ(hero->data(), next->data);
  anim::AnimationTracks& after = *hero->tracks();
  const anim::TrackEntry* current = after.entry(after.current(0));
  ASSERT_NE(current, nullptr);
  EXPECT_EQ(current->clip(), next->data->find_clip("walk"));
  EXPECT_NEAR(current->track_time(), before, kTimeTol);
  EXPECT_NEAR(bone_y(*hero, "hips"), hip_before + 50, kPoseTol);
  EXPECT_NEAR(bone_y(*hero, "hips"), reference_bone_y(*next->data, "walk", "hips", before), kPoseTol);
  // The queued run is still queued after the walk (its handle followed through the carry report).
  const anim::TrackEntryHandle moved_queued = r.moved[0].carried.handle(queued);
  ASSERT_FALSE(moved_queued.is_null());
  ASSERT_NE(after.entry(moved_queued), nullptr);
  EXPECT_EQ(after.entry(moved_queued)->clip(), next->data->find_clip("run"));
  EXPECT_EQ(after.queued_after(after.current(0)), moved_queued);

  // It plays on: ten more frames match a skeleton that played the new data from the start.
  const float later = play(tree, *hero, 10);
  EXPECT_NEAR(later, before + 10 * kDt, kTimeTol * 10);
  EXPECT_NEAR(bone_y(*hero, "hips"), reference_bone_y(*next->data, "walk", "hips", later), kPoseTol);
}

TEST(SceneReloader, AGraphNodeKeepsItsParametersAndStateAndTakesTheNewGraph) {
  TempDir temp("mf_scene_reload");
  const std::string mskel = test::copy_mannequin(temp);
  scene::SceneTree tree;
  SceneReloader reloads = make_reloader(tree);
  auto rig = open_rig(reloads, mskel, options_in(temp));
  ASSERT_NE(rig->graph, nullptr);
  auto* hero = tree.root().make_child<scene::Skeleton2D>("hero").value();
  ASSERT_TRUE(hero->set_data(rig->data));
  ASSERT_TRUE(hero->set_graph(rig->graph));
  ASSERT_TRUE(hero->graph_player()->set_param("speed", 2.0f));
  for (int i = 0; i < 20; ++i) tree.advance(kDt);
  const float normalized = hero->graph_player()->normalized_time(0);

  edit(clip_file(mskel, "walk"), kHipKeys, kHipKeysLifted);
  const SceneReloadReport report = reloads.apply_pending();
  ASSERT_EQ(report.rigs.size(), 1u);
  ASSERT_EQ(report.rigs[0].outcome, ReloadOutcome::Reloaded);
  ASSERT_EQ(report.rigs[0].moved.size(), 1u);
  const auto next = reloads.current(mskel);
  EXPECT_EQ(hero->data(), next->data);
  EXPECT_EQ(hero->graph(), next->graph);  // the build's graph moves with it
  anim::AnimationGraphPlayer* player = hero->graph_player();
  ASSERT_NE(player, nullptr);
  EXPECT_FLOAT_EQ(player->get_float(player->find_param("speed")), 2.0f);
  const int state = player->current_state(0);
  ASSERT_GE(state, 0);
  EXPECT_EQ(next->graph->states[static_cast<std::size_t>(state)].name, "locomotion");
  EXPECT_NEAR(player->normalized_time(0), normalized, kTimeTol);
}

TEST(SceneReloader, ABrokenFileKeepsTheOldBuildAndNamesItsPlace) {
  TempDir temp("mf_scene_reload");
  const std::string mskel = test::copy_mannequin(temp);
  scene::SceneTree tree;
  SceneReloader reloads = make_reloader(tree);
  auto rig = open_rig(reloads, mskel, options_in(temp, false));
  auto* hero = tree.root().make_child<scene::Skeleton2D>("hero").value();
  ASSERT_TRUE(hero->set_data(rig->data));
  ASSERT_TRUE(hero->set_clip("walk"));
  const float before = play(tree, *hero, 12);

  const std::string walk = clip_file(mskel, "walk");
  const std::string good = test::read_text(walk);
  edit(walk, "\"length\": 1", "\"length\": \"long\"");
  const int line = test::line_of(walk, "\"length\"");
  SceneReloadReport report = reloads.apply_pending();
  ASSERT_EQ(report.rigs.size(), 1u);
  ASSERT_EQ(report.rigs[0].outcome, ReloadOutcome::Failed);
  ASSERT_TRUE(report.rigs[0].error);
  EXPECT_NE(report.rigs[0].error->to_string().find("walk.manim:" + std::to_string(line) + ":"), std::string::npos)
      << report.rigs[0].error->to_string();
  EXPECT_TRUE(report.rigs[0].moved.empty());
  EXPECT_EQ(hero->data(), rig->data);
  EXPECT_EQ(reloads.current(mskel)->generation, 1u);
  // The node plays on the old build as if nothing happened.
  EXPECT_NEAR(play(tree, *hero, 6), before + 6 * kDt, kTimeTol * 6);

  // Repaired, the next change reloads and the node moves on.
  test::write_text(walk, good);
  report = reloads.apply_pending();
  ASSERT_EQ(report.rigs.size(), 1u);
  EXPECT_EQ(report.rigs[0].outcome, ReloadOutcome::Reloaded);
  EXPECT_EQ(report.rigs[0].moved.size(), 1u);
  EXPECT_EQ(hero->data(), reloads.current(mskel)->data);
}

TEST(SceneReloader, ANodeWhoseClipIsGoneStaysOnTheOldBuildWithAnErrorNamingIt) {
  TempDir temp("mf_scene_reload");
  const std::string mskel = test::copy_mannequin(temp);
  scene::SceneTree tree;
  SceneReloader reloads = make_reloader(tree);
  auto rig = open_rig(reloads, mskel, options_in(temp, false));
  auto* walker = tree.root().make_child<scene::Skeleton2D>("walker").value();
  auto* idler = tree.root().make_child<scene::Skeleton2D>("idler").value();
  ASSERT_TRUE(walker->set_data(rig->data));
  ASSERT_TRUE(walker->set_clip("jump"));
  ASSERT_TRUE(idler->set_data(rig->data));
  ASSERT_TRUE(idler->set_clip("idle"));
  tree.advance(kDt);

  fs::remove(clip_file(mskel, "jump"));
  const SceneReloadReport report = reloads.apply_pending();
  ASSERT_EQ(report.rigs.size(), 1u);
  const RigReload& r = report.rigs[0];
  ASSERT_EQ(r.outcome, ReloadOutcome::Reloaded) << (r.error ? r.error->to_string() : "");
  ASSERT_EQ(r.moved.size(), 1u);
  EXPECT_EQ(r.moved[0].node, "/root/idler");
  ASSERT_EQ(r.node_errors.size(), 1u);
  const std::string message = r.node_errors[0].to_string();
  EXPECT_NE(message.find("/root/walker"), std::string::npos) << message;
  EXPECT_NE(message.find("jump"), std::string::npos) << message;
  EXPECT_EQ(walker->data(), rig->data);
  EXPECT_EQ(idler->data(), reloads.current(mskel)->data);
  tree.advance(kDt);  // both play on
}

// A node that calls the reloader from its own tick (as a careless tool might).
class ReloadingNode : public scene::Node {
 public:
  ReloadingNode(SceneReloader& reloads, scene::Skeleton2D& hero) : Node("reloading"), reloads_(&reloads), hero_(&hero) {}
  void on_process(float) override {
    deferred = reloads_->apply_pending().deferred;
    replace_error = !hero_->replace_data(hero_->data(), nullptr, [](auto&&...) {});
  }
  bool deferred = false;
  bool replace_error = false;

 private:
  SceneReloader* reloads_;
  scene::Skeleton2D* hero_;
};

TEST(SceneReloader, NothingReloadsInTheMiddleOfATick) {
  TempDir temp("mf_scene_reload");
  const std::string mskel = test::copy_mannequin(temp);
  scene::SceneTree tree;
  SceneReloader reloads = make_reloader(tree);
  auto rig = open_rig(reloads, mskel, options_in(temp, false));
  auto* hero = tree.root().make_child<scene::Skeleton2D>("hero").value();
  ASSERT_TRUE(hero->set_data(rig->data));
  ASSERT_TRUE(hero->set_clip("walk"));
  auto* reloading = tree.root().make_child<ReloadingNode>(reloads, *hero).value();
  tree.advance(kDt);

  edit(clip_file(mskel, "walk"), kHipKeys, kHipKeysLifted);
  tree.advance(kDt);
  EXPECT_TRUE(reloading->deferred);
  EXPECT_TRUE(reloading->replace_error);
  EXPECT_EQ(hero->data(), rig->data);

  // Between ticks the change waits no longer.
  reloading->set_process(false);
  const SceneReloadReport report = reloads.apply_pending();
  ASSERT_EQ(report.rigs.size(), 1u);
  EXPECT_EQ(report.rigs[0].outcome, ReloadOutcome::Reloaded);
  EXPECT_EQ(hero->data(), reloads.current(mskel)->data);
}

}  // namespace
}  // namespace mf::live_reload
