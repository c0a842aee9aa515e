// Playback carried across a reload: a copy of examples/mannequin is edited and reloaded, and the
// LiveSkeleton's new skeleton is compared with one that played the new data from the start the same
// way (poses within kPoseTol: the same samples give the same floats up to the order of sums). The
// graph carry by names runs on hand-built graphs too (tests/anim/graph_builder.hpp).

#include "mf/live_reload/playback_carry.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <vector>

#include "anim/graph_builder.hpp"
#include "live_reload/rig_copy.hpp"
#include "mf/live_reload/live_skeleton.hpp"
#include "mf/live_reload/rig_reloader.hpp"
#include "support/temp_dir.hpp"

namespace mf::live_reload {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using anim::TrackEntry;
using anim::TrackEntryHandle;
using mf::testing::TempDir;

constexpr float kPoseTol = 1e-3f;  // pixels and degrees
constexpr float kTimeTol = 1e-6f;  // seconds carried as they are

RigReloader open_rig(const TempDir& temp, const std::string& mskel, bool graph) {
  RigReloaderOptions o;
  o.load.cache_dir = "off";
  o.watcher.settle = 0ms;
  o.find_graph = graph;
  Expected<RigReloader> r = RigReloader::open(mskel, o);
  if (!r) {
    ADD_FAILURE() << r.error().to_string();
    std::abort();
  }
  (void)temp;
  return std::move(r).value();
}

std::string clip_file(const std::string& mskel, const std::string& clip) {
  return (fs::path(mskel).parent_path() / "mannequin.clips" / (clip + ".manim")).string();
}

// An edit that changes nothing the tests below play: idle's hip key.
void touch_idle(const std::string& mskel) {
  std::string text = test::read_text(clip_file(mskel, "idle"));
  text += "\n";
  test::write_text(clip_file(mskel, "idle"), text);
}

void reload(RigReloader& r) {
  const ReloadReport report = r.apply_pending();
  ASSERT_EQ(report.outcome, ReloadOutcome::Reloaded) << (report.error ? report.error->to_string() : "");
}

int clip(const skel::AnimatedSkeleton& s, const std::string& name) { return s.data().find_clip(name); }
std::string clip_name(const skel::AnimatedSkeleton& s, int index) {
  return index >= 0 ? s.data().clips[static_cast<std::size_t>(index)].name : std::string();
}

void expect_same_pose(const skel::AnimatedSkeleton& a, const skel::AnimatedSkeleton& b) {
  ASSERT_EQ(a.data().bones.size(), b.data().bones.size());
  for (std::size_t i = 0; i < a.data().bones.size(); ++i) {
    const std::string& name = a.data().bones.names[i];
    EXPECT_NEAR(a.pose().rotation[i], b.pose().rotation[i], kPoseTol) << name;
    EXPECT_NEAR(a.pose().x[i], b.pose().x[i], kPoseTol) << name;
    EXPECT_NEAR(a.pose().y[i], b.pose().y[i], kPoseTol) << name;
    EXPECT_NEAR(a.pose().world_x[i], b.pose().world_x[i], kPoseTol) << name;
    EXPECT_NEAR(a.pose().world_y[i], b.pose().world_y[i], kPoseTol) << name;
  }
}

std::vector<std::string> event_names(skel::AnimatedSkeleton& s) {
  std::vector<std::string> out;
  s.drain([&](const skel::FiredEvent& e, int) { out.push_back(s.data().events[static_cast<std::size_t>(e.event)].name); },
          [](const anim::TrackSignal&) {});
  return out;
}

TEST(PlaybackCarry, TrackTimeAndQueuedEntrySurviveAReload) {
  TempDir temp("mf_carry");
  const std::string mskel = test::copy_mannequin(temp);
  RigReloader r = open_rig(temp, mskel, false);
  LiveSkeleton live(r.current());

  // Played on the old data: walk at 70 %, then run queued 2 s in at 1.5× speed.
  auto play = [](skel::AnimatedSkeleton& s) {
    const TrackEntryHandle walk = s.tracks().set_clip(0, clip(s, "walk"), true);
    s.tracks().entry(walk)->set_alpha(0.7f);
    s.update(0.3f);
    const TrackEntryHandle run = s.tracks().add_clip(0, clip(s, "run"), true, 2.0f);
    s.tracks().entry(run)->set_time_scale(1.5f);
    return std::pair{walk, run};
  };
  const auto [walk, run] = play(live.skeleton());
  event_names(live.skeleton());
  const std::shared_ptr<const RigGeneration> old_rig = r.current();

  // Edit walk: its hip bob is lifted 50 px, a change the new pose must show.
  test::edit(clip_file(mskel, "walk"), "\"v\": [8, 12, 8, 4, 8, 12, 8, 4, 8]", "\"v\": [58, 62, 58, 54, 58, 62, 58, 54, 58]");
  reload(r);
  const CarryReport report = live.follow(r.current());
  EXPECT_EQ(live.generation(), 2u);
  EXPECT_TRUE(report.dropped_entries.empty());

  skel::AnimatedSkeleton& s = live.skeleton();
  const TrackEntryHandle current = s.tracks().current(0);
  ASSERT_FALSE(current.is_null());
  EXPECT_EQ(report.handle(walk), current);
  const TrackEntry& w = *s.tracks().entry(current);
  EXPECT_EQ(clip_name(s, w.clip()), "walk");
  EXPECT_NEAR(w.track_time(), 0.3f, kTimeTol);
  EXPECT_FLOAT_EQ(w.alpha(), 0.7f);
  EXPECT_TRUE(w.loop());
  const TrackEntryHandle queued = s.tracks().queued_after(current);
  ASSERT_FALSE(queued.is_null());
  EXPECT_EQ(report.handle(run), queued);
  const TrackEntry& q = *s.tracks().entry(queued);
  EXPECT_EQ(clip_name(s, q.clip()), "run");
  EXPECT_FLOAT_EQ(q.delay(), 2.0f);
  EXPECT_FLOAT_EQ(q.time_scale(), 1.5f);
  EXPECT_TRUE(s.tracks().queued_after(queued).is_null());
  EXPECT_TRUE(s.tracks().signals().empty());  // the rebuild's Started signals are not news

  // From here it plays on like a skeleton that played the new data all along: the same pose, and the
  // walk's footstep at 0.5 s fires once, not again for the time played before the reload.
  skel::AnimatedSkeleton reference(*r.data());
  play(reference);
  event_names(reference);
  s.update(0.1f);
  reference.update(0.1f);
  expect_same_pose(s, reference);
  EXPECT_TRUE(event_names(s).empty());
  EXPECT_TRUE(event_names(reference).empty());
  s.update(0.15f);
  reference.update(0.15f);
  expect_same_pose(s, reference);
  EXPECT_EQ(event_names(s), std::vector<std::string>{"footstep"});
  EXPECT_EQ(event_names(reference), std::vector<std::string>{"footstep"});
  // The lifted keys are what it shows: 50 px higher at 70 % than the old data at the same time.
  skel::AnimatedSkeleton old_data_player(*old_rig->data);
  play(old_data_player);
  old_data_player.update(0.25f);
  const std::size_t hips = static_cast<std::size_t>(s.data().find_bone("hips"));
  EXPECT_NEAR(s.pose().y[hips] - old_data_player.pose().y[hips], 0.7f * 50, kPoseTol);
}

TEST(PlaybackCarry, EntriesOfARemovedClipAreDropped) {
  TempDir temp("mf_carry");
  const std::string mskel = test::copy_mannequin(temp);
  RigReloader r = open_rig(temp, mskel, false);  // the graph plays jump: no graph here
  LiveSkeleton live(r.current());
  skel::AnimatedSkeleton& old = live.skeleton();
  old.tracks().set_clip(0, clip(old, "walk"), true);
  old.update(0.2f);
  const TrackEntryHandle jump0 = old.tracks().add_clip(0, clip(old, "jump"), false, 0.5f);
  old.tracks().add_clip(0, clip(old, "run"), true, 0.3f);
  old.tracks().set_clip(1, clip(old, "jump"), false);
  const TrackEntryHandle idle1 = old.tracks().add_clip(1, clip(old, "idle"), true, 1.0f);
  old.update(0.1f);
  event_names(old);

  fs::remove(clip_file(mskel, "jump"));
  reload(r);
  const CarryReport report = live.follow(r.current());
  ASSERT_EQ(report.dropped_entries.size(), 2u);
  EXPECT_EQ(report.dropped_entries[0].track, 0);
  EXPECT_EQ(report.dropped_entries[0].clip, "jump");
  EXPECT_EQ(report.dropped_entries[0].reason, DropReason::ClipMissing);
  EXPECT_EQ(report.dropped_entries[1].track, 1);
  EXPECT_EQ(report.dropped_entries[1].clip, "jump");
  EXPECT_TRUE(report.handle(jump0).is_null());

  skel::AnimatedSkeleton& s = live.skeleton();
  // Track 0: walk plays on; run, queued after the dropped jump, now follows walk with its own delay.
  const TrackEntryHandle cur0 = s.tracks().current(0);
  ASSERT_FALSE(cur0.is_null());
  EXPECT_EQ(clip_name(s, s.tracks().entry(cur0)->clip()), "walk");
  EXPECT_NEAR(s.tracks().entry(cur0)->track_time(), 0.3f, kTimeTol);
  const TrackEntryHandle next0 = s.tracks().queued_after(cur0);
  ASSERT_FALSE(next0.is_null());
  EXPECT_EQ(clip_name(s, s.tracks().entry(next0)->clip()), "run");
  EXPECT_FLOAT_EQ(s.tracks().entry(next0)->delay(), 0.3f);
  EXPECT_TRUE(s.tracks().queued_after(next0).is_null());
  // Track 1: its current clip is gone, so the queued idle starts at once.
  const TrackEntryHandle cur1 = s.tracks().current(1);
  ASSERT_FALSE(cur1.is_null());
  EXPECT_EQ(report.handle(idle1), cur1);
  EXPECT_EQ(clip_name(s, s.tracks().entry(cur1)->clip()), "idle");
  EXPECT_FLOAT_EQ(s.tracks().entry(cur1)->track_time(), 0);
  EXPECT_FLOAT_EQ(s.tracks().entry(cur1)->delay(), 0);
  EXPECT_TRUE(s.tracks().queued_after(cur1).is_null());
  s.update(1.0f / 60);  // plays on the new data: every sample names one of its clips
  for (const anim::ClipSample& sample : s.samples())
    EXPECT_TRUE(sample.clip >= 0 && static_cast<std::size_t>(sample.clip) < s.data().clips.size()) << sample.clip;
}

TEST(PlaybackCarry, ACrossfadeInProgressCarriesOn) {
  TempDir temp("mf_carry");
  const std::string mskel = test::copy_mannequin(temp);
  RigReloader r = open_rig(temp, mskel, false);
  LiveSkeleton live(r.current());
  auto play = [](skel::AnimatedSkeleton& s) {
    s.tracks().set_mix(clip(s, "walk"), clip(s, "run"), 0.4f);
    s.tracks().set_clip(0, clip(s, "walk"), true);
    s.update(0.25f);
    s.tracks().set_clip(0, clip(s, "run"), true);
    s.update(0.1f);
  };
  play(live.skeleton());
  event_names(live.skeleton());

  touch_idle(mskel);
  reload(r);
  const CarryReport report = live.follow(r.current());
  EXPECT_TRUE(report.dropped_entries.empty());
  skel::AnimatedSkeleton& s = live.skeleton();
  const TrackEntryHandle run = s.tracks().current(0);
  const TrackEntry& e = *s.tracks().entry(run);
  EXPECT_EQ(clip_name(s, e.clip()), "run");
  EXPECT_NEAR(e.mix_time(), 0.1f, kTimeTol);
  EXPECT_FLOAT_EQ(e.mix_duration(), 0.4f);
  const TrackEntryHandle walk = s.tracks().mixing_from(run);
  ASSERT_FALSE(walk.is_null());
  EXPECT_EQ(clip_name(s, s.tracks().entry(walk)->clip()), "walk");
  EXPECT_NEAR(s.tracks().entry(walk)->track_time(), 0.35f, kTimeTol);
  EXPECT_FLOAT_EQ(s.tracks().mix(clip(s, "walk"), clip(s, "run")), 0.4f);  // the mix table by name

  skel::AnimatedSkeleton reference(*r.data());
  play(reference);
  event_names(reference);
  for (int k = 0; k < 4; ++k) {
    s.update(0.1f);
    reference.update(0.1f);
    expect_same_pose(s, reference);
    ASSERT_EQ(s.samples().size(), reference.samples().size()) << k;
    for (std::size_t i = 0; i < s.samples().size(); ++i) EXPECT_NEAR(s.samples()[i].weight, reference.samples()[i].weight, kTimeTol);
  }
}

TEST(PlaybackCarry, OverridesFollowBoneNamesAndMasksOfMovedBonesAreDropped) {
  TempDir temp("mf_carry");
  const std::string mskel = test::copy_mannequin(temp);
  RigReloader r = open_rig(temp, mskel, false);
  LiveSkeleton live(r.current());
  skel::AnimatedSkeleton& old = live.skeleton();
  const int head = old.data().find_bone("head");
  skel::BoneOverride o;
  o.rotation = 30;
  o.mix = 0.5f;
  o.channels = skel::kOverrideRotation;
  old.set_bone_override(head, o);
  std::vector<std::uint8_t> bits(old.data().bones.size(), 1);
  const anim::BoneMask mask{bits};
  const TrackEntryHandle walk = old.tracks().set_clip(0, clip(old, "walk"), true);
  old.tracks().entry(walk)->set_mask(&mask);
  old.update(0.1f);

  // A new bone first in the list: every other bone's index moves by one.
  test::edit(mskel, "{ \"name\": \"root\" },", "{ \"name\": \"root\" },\n    { \"name\": \"marker\", \"parent\": \"root\" },");
  reload(r);
  ASSERT_EQ(r.data()->find_bone("head"), head + 1);
  const CarryReport report = live.follow(r.current());
  skel::AnimatedSkeleton& s = live.skeleton();
  EXPECT_EQ(s.bone_override(head), nullptr);
  const skel::BoneOverride* carried = s.bone_override(head + 1);
  ASSERT_NE(carried, nullptr);
  EXPECT_FLOAT_EQ(carried->rotation, 30);
  EXPECT_FLOAT_EQ(carried->mix, 0.5f);
  EXPECT_EQ(carried->channels, skel::kOverrideRotation);
  EXPECT_TRUE(report.dropped_overrides.empty());
  EXPECT_TRUE(report.dropped_masks);
  EXPECT_EQ(s.tracks().entry(s.tracks().current(0))->mask(), nullptr);
}

TEST(PlaybackCarry, GraphParametersAndStateArePreserved) {
  TempDir temp("mf_carry");
  const std::string mskel = test::copy_mannequin(temp);
  RigReloader r = open_rig(temp, mskel, true);
  LiveSkeleton live(r.current());
  ASSERT_NE(live.graph_player(), nullptr);
  auto play = [](LiveSkeleton& l) {
    anim::AnimationGraphPlayer& p = *l.graph_player();
    p.set_param("speed", 2.0f);
    for (int k = 0; k < 30; ++k) l.skeleton().update(1.0f / 60);
  };
  play(live);
  const anim::AnimationGraphPlayer& before = *live.graph_player();
  const float time0 = before.normalized_time(0), time1 = before.normalized_time(1);
  EXPECT_GT(time0, 0.1f);

  test::edit(clip_file(mskel, "walk"), "\"v\": [8, 12, 8, 4, 8, 12, 8, 4, 8]", "\"v\": [58, 62, 58, 54, 58, 62, 58, 54, 58]");
  reload(r);
  const CarryReport report = live.follow(r.current());
  EXPECT_TRUE(report.dropped_params.empty());
  EXPECT_TRUE(report.dropped_states.empty());
  anim::AnimationGraphPlayer& p = *live.graph_player();
  EXPECT_EQ(live.skeleton().graph(), &p);
  EXPECT_FLOAT_EQ(p.get_float(p.find_param("speed")), 2.0f);
  EXPECT_EQ(p.graph().states[static_cast<std::size_t>(p.current_state(0))].name, "locomotion");
  EXPECT_FLOAT_EQ(p.normalized_time(0), time0);
  EXPECT_FLOAT_EQ(p.normalized_time(1), time1);
  EXPECT_TRUE(p.drain_signals().empty());

  // It plays on like a player that ran on the new data all along.
  LiveSkeleton reference(r.current());
  play(reference);
  live.skeleton().update(1.0f / 60);
  reference.skeleton().update(1.0f / 60);
  expect_same_pose(live.skeleton(), reference.skeleton());

  // A trigger set before a reload stays set, and fires after it.
  p.set_trigger(p.find_param("jump"));
  touch_idle(mskel);
  reload(r);
  live.follow(r.current());
  anim::AnimationGraphPlayer& q = *live.graph_player();
  EXPECT_TRUE(q.get_bool(q.find_param("jump")));
  live.skeleton().update(1.0f / 60);
  EXPECT_EQ(q.graph().states[static_cast<std::size_t>(q.current_state(0))].name, "jump");
}

// ---- carry_graph by names on hand-built graphs ----------------------------------------------------

struct Graphs {
  anim::test::GraphBuilder old_gb, new_gb;
  anim::GraphBinding old_binding, new_binding;
  int old_run = 0, old_air = 0, new_ground = 0, new_walk = 0, new_air = 0;

