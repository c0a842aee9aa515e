// The animation graph driving AnimatedSkeleton on a hand-built skeleton: a base layer, a masked
// additive layer and a code track above the graph, applied by the 2D runtime's sampler. Pose
// values are compared within 1e-4 degrees.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "anim/graph_builder.hpp"
#include "skel/test_rig.hpp"
#include "mf/anim/animation_graph_player.hpp"
#include "mf/skel/animated_skeleton.hpp"

namespace mf::anim {
namespace {

using skel::ClipData;
using skel::TimelineKind;

constexpr float kTol = 1e-4f;

// root → hip → arm → hand, all at the origin with 0° setup rotation. Clips (1 s, constant keys):
// idle: root +10°, arm +20°, an event at 0.5 s; wave: root +40°, arm +30°; walk: arm +170°;
// point: hand +50°, an event at 0.25 s; turn: arm −170°.
struct Skeleton {
  skel::SkeletonData data;
  int root = 0, hip = 0, arm = 0, hand = 0;
  int idle = 0, wave = 0, walk = 0, point = 0, turn = 0;

  Skeleton() {
    root = skel::test::add_bone(data, "root", -1);
    hip = skel::test::add_bone(data, "hip", root);
    arm = skel::test::add_bone(data, "arm", hip);
    hand = skel::test::add_bone(data, "hand", arm);
    data.events.push_back({"beat", 0, 0, "", "", 1, 0});
    idle = add("idle", {{root, 10}, {arm, 20}}, 0.5f);
    wave = add("wave", {{root, 40}, {arm, 30}});
    walk = add("walk", {{arm, 170}});
    point = add("point", {{hand, 50}}, 0.25f);
    turn = add("turn", {{arm, -170}});
  }
  int add(const char* name, std::vector<std::pair<int, float>> rotations, float event_time = -1) {
    auto c = std::make_shared<ClipData>();
    c->name = name;
    c->length = 1;
    for (auto [bone, degrees] : rotations) skel::test::add_timeline(*c, TimelineKind::Rotate, bone, 1, {0}, {degrees});
    if (event_time >= 0) c->events = {{event_time, 0, 0, 0, -1, 1, 0}};
    return skel::test::add_clip(data, c);
  }
  float rotation(const skel::AnimatedSkeleton& s, int bone) const { return s.pose().rotation[static_cast<std::size_t>(bone)]; }
};

struct Graph {
  test::GraphBuilder gb;
  int go = 0, idle = 0, walk = 0;
  Graph() {
    go = gb.param("go", ParamType::Bool);
    const int base = gb.begin_machine("base");
    idle = gb.clip_state("Idle", "idle");
    walk = gb.clip_state("Walk", "walk");
    gb.entry(idle);
    gb.transition(idle, walk, gb.leaf(go, ConditionOp::IsTrue), 1.0f);
    const int upper = gb.begin_machine("upper");
    gb.entry(gb.clip_state("Wave", "wave"));
    gb.layer("base", base);
    gb.layer("upper", upper, 0.5f, ClipBlend::Additive, {"arm", "hand"});
  }
};

TEST(GraphSkeleton, MaskedAdditiveLayerAndCodeTrackAbove) {
  Skeleton sk;
  Graph g;
  auto binding = skel::bind_graph(g.gb.g, sk.data);
  ASSERT_TRUE(binding.ok()) << binding.error().to_string();
  AnimationGraphPlayer player(g.gb.g, *binding);
  skel::AnimatedSkeleton s(sk.data);
  s.set_graph(&player);
  s.tracks().set_clip(0, sk.point, true);
  s.update(0.3f);

  EXPECT_NEAR(sk.rotation(s, sk.root), 10, kTol);         // wave's +40° is masked out
  EXPECT_NEAR(sk.rotation(s, sk.arm), 20 + 0.5f * 30, kTol);  // idle, plus half of wave added
  EXPECT_NEAR(sk.rotation(s, sk.hand), 50, kTol);          // the code track, above the graph
  EXPECT_NEAR(sk.rotation(s, sk.hip), 0, kTol);

  // Samples: the graph's layers 0 and 1, the tracks' from layer 2 on.
  ASSERT_EQ(s.samples().size(), 3u);
  EXPECT_EQ(s.samples()[0].layer, 0);
  EXPECT_EQ(s.samples()[1].layer, 1);
  EXPECT_EQ(s.samples()[2].layer, 2);
  EXPECT_EQ(s.samples()[2].clip, sk.point);

  // Events: the code track's point event (0.25 s) belongs to track 0; idle's (0.5 s) to the graph.
  int graph_events = 0, track_events = 0;
  s.update(0.3f);  // idle passes 0.5 s
  s.drain([&](const skel::FiredEvent& e, int track) {
    if (e.clip == sk.idle) {
      EXPECT_EQ(track, -1);
      ++graph_events;
    }
    if (e.clip == sk.point) {
      EXPECT_EQ(track, 0);
      ++track_events;
    }
  }, [](const TrackSignal&) {});
  EXPECT_EQ(graph_events, 1);
  EXPECT_EQ(track_events, 0);  // point's key at 0.25 s is not in (0.3, 0.6]
}

TEST(GraphSkeleton, CodeTrackEventsCarryTheirTrack) {
  Skeleton sk;
  Graph g;
  auto binding = skel::bind_graph(g.gb.g, sk.data);
  ASSERT_TRUE(binding.ok());
  AnimationGraphPlayer player(g.gb.g, *binding);
  skel::AnimatedSkeleton s(sk.data);
  s.set_graph(&player);
  s.tracks().set_clip(1, sk.point, true);
  s.update(0.3f);
  int track_events = 0;
  s.drain([&](const skel::FiredEvent& e, int track) {
    if (e.clip == sk.point) {
      EXPECT_EQ(track, 1);
      ++track_events;
    }
  }, [](const TrackSignal&) {});
  EXPECT_EQ(track_events, 1);
}

TEST(GraphSkeleton, CrossfadeUnderTheAdditiveLayer) {
  Skeleton sk;
  Graph g;
  auto binding = skel::bind_graph(g.gb.g, sk.data);
  ASSERT_TRUE(binding.ok());
  AnimationGraphPlayer player(g.gb.g, *binding);
  skel::AnimatedSkeleton s(sk.data);
  s.set_graph(&player);
  s.update(0.1f);
  player.set_bool(g.go, true);
  s.update(0.1f);  // Idle → Walk starts (1 s)
  EXPECT_EQ(player.current_transition(0), 0);
  // Base layer: idle's arm at 20°, walk's at 170°; at mix m the arm is 20 + 150 m, then +15 from wave.
  for (int k = 1; k <= 9; ++k) {
    s.update(0.1f);
    const float m = 0.1f * static_cast<float>(k);
    EXPECT_NEAR(sk.rotation(s, sk.arm), 20 + 150 * m + 15, 1e-3f) << k;
  }
  // Without the graph the skeleton plays its tracks alone again.
  s.set_graph(nullptr);
  s.tracks().clear_tracks();
  s.update(0.1f);
  EXPECT_NEAR(sk.rotation(s, sk.arm), 0, kTol);
}

// Walk (arm +170°) → Turn (arm −170°) over 1 s: the latched short arc goes through 180°, never 0°.
TEST(GraphSkeleton, CrossfadeTakesTheShortArcAcross180) {
  Skeleton sk;
  test::GraphBuilder gb;
  const int go = gb.param("go", ParamType::Bool);
  const int base = gb.begin_machine("base");
  const int a = gb.clip_state("Walk", "walk");
  const int b = gb.clip_state("Turn", "turn");
  gb.entry(a);
  gb.transition(a, b, gb.leaf(go, ConditionOp::IsTrue), 1.0f);
  gb.layer("base", base);
  auto binding = skel::bind_graph(gb.g, sk.data);
  ASSERT_TRUE(binding.ok());
  AnimationGraphPlayer player(gb.g, *binding);
  skel::AnimatedSkeleton s(sk.data);
  s.set_graph(&player);
  s.update(0.1f);
  player.set_bool(go, true);
  s.update(0.1f);
  for (int k = 1; k <= 9; ++k) {
    s.update(0.1f);
    const float m = 0.1f * static_cast<float>(k);
    const float want = 170 + 20 * m;  // 172°, 174°, … 188° (the same angle as −172°)
    const float got = sk.rotation(s, sk.arm);
    EXPECT_NEAR(std::remainder(got - want, 360.0f), 0, 1e-3f) << k << ": " << got;
  }
}

// A turnaround transition: Left (root scale X −1) → Right (scale X 1) over 0.4 s. Mid-mix the scale
// keeps its magnitude and has Right's sign from the first mixed frame on, as with the tracks.
TEST(GraphSkeleton, TransitionFlippingScaleKeepsTheSizeAndTakesTheIncomingSign) {
  Skeleton sk;
  auto flip = [&](const char* name, float sx) {
    auto c = std::make_shared<ClipData>();
    c->name = name;
    c->length = 1;
    skel::test::add_timeline(*c, TimelineKind::ScaleX, sk.root, 1, {0}, {sx});
    return skel::test::add_clip(sk.data, c);
  };
  flip("left", -1);
  flip("right", 1);
  sk.data.bones.x[static_cast<std::size_t>(sk.hip)] = 10;
  test::GraphBuilder gb;
  const int go = gb.param("go", ParamType::Bool);
  const int base = gb.begin_machine("base");
  const int left = gb.clip_state("Left", "left");
  const int right = gb.clip_state("Right", "right");
  gb.entry(left);
  gb.transition(left, right, gb.leaf(go, ConditionOp::IsTrue), 0.4f);
  gb.layer("base", base);
  auto binding = skel::bind_graph(gb.g, sk.data);
  ASSERT_TRUE(binding.ok());
  AnimationGraphPlayer player(gb.g, *binding);
  skel::AnimatedSkeleton s(sk.data);
  s.set_graph(&player);
  s.update(0.1f);
  EXPECT_NEAR(s.pose().scale_x[static_cast<std::size_t>(sk.root)], -1, 1e-5f);
  player.set_bool(go, true);
  s.update(0.1f);  // the transition starts: Right has no weight yet
  ASSERT_EQ(player.current_transition(0), 0);
  EXPECT_NEAR(s.pose().scale_x[static_cast<std::size_t>(sk.root)], -1, 1e-5f);
  for (int k = 1; k <= 5; ++k) {  // m = 0.25, 0.5, 0.75, then Right alone
    s.update(0.1f);
    EXPECT_NEAR(s.pose().scale_x[static_cast<std::size_t>(sk.root)], 1, 1e-5f) << k;
    EXPECT_NEAR(s.pose().world_x[static_cast<std::size_t>(sk.hip)], 10, 1e-4f) << k;  // full size
  }
}

}  // namespace
}  // namespace mf::anim