  Graphs() {
    // Old: params speed (Float), mode (Int), armed (Bool), fire (Trigger), legacy (Float);
    // base: Ground { Walk, Run }, Air.
    old_gb.param("speed", anim::ParamType::Float);
    old_gb.param("mode", anim::ParamType::Int);
    old_gb.param("armed", anim::ParamType::Bool);
    old_gb.param("fire", anim::ParamType::Trigger);
    old_gb.param("legacy", anim::ParamType::Float);
    {
      const int sub = old_gb.begin_machine("ground");
      const int walk = old_gb.clip_state("Walk", "walk");
      old_run = old_gb.clip_state("Run", "run");
      old_gb.entry(walk);
      const int root = old_gb.begin_machine("root");
      const int ground = old_gb.machine_state("Ground", sub);
      old_air = old_gb.clip_state("Air", "jump");
      old_gb.entry(ground);
      old_gb.layer("base", root);
      const int upper = old_gb.begin_machine("upper");
      old_gb.entry(old_gb.clip_state("Wave", "wave"));
      old_gb.layer("gone", upper);
    }
    // New: the same names in other places, mode now a Float, legacy gone, Run gone, layer "gone"
    // gone: root = {Air, Fall, Ground}, ground = {Idle, Walk}.
    new_gb.param("armed", anim::ParamType::Bool);
    new_gb.param("mode", anim::ParamType::Float);
    new_gb.param("fire", anim::ParamType::Trigger);
    new_gb.param("speed", anim::ParamType::Float);
    const int sub = new_gb.begin_machine("ground");
    new_gb.clip_state("Idle", "idle");
    new_walk = new_gb.clip_state("Walk", "walk");
    new_gb.entry(new_walk);
    const int root = new_gb.begin_machine("root");
    new_air = new_gb.clip_state("Air", "jump");
    new_gb.clip_state("Fall", "fall");
    new_ground = new_gb.machine_state("Ground", sub);
    new_gb.entry(new_ground);
    new_gb.layer("base", root);

    const anim::test::TestClips clips;
    old_binding = clips.bind(old_gb.g);
    new_binding = clips.bind(new_gb.g);
  }
};

TEST(GraphCarry, ParametersByNameConvertedToTheNewType) {
  Graphs g;
  anim::AnimationGraphPlayer from(g.old_gb.g, g.old_binding), to(g.new_gb.g, g.new_binding);
  from.set_param("speed", 1.75f);
  from.set_param("mode", 3);
  from.set_param("armed", 1);
  from.set_trigger("fire");
  from.set_param("legacy", 9);
  CarryReport report;
  carry_graph(from, to, report);
  EXPECT_FLOAT_EQ(to.get_float(to.find_param("speed")), 1.75f);
  EXPECT_FLOAT_EQ(to.get_float(to.find_param("mode")), 3.0f);
  EXPECT_TRUE(to.get_bool(to.find_param("armed")));
  EXPECT_TRUE(to.get_bool(to.find_param("fire")));
  EXPECT_EQ(report.dropped_params, std::vector<std::string>{"legacy"});
}

TEST(GraphCarry, StatesByTheirPathOfNames) {
  Graphs g;
  const anim::test::TestClips clips;
  {
    // Air exists in the new graph: its time carries.
    anim::AnimationGraphPlayer from(g.old_gb.g, g.old_binding), to(g.new_gb.g, g.new_binding);
    ASSERT_TRUE(from.force_state(0, g.old_air));
    from.update(0.25f);  // jump is 0.8 s long: 0.3125 of a pass
    CarryReport report;
    carry_graph(from, to, report);
    EXPECT_EQ(to.current_state(0), g.new_air);
    EXPECT_FLOAT_EQ(to.normalized_time(0), from.normalized_time(0));
    EXPECT_EQ(report.dropped_states, std::vector<std::string>{"gone: Wave"});
    EXPECT_TRUE(to.drain_signals().empty());
  }
  {
    // Ground/Run: Run is gone, so Ground is entered at its entry (Walk) from the start.
    anim::AnimationGraphPlayer from(g.old_gb.g, g.old_binding), to(g.new_gb.g, g.new_binding);
    ASSERT_TRUE(from.force_state(0, g.old_run));
    from.update(0.2f);
    CarryReport report;
    carry_graph(from, to, report);
    EXPECT_EQ(to.current_top_state(0), g.new_ground);
    EXPECT_EQ(to.current_state(0), g.new_walk);
    EXPECT_FLOAT_EQ(to.normalized_time(0), 0);
    ASSERT_EQ(report.dropped_states.size(), 2u);
    EXPECT_EQ(report.dropped_states[0], "base: Ground/Run");
  }
}

}  // namespace
}  // namespace mf::live_reload
