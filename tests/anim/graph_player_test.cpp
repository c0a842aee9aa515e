// AnimationGraphPlayer against hand-computed expectations: condition types, exit times, priorities,
// interruption, triggers, crossfade shares, synchronised blend members, layers, nested machines,
// travel, signals and determinism. Weights and times are compared within 1e-6 unless stated.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "anim/graph_builder.hpp"
#include "mf/anim/animation_graph_player.hpp"

namespace mf::anim {
namespace {

using test::GraphBuilder;
using test::TestClips;

constexpr float kTol = 1e-6f;
constexpr float kDt = 0.125f;  // exact in binary: normalised times below are exact sums

float weight_of(std::span<const ClipSample> samples, int clip, int layer = 0) {
  float w = 0;
  for (const ClipSample& s : samples)
    if (s.clip == clip && s.layer == layer) w += s.weight;
  return w;
}

const ClipSample* sample_of(std::span<const ClipSample> samples, int clip, int layer = 0) {
  for (const ClipSample& s : samples)
    if (s.clip == clip && s.layer == layer) return &s;
  return nullptr;
}

float layer_sum(std::span<const ClipSample> samples, int layer) {
  float w = 0;
  for (const ClipSample& s : samples)
    if (s.layer == layer) w += s.weight;
  return w;
}

// ---- conditions -------------------------------------------------------------------------------------

// A (idle) → B (walk) guarded by the condition `make` builds over params f (Float), i (Int),
// b (Bool), t (Trigger); `set` sets the parameters; true when the transition fired in one update.
bool fires(const std::function<int(GraphBuilder&)>& make, const std::function<void(AnimationGraphPlayer&)>& set) {
  GraphBuilder gb;
  gb.param("f", ParamType::Float);
  gb.param("i", ParamType::Int);
  gb.param("b", ParamType::Bool);
  gb.param("t", ParamType::Trigger);
  const int cond = make(gb);
  const int m = gb.begin_machine("root");
  const int a = gb.clip_state("A", "idle");
  const int b = gb.clip_state("B", "walk");
  gb.entry(a);
  gb.transition(a, b, cond);
  gb.layer("base", m);
  const TestClips clips;
  const GraphBinding binding = clips.bind(gb.g);
  AnimationGraphPlayer player(gb.g, binding);
  set(player);
  player.update(kDt);
  return player.current_state(0) == b;
}

enum P { F = 0, I = 1, B = 2, T = 3 };

TEST(GraphConditions, FloatComparisons) {
  auto cmp = [](ConditionOp op, float threshold, float value) {
    return fires([&](GraphBuilder& g) { return g.leaf(F, op, threshold); }, [&](AnimationGraphPlayer& p) { p.set_float(F, value); });
  };
  EXPECT_TRUE(cmp(ConditionOp::Greater, 0.5f, 0.6f));
  EXPECT_FALSE(cmp(ConditionOp::Greater, 0.5f, 0.5f));
  EXPECT_TRUE(cmp(ConditionOp::Less, 0.5f, 0.4f));
  EXPECT_FALSE(cmp(ConditionOp::Less, 0.5f, 0.5f));
  EXPECT_TRUE(cmp(ConditionOp::GreaterEqual, 0.5f, 0.5f));
  EXPECT_FALSE(cmp(ConditionOp::GreaterEqual, 0.5f, 0.49f));
  EXPECT_TRUE(cmp(ConditionOp::LessEqual, 0.5f, 0.5f));
  EXPECT_FALSE(cmp(ConditionOp::LessEqual, 0.5f, 0.51f));
  EXPECT_TRUE(cmp(ConditionOp::Equal, 0.25f, 0.25f));
  EXPECT_FALSE(cmp(ConditionOp::Equal, 0.25f, 0.26f));
  EXPECT_TRUE(cmp(ConditionOp::NotEqual, 0.25f, 0.26f));
  EXPECT_FALSE(cmp(ConditionOp::NotEqual, 0.25f, 0.25f));
}

TEST(GraphConditions, IntComparisons) {
  auto cmp = [](ConditionOp op, float threshold, std::int32_t value) {
    return fires([&](GraphBuilder& g) { return g.leaf(I, op, threshold); }, [&](AnimationGraphPlayer& p) { p.set_int(I, value); });
  };
  EXPECT_TRUE(cmp(ConditionOp::Equal, 3, 3));
  EXPECT_FALSE(cmp(ConditionOp::Equal, 3, 2));
  EXPECT_TRUE(cmp(ConditionOp::NotEqual, 3, 2));
  EXPECT_FALSE(cmp(ConditionOp::NotEqual, 3, 3));
  EXPECT_TRUE(cmp(ConditionOp::Greater, 3, 4));
  EXPECT_FALSE(cmp(ConditionOp::Greater, 3, 3));
  EXPECT_TRUE(cmp(ConditionOp::Less, 3, 2));
  EXPECT_FALSE(cmp(ConditionOp::Less, 3, 3));
  EXPECT_TRUE(cmp(ConditionOp::GreaterEqual, 3, 3));
  EXPECT_FALSE(cmp(ConditionOp::GreaterEqual, 3, 2));
  EXPECT_TRUE(cmp(ConditionOp::LessEqual, -1, -1));
  EXPECT_FALSE(cmp(ConditionOp::LessEqual, -1, 0));
}

TEST(GraphConditions, BoolAndTrigger) {
  auto test_bool = [](ConditionOp op, bool value) {
    return fires([&](GraphBuilder& g) { return g.leaf(B, op); }, [&](AnimationGraphPlayer& p) { p.set_bool(B, value); });
  };
  EXPECT_TRUE(test_bool(ConditionOp::IsTrue, true));
  EXPECT_FALSE(test_bool(ConditionOp::IsTrue, false));
  EXPECT_TRUE(test_bool(ConditionOp::IsFalse, false));
  EXPECT_FALSE(test_bool(ConditionOp::IsFalse, true));
  EXPECT_TRUE(fires([](GraphBuilder& g) { return g.leaf(T, ConditionOp::IsSet); }, [](AnimationGraphPlayer& p) { p.set_trigger(T); }));
  EXPECT_FALSE(fires([](GraphBuilder& g) { return g.leaf(T, ConditionOp::IsSet); }, [](AnimationGraphPlayer&) {}));
  EXPECT_FALSE(fires([](GraphBuilder& g) { return g.leaf(T, ConditionOp::IsSet); }, [](AnimationGraphPlayer& p) {
    p.set_trigger(T);
    p.reset_trigger(T);
  }));
}

TEST(GraphConditions, AndOrTrees) {
  auto both = [](GraphBuilder& g) { return g.all({g.leaf(F, ConditionOp::Greater, 0.5f), g.leaf(B, ConditionOp::IsTrue)}); };
  auto either = [](GraphBuilder& g) { return g.any({g.leaf(F, ConditionOp::Greater, 0.5f), g.leaf(B, ConditionOp::IsTrue)}); };
  auto set = [](float f, bool b) {
    return [=](AnimationGraphPlayer& p) {
      p.set_float(F, f);
      p.set_bool(B, b);
    };
  };
  EXPECT_TRUE(fires(both, set(0.6f, true)));
  EXPECT_FALSE(fires(both, set(0.6f, false)));
  EXPECT_FALSE(fires(both, set(0.4f, true)));
  EXPECT_TRUE(fires(either, set(0.4f, true)));
  EXPECT_TRUE(fires(either, set(0.6f, false)));
  EXPECT_FALSE(fires(either, set(0.4f, false)));
  // (f > 0.5 or i == 2) and not b
  auto nested = [](GraphBuilder& g) {
    return g.all({g.any({g.leaf(F, ConditionOp::Greater, 0.5f), g.leaf(I, ConditionOp::Equal, 2)}), g.leaf(B, ConditionOp::IsFalse)});
  };
  EXPECT_TRUE(fires(nested, [](AnimationGraphPlayer& p) { p.set_int(I, 2); }));
  EXPECT_FALSE(fires(nested, [](AnimationGraphPlayer& p) {
    p.set_int(I, 2);
    p.set_bool(B, true);
  }));
  EXPECT_FALSE(fires(nested, [](AnimationGraphPlayer& p) { p.set_int(I, 3); }));
  // An empty And holds, an empty Or does not.
  EXPECT_TRUE(fires([](GraphBuilder& g) { return g.all({}); }, [](AnimationGraphPlayer&) {}));
  EXPECT_FALSE(fires([](GraphBuilder& g) { return g.any({}); }, [](AnimationGraphPlayer&) {}));
}

TEST(GraphParams, SetAndGetByIndexAndName) {
  GraphBuilder gb;
  const int f = gb.param("speed", ParamType::Float, 0.25f);
  const int i = gb.param("count", ParamType::Int, 2);
  const int b = gb.param("armed", ParamType::Bool, 1);
  const int t = gb.param("jump", ParamType::Trigger);
  const int m = gb.begin_machine("root");
  gb.entry(gb.clip_state("A", "idle"));
  gb.layer("base", m);
  const TestClips clips;
  const GraphBinding binding = clips.bind(gb.g);
  AnimationGraphPlayer p(gb.g, binding);
  EXPECT_FLOAT_EQ(p.get_float(f), 0.25f);
  EXPECT_EQ(p.get_int(i), 2);
  EXPECT_TRUE(p.get_bool(b));
  EXPECT_FALSE(p.get_bool(t));
  EXPECT_EQ(p.find_param("count"), i);
  EXPECT_EQ(p.find_param("missing"), -1);
  EXPECT_TRUE(p.set_param("count", 6.6f));  // Int rounds
  EXPECT_EQ(p.get_int(i), 7);
  EXPECT_TRUE(p.set_param("armed", 0));
  EXPECT_FALSE(p.get_bool(b));
  EXPECT_TRUE(p.set_trigger("jump"));
  EXPECT_TRUE(p.get_bool(t));
  EXPECT_FALSE(p.set_param("missing", 1));
  p.set_float(f, std::numeric_limits<float>::quiet_NaN());  // ignored
  EXPECT_FLOAT_EQ(p.get_float(f), 0.25f);
  p.set_float(99, 1);  // out of range: ignored
  p.reset();
  EXPECT_EQ(p.get_int(i), 2);
  EXPECT_FALSE(p.get_bool(t));
}

// ---- exit times ------------------------------------------------------------------------------------

struct ExitGraph {
  GraphBuilder gb;
  int a = 0, b = 0, go = 0;
  GraphBinding binding;
  // A (idle, 1 s) → B with an exit time and optionally a Bool condition.
  ExitGraph(float exit_time, bool with_condition, bool loop = true) {
    go = gb.param("go", ParamType::Bool);
    const int m = gb.begin_machine("root");
    a = gb.clip_state("A", "idle", loop);
    b = gb.clip_state("B", "walk");
    gb.entry(a);
    Transition& t = gb.transition(a, b, with_condition ? gb.leaf(go, ConditionOp::IsTrue) : -1);
    t.has_exit_time = true;
    t.exit_time = exit_time;
    gb.layer("base", m);
    binding = TestClips{}.bind(gb.g);
  }
};

// The update (1-based) at which the state changed, stepping kDt; 0 when it never did.
int fired_at(AnimationGraphPlayer& p, int target, int max_updates, const std::function<void(int)>& before = {}) {
  for (int u = 1; u <= max_updates; ++u) {
    if (before) before(u);
    p.update(kDt);
    if (p.current_state(0) == target) return u;
  }
  return 0;
}

TEST(GraphExitTime, FiresWhenNormalisedTimeCrosses) {
  ExitGraph eg(0.75f, false);
  AnimationGraphPlayer p(eg.gb.g, eg.binding);
  // Normalised time after update u is u × 0.125: 0.75 is reached at update 6.
  EXPECT_EQ(fired_at(p, eg.b, 20), 6);
}

TEST(GraphExitTime, ZeroFiresOnTheFirstUpdate) {
  ExitGraph eg(0.0f, false);
  AnimationGraphPlayer p(eg.gb.g, eg.binding);
  EXPECT_EQ(fired_at(p, eg.b, 20), 1);
}

TEST(GraphExitTime, BelowOneRetriesEveryLoop) {
  ExitGraph eg(0.5f, true);
  AnimationGraphPlayer p(eg.gb.g, eg.binding);
  // The condition holds from update 6 (time 0.75), after the first crossing of 0.5 (update 4):
  // the next chance is 1.5, reached at update 12.
  EXPECT_EQ(fired_at(p, eg.b, 40, [&](int u) { p.set_bool(eg.go, u >= 6); }), 12);
}

TEST(GraphExitTime, AboveOneWaitsForTheLoopItNames) {
  ExitGraph eg(2.25f, false);
  AnimationGraphPlayer p(eg.gb.g, eg.binding);
  EXPECT_EQ(fired_at(p, eg.b, 40), 18);  // 2.25 / 0.125
}

TEST(GraphExitTime, AboveOneIsMissedWhenTheConditionFailsThere) {
  ExitGraph eg(1.5f, true);
  AnimationGraphPlayer p(eg.gb.g, eg.binding);
  EXPECT_EQ(fired_at(p, eg.b, 40, [&](int u) { p.set_bool(eg.go, u >= 13); }), 0);
}

TEST(GraphExitTime, NonLoopingStateWaitsAtItsEndForTheCondition) {
  ExitGraph eg(1.0f, true, false);
  AnimationGraphPlayer p(eg.gb.g, eg.binding);
  // The clip ends at update 8; the condition comes at update 20 and fires then.
  EXPECT_EQ(fired_at(p, eg.b, 40, [&](int u) { p.set_bool(eg.go, u >= 20); }), 20);
  ExitGraph early(1.0f, true, false);
  AnimationGraphPlayer q(early.gb.g, early.binding);
  q.set_bool(early.go, true);
  EXPECT_EQ(fired_at(q, early.b, 40), 8);  // condition early: fires at the end, not before
}

TEST(GraphExitTime, SpeedParameterScalesTime) {
  ExitGraph eg(0.75f, false);
  const int speed = eg.gb.param("speed", ParamType::Float, 2);
  eg.gb.g.states[static_cast<std::size_t>(eg.a)].speed_param = speed;
  const GraphBinding binding = TestClips{}.bind(eg.gb.g);
  AnimationGraphPlayer p(eg.gb.g, binding);
  EXPECT_EQ(fired_at(p, eg.b, 20), 3);  // twice as fast
}

// ---- priorities, any state -------------------------------------------------------------------------

TEST(GraphPriority, LowerFirstThenFileOrder) {
  GraphBuilder gb;
  const int m = gb.begin_machine("root");
  const int a = gb.clip_state("A", "idle");
  const int b = gb.clip_state("B", "walk");
  const int c = gb.clip_state("C", "run");
  const int d = gb.clip_state("D", "jump");
  gb.entry(a);
  gb.transition(a, b).priority = 2;
  gb.transition(a, c).priority = 1;
  gb.transition(a, d).priority = 1;
  gb.layer("base", m);
  const GraphBinding binding = TestClips{}.bind(gb.g);
  AnimationGraphPlayer p(gb.g, binding);
  p.update(kDt);
  EXPECT_EQ(p.current_state(0), c);  // priority 1 beats 2; C before D in the file
}

TEST(GraphPriority, AnyStateCompetesByPriorityAndNeverFiresIntoTheCurrentState) {
  GraphBuilder gb;
  const int hit = gb.param("hit", ParamType::Bool);
  const int m = gb.begin_machine("root");
  const int a = gb.clip_state("A", "idle");
  const int b = gb.clip_state("B", "walk");
  const int c = gb.clip_state("C", "run");
  gb.entry(a);
  gb.transition(a, b, gb.leaf(hit, ConditionOp::IsTrue)).priority = 5;
  gb.transition(kAnyState, c, gb.leaf(hit, ConditionOp::IsTrue)).priority = 0;
  gb.layer("base", m);
  const GraphBinding binding = TestClips{}.bind(gb.g);
  AnimationGraphPlayer p(gb.g, binding);
  p.drain_signals();
  p.set_bool(hit, true);
  p.update(kDt);
  EXPECT_EQ(p.current_state(0), c);
  for (int u = 0; u < 10; ++u) p.update(kDt);  // still true: any-state must not restart C
  EXPECT_EQ(p.current_state(0), c);
  int started = 0;
  for (const GraphSignal& s : p.drain_signals()) started += s.kind == GraphSignalKind::TransitionStarted;
  EXPECT_EQ(started, 1);
}

TEST(GraphPriority, NoConditionNoExitTimeFiresAtOnceOnePerUpdate) {
  GraphBuilder gb;
  const int m = gb.begin_machine("root");
  const int a = gb.clip_state("A", "idle");
  const int b = gb.clip_state("B", "walk");
  const int c = gb.clip_state("C", "run");
  gb.entry(a);
  gb.transition(a, b);
  gb.transition(b, c);
  gb.layer("base", m);
  const GraphBinding binding = TestClips{}.bind(gb.g);
  AnimationGraphPlayer p(gb.g, binding);
  p.update(kDt);
  EXPECT_EQ(p.current_state(0), b);
  p.update(kDt);
  EXPECT_EQ(p.current_state(0), c);
}

// ---- crossfades and interruption -------------------------------------------------------------------

struct ChainGraph {
  GraphBuilder gb;
  int go_b = 0, go_c = 0, a = 0, b = 0, c = 0;
  GraphBinding binding;
  ChainGraph(bool interruptible) {
    go_b = gb.param("go_b", ParamType::Bool);
    go_c = gb.param("go_c", ParamType::Bool);
    const int m = gb.begin_machine("root");
    a = gb.clip_state("A", "idle");
    b = gb.clip_state("B", "walk");
    c = gb.clip_state("C", "run");
    gb.entry(a);
    gb.transition(a, b, gb.leaf(go_b, ConditionOp::IsTrue), 0.5f).interruptible = interruptible;
    gb.transition(b, c, gb.leaf(go_c, ConditionOp::IsTrue), 0.5f);
    gb.layer("base", m);
    binding = TestClips{}.bind(gb.g);
  }
};

TEST(GraphCrossfade, SharesFollowTheMixFraction) {
  ChainGraph cg(true);
  AnimationGraphPlayer p(cg.gb.g, cg.binding);
  p.update(kDt);  // A shown once: a transition now mixes from it (an unshown state is replaced)
  const TestClips clips;
  p.set_bool(cg.go_b, true);
  p.update(kDt);  // starts: B at fraction 0
  EXPECT_EQ(p.current_transition(0), 0);
  EXPECT_NEAR(weight_of(p.samples(), clips.clip("idle")), 1.0f, kTol);
  EXPECT_NEAR(weight_of(p.samples(), clips.clip("walk")), 0.0f, kTol);
  for (int u = 1; u <= 3; ++u) {
    p.update(kDt);
    const float m = u * kDt / 0.5f;
    EXPECT_NEAR(weight_of(p.samples(), clips.clip("walk")), m, kTol) << u;
    EXPECT_NEAR(weight_of(p.samples(), clips.clip("idle")), 1 - m, kTol) << u;
  }
  // A mixing-out state fires events while the fraction is below 0.5.
  EXPECT_EQ(sample_of(p.samples(), clips.clip("idle"))->event_threshold, std::numeric_limits<float>::infinity());
  p.update(kDt);  // fraction 1: A is gone
  EXPECT_EQ(p.samples().size(), 1u);
  EXPECT_NEAR(weight_of(p.samples(), clips.clip("walk")), 1.0f, kTol);
  EXPECT_EQ(p.current_transition(0), -1);
}

TEST(GraphCrossfade, MixingOutStateFiresEventsBelowHalf) {
  ChainGraph cg(true);
  AnimationGraphPlayer p(cg.gb.g, cg.binding);
  p.update(kDt);  // A shown once: a transition now mixes from it (an unshown state is replaced)
  const TestClips clips;
  p.set_bool(cg.go_b, true);
  p.update(kDt);
  p.update(kDt);  // fraction 0.25
  EXPECT_EQ(sample_of(p.samples(), clips.clip("idle"))->event_threshold, 0.0f);
  EXPECT_EQ(sample_of(p.samples(), clips.clip("walk"))->event_threshold, 0.0f);
  p.update(kDt);  // fraction 0.5
  EXPECT_EQ(sample_of(p.samples(), clips.clip("idle"))->event_threshold, std::numeric_limits<float>::infinity());
}

TEST(GraphSeek, SetNormalizedTimeSkipsEventsAndExitTimes) {
  // A (idle, 1 s) → B (walk) at exit time 0.5.
  GraphBuilder gb;
  const int m = gb.begin_machine("root");
  const int a = gb.clip_state("A", "idle");
  const int b = gb.clip_state("B", "walk");
  gb.entry(a);
  Transition& t = gb.transition(a, b, -1, 0);
  t.has_exit_time = true;
  t.exit_time = 0.5f;
  gb.layer("base", m);
  const TestClips clips;
  const GraphBinding binding = clips.bind(gb.g);
  AnimationGraphPlayer p(gb.g, binding);

  EXPECT_FALSE(p.set_normalized_time(1, 0.5f));
  EXPECT_FALSE(p.set_normalized_time(0, -1.0f));
  EXPECT_FALSE(p.set_normalized_time(0, std::numeric_limits<float>::quiet_NaN()));
  ASSERT_TRUE(p.set_normalized_time(0, 2.75f));  // third pass, past its exit time
  EXPECT_NEAR(p.normalized_time(0), 2.75f, kTol);
  p.update(kDt);
  // No exit time crossed between 2.75 and 2.875: still A, and the sample starts where the seek put it.
  EXPECT_EQ(p.current_state(0), a);
  EXPECT_NEAR(p.normalized_time(0), 2.875f, kTol);
  const ClipSample* s = sample_of(p.samples(), clips.clip("idle"));
  ASSERT_NE(s, nullptr);
  EXPECT_NEAR(s->previous_time, 0.75f, kTol);
  EXPECT_NEAR(s->time, 0.875f, kTol);
  EXPECT_EQ(s->loops, 0);
  EXPECT_TRUE(s->first);
  // Played on, it crosses 3.5 and fires the transition.
  for (int u = 0; u < 5; ++u) p.update(kDt);
  EXPECT_EQ(p.current_state(0), b);
}

TEST(GraphInterruption, NonInterruptibleTransitionFinishesFirst) {
  ChainGraph cg(false);
  AnimationGraphPlayer p(cg.gb.g, cg.binding);
  p.update(kDt);
  p.set_bool(cg.go_b, true);
  p.set_bool(cg.go_c, true);
  p.update(kDt);  // A → B starts (0.5 s, 4 updates)
  EXPECT_EQ(p.current_state(0), cg.b);
  for (int u = 0; u < 3; ++u) {
    p.update(kDt);
    EXPECT_EQ(p.current_state(0), cg.b) << u;
  }
  p.update(kDt);  // the mix completes at this update's start of evaluation: B → C may fire
  EXPECT_EQ(p.current_state(0), cg.c);
}

TEST(GraphInterruption, InterruptibleTransitionChainsMixes) {
  ChainGraph cg(true);
  AnimationGraphPlayer p(cg.gb.g, cg.binding);
  p.update(kDt);  // A shown once: a transition now mixes from it (an unshown state is replaced)
  const TestClips clips;
  p.set_bool(cg.go_b, true);
  p.update(kDt);  // A → B starts
  p.set_bool(cg.go_c, true);
  p.update(kDt);  // B at 0.25 is interrupted: C starts at 0
  EXPECT_EQ(p.current_state(0), cg.c);
  EXPECT_EQ(p.current_transition(0), 1);
  EXPECT_NEAR(weight_of(p.samples(), clips.clip("run")), 0.0f, kTol);
  EXPECT_NEAR(weight_of(p.samples(), clips.clip("walk")), 0.25f, kTol);
  EXPECT_NEAR(weight_of(p.samples(), clips.clip("idle")), 0.75f, kTol);
  p.update(kDt);  // C 0.25; B 0.5 of the rest 0.75; A the remainder
  EXPECT_NEAR(weight_of(p.samples(), clips.clip("run")), 0.25f, kTol);
  EXPECT_NEAR(weight_of(p.samples(), clips.clip("walk")), 0.375f, kTol);
  EXPECT_NEAR(weight_of(p.samples(), clips.clip("idle")), 0.375f, kTol);
  EXPECT_NEAR(layer_sum(p.samples(), 0), 1.0f, kTol);
  // The rotation latches: the oldest sample is the reference, the others own a latch.
  const ClipSample* idle = sample_of(p.samples(), clips.clip("idle"));
  EXPECT_EQ(idle->rotation_latch, nullptr);
  EXPECT_NE(sample_of(p.samples(), clips.clip("walk"))->rotation_latch, nullptr);
  EXPECT_NE(sample_of(p.samples(), clips.clip("run"))->rotation_latch, nullptr);
  for (int u = 0; u < 3; ++u) p.update(kDt);
  EXPECT_EQ(p.samples().size(), 1u);  // C complete: the older ones ended
}

TEST(GraphInterruption, ChainIsCappedAtTheTracksLimit) {
  GraphBuilder gb;
  const int next = gb.param("next", ParamType::Trigger);
  const int m = gb.begin_machine("root");
  const int a = gb.clip_state("A", "idle");
  const int b = gb.clip_state("B", "walk");
  gb.entry(a);
  gb.transition(a, b, gb.leaf(next, ConditionOp::IsSet), 10);
  gb.transition(b, a, gb.leaf(next, ConditionOp::IsSet), 10);
  gb.layer("base", m);
  const GraphBinding binding = TestClips{}.bind(gb.g);
  AnimationGraphPlayer p(gb.g, binding);
  for (int u = 0; u < 10; ++u) {
    p.set_trigger(next);
    p.update(kDt);
    EXPECT_LE(p.samples().size(), static_cast<std::size_t>(kMaxMixChain));
    EXPECT_NEAR(layer_sum(p.samples(), 0), 1.0f, 1e-5f);
  }
}

// ---- triggers ----------------------------------------------------------------------------------------

TEST(GraphTriggers, ConsumedOnlyByTheTransitionThatFires) {
  GraphBuilder gb;
  const int jump = gb.param("jump", ParamType::Trigger);
  const int attack = gb.param("attack", ParamType::Trigger);
  const int armed = gb.param("armed", ParamType::Bool);
  const int m = gb.begin_machine("root");
  const int a = gb.clip_state("A", "idle");
  const int b = gb.clip_state("B", "jump");
  const int c = gb.clip_state("C", "aim");
  gb.entry(a);
  gb.transition(a, c, gb.all({gb.leaf(attack, ConditionOp::IsSet), gb.leaf(armed, ConditionOp::IsTrue)}));
  gb.transition(a, b, gb.any({gb.leaf(jump, ConditionOp::IsSet), gb.leaf(attack, ConditionOp::IsSet)}));
  gb.transition(b, a, gb.leaf(jump, ConditionOp::IsSet));
  gb.layer("base", m);
  const GraphBinding binding = TestClips{}.bind(gb.g);
  AnimationGraphPlayer p(gb.g, binding);

  p.set_trigger(attack);
  p.update(kDt);  // A → C needs armed: not taken; A → B takes the attack trigger
  EXPECT_EQ(p.current_state(0), b);
  EXPECT_FALSE(p.get_bool(attack));  // consumed by A → B
  p.update(kDt);
  EXPECT_EQ(p.current_state(0), b);  // B → A needs jump, still unset

  p.set_trigger(jump);
  p.set_trigger(attack);
  p.update(kDt);  // B → A fires, consuming jump; attack stays (B → A does not test it)
  EXPECT_EQ(p.current_state(0), a);
  EXPECT_FALSE(p.get_bool(jump));
  EXPECT_TRUE(p.get_bool(attack));

  // A trigger no transition can use stays set for as long as it takes.
  p.set_bool(armed, true);
  p.update(kDt);  // A → C: attack and armed
  EXPECT_EQ(p.current_state(0), c);
  EXPECT_FALSE(p.get_bool(attack));
  p.set_trigger(jump);
  for (int u = 0; u < 5; ++u) p.update(kDt);
  EXPECT_TRUE(p.get_bool(jump));
}

// ---- blend spaces in the player ----------------------------------------------------------------------

TEST(GraphBlendSpace, MembersStaySynchronisedOnTheWeightedLength) {
  GraphBuilder gb;
  const int speed = gb.param("speed", ParamType::Float, 0.5f);
  const int m = gb.begin_machine("root");
  // idle 1 s at 0, run 0.5 s at 1.
  gb.entry(gb.blend1d("move", speed, {{"idle", 0}, {"run", 1}}));
  gb.layer("base", m);
  const TestClips clips;
  const GraphBinding binding = clips.bind(gb.g);
  AnimationGraphPlayer p(gb.g, binding);
  // Weights 0.5 / 0.5: synchronised length 0.5 × 1 + 0.5 × 0.5 = 0.75 s. 0.375 s is half a pass.
  p.update(0.375f);
  EXPECT_NEAR(p.normalized_time(0), 0.5f, kTol);
  const ClipSample* idle = sample_of(p.samples(), clips.clip("idle"));
  const ClipSample* run = sample_of(p.samples(), clips.clip("run"));
  ASSERT_TRUE(idle && run);
  EXPECT_NEAR(idle->time, 0.5f, kTol);   // 0.5 × 1 s
  EXPECT_NEAR(run->time, 0.25f, kTol);   // 0.5 × 0.5 s: the same phase
  EXPECT_NEAR(idle->weight, 0.5f, kTol);
  EXPECT_NEAR(run->weight, 0.5f, kTol);
  // Ties: the first member fires the events, the other none.
  EXPECT_EQ(idle->event_threshold, 0.0f);
  EXPECT_EQ(run->event_threshold, std::numeric_limits<float>::infinity());

  // speed 0.75: weights 0.25 / 0.75, length 0.25 + 0.375 = 0.625 s; 0.3125 s is another half pass.
  p.set_float(speed, 0.75f);
  p.update(0.3125f);
  EXPECT_NEAR(p.normalized_time(0), 1.0f, kTol);
  idle = sample_of(p.samples(), clips.clip("idle"));
  run = sample_of(p.samples(), clips.clip("run"));
  EXPECT_NEAR(idle->weight, 0.25f, kTol);
  EXPECT_NEAR(run->weight, 0.75f, kTol);
  EXPECT_NEAR(idle->time, 1.0f, kTol);  // exactly a whole pass: the end pose, not yet wrapped
  EXPECT_NEAR(run->time, 0.5f, kTol);
  EXPECT_EQ(idle->loops, 0);
  EXPECT_EQ(run->event_threshold, 0.0f);  // now the loudest
  EXPECT_EQ(idle->event_threshold, std::numeric_limits<float>::infinity());

  // Past the end: wrapped, a loop completed.
  p.update(0.0625f);  // a tenth of a pass
  idle = sample_of(p.samples(), clips.clip("idle"));
  ASSERT_TRUE(idle);
  EXPECT_NEAR(idle->time, 0.1f, 1e-5f);
  EXPECT_NEAR(idle->previous_time, 1.0f, kTol);
  EXPECT_EQ(idle->loops, 1);
}

TEST(GraphBlendSpace, MemberSpeedShortensItsLength) {
  GraphBuilder gb;
  const int x = gb.param("x", ParamType::Float, 0);
  const int m = gb.begin_machine("root");
  gb.entry(gb.blend1d("move", x, {{"idle", 0, 0, 2}, {"run", 1}}));
  gb.layer("base", m);
  const GraphBinding binding = TestClips{}.bind(gb.g);
  AnimationGraphPlayer p(gb.g, binding);
  p.update(0.25f);  // idle alone at speed 2: length 0.5 s
  EXPECT_NEAR(p.normalized_time(0), 0.5f, kTol);
}

TEST(GraphBlendSpace, TwoDimensionalWeightsInThePlayer) {
  GraphBuilder gb;
  const int x = gb.param("x", ParamType::Float, 0.25f);
  const int y = gb.param("y", ParamType::Float, 0.25f);
  const int m = gb.begin_machine("root");
  // A unit right triangle plus a fourth point: two triangles sharing the diagonal.
  gb.entry(gb.blend2d("aim", x, y, {{"idle", 0, 0}, {"walk", 1, 0}, {"run", 0, 1}, {"jump", 1, 1}},
                      {{0, 1, 2}, {1, 3, 2}}, {{0, 1}, {1, 3}, {3, 2}, {2, 0}}));
  gb.layer("base", m);
  const TestClips clips;
  const GraphBinding binding = clips.bind(gb.g);
  AnimationGraphPlayer p(gb.g, binding);
  p.update(kDt);
  // (0.25, 0.25) in triangle (0,0) (1,0) (0,1): weights 0.5, 0.25, 0.25.
  const auto w = p.blend_weights(0);
  ASSERT_EQ(w.size(), 4u);
  EXPECT_NEAR(w[0], 0.5f, kTol);
  EXPECT_NEAR(w[1], 0.25f, kTol);
  EXPECT_NEAR(w[2], 0.25f, kTol);
  EXPECT_NEAR(w[3], 0.0f, kTol);
  EXPECT_EQ(p.samples().size(), 3u);  // zero-weight members write nothing
  EXPECT_NEAR(layer_sum(p.samples(), 0), 1.0f, kTol);
}

// ---- layers ----------------------------------------------------------------------------------------

TEST(GraphLayers, MaskedAdditiveLayerWritesItsOwnSampleLayer) {
  GraphBuilder gb;
  const int base = gb.begin_machine("base");
  gb.entry(gb.clip_state("Idle", "idle"));
  const int upper = gb.begin_machine("upper");
  gb.entry(gb.clip_state("Wave", "wave"));
  gb.layer("base", base);
  gb.layer("upper", upper, 0.5f, ClipBlend::Additive, {"arm", "hand"});
  const TestClips clips;
  const GraphBinding binding = clips.bind(gb.g);
  AnimationGraphPlayer p(gb.g, binding);
  EXPECT_EQ(p.layer_count(), 2);
  p.update(kDt);
  ASSERT_EQ(p.samples().size(), 2u);
  const ClipSample& s0 = p.samples()[0];
  const ClipSample& s1 = p.samples()[1];
  EXPECT_EQ(s0.layer, 0);
  EXPECT_EQ(s0.blend, ClipBlend::Replace);
  EXPECT_EQ(s0.mask, nullptr);
  EXPECT_EQ(s1.layer, 1);
  EXPECT_EQ(s1.clip, clips.clip("wave"));
  EXPECT_EQ(s1.blend, ClipBlend::Additive);
  EXPECT_NEAR(s1.weight, 0.5f, kTol);
  ASSERT_NE(s1.mask, nullptr);
  EXPECT_FALSE(s1.mask->contains(0));
  EXPECT_FALSE(s1.mask->contains(1));
  EXPECT_TRUE(s1.mask->contains(2));
  EXPECT_TRUE(s1.mask->contains(3));
}

TEST(GraphLayers, UnknownNamesAreBindErrors) {
  GraphBuilder gb;
  const int m = gb.begin_machine("base");
  gb.entry(gb.clip_state("Idle", "nope"));
  gb.layer("base", m, 1, ClipBlend::Replace, {"tail"});
  const TestClips clips;
  auto b = bind_graph(gb.g, clips.names, clips.lengths, clips.bones);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message.find("'nope'"), std::string::npos) << b.error().to_string();
  EXPECT_EQ(b.error().path, "states[0].clip");
  gb.g.states[0].clip = "idle";
  auto b2 = bind_graph(gb.g, clips.names, clips.lengths, clips.bones);
  ASSERT_FALSE(b2.ok());
  EXPECT_NE(b2.error().message.find("'tail'"), std::string::npos) << b2.error().to_string();
  gb.g.layers[0].machine = 7;
  auto b3 = bind_graph(gb.g, clips.names, clips.lengths, clips.bones);
  ASSERT_FALSE(b3.ok());
  EXPECT_NE(b3.error().message.find("layers[0].machine"), std::string::npos) << b3.error().to_string();
}

// ---- nested machines -------------------------------------------------------------------------------

struct NestedGraph {
  GraphBuilder gb;
  int go = 0, leave = 0, falling = 0, land = 0;
  int idle = 0, walk = 0, ground = 0, air = 0, fall = 0;
  int ground_to_air = 0;
  GraphBinding binding;
  explicit NestedGraph(bool exit_needs_condition = false) {
    go = gb.param("go", ParamType::Bool);
    leave = gb.param("leave", ParamType::Trigger);
    falling = gb.param("falling", ParamType::Bool);
    land = gb.param("land", ParamType::Bool);
    const int sub = gb.begin_machine("ground");
    idle = gb.clip_state("Idle", "idle");
    walk = gb.clip_state("Walk", "walk");
    gb.entry(idle);
    gb.transition(idle, walk, gb.leaf(go, ConditionOp::IsTrue));
    gb.transition(walk, kExitState, gb.leaf(leave, ConditionOp::IsSet));
    const int root = gb.begin_machine("root");
    ground = gb.machine_state("Ground", sub);
    air = gb.clip_state("Air", "jump");
    fall = gb.clip_state("Fall", "fall");
    gb.entry(ground);
    ground_to_air = static_cast<int>(gb.g.transitions.size());
    Transition& t = gb.transition(ground, air, exit_needs_condition ? gb.leaf(land, ConditionOp::IsFalse) : -1);
    t.has_exit_time = true;
    gb.transition(ground, fall, gb.leaf(falling, ConditionOp::IsTrue));
    gb.transition(air, ground, gb.leaf(land, ConditionOp::IsTrue));
    gb.layer("base", root);
    binding = TestClips{}.bind(gb.g);
  }
};

TEST(GraphNested, EntersExitsAndSignals) {
  NestedGraph ng;
  AnimationGraphPlayer p(ng.gb.g, ng.binding);
  EXPECT_EQ(p.current_top_state(0), ng.ground);
  EXPECT_EQ(p.current_state(0), ng.idle);
  auto sig = p.drain_signals();
  ASSERT_EQ(sig.size(), 2u);
  EXPECT_EQ(sig[0].kind, GraphSignalKind::StateEntered);
  EXPECT_EQ(sig[0].state, ng.ground);
  EXPECT_EQ(sig[1].state, ng.idle);

  p.set_bool(ng.go, true);
  p.update(kDt);
  EXPECT_EQ(p.current_state(0), ng.walk);
  EXPECT_EQ(p.current_top_state(0), ng.ground);
  sig = p.drain_signals();
  ASSERT_EQ(sig.size(), 3u);
  EXPECT_EQ(sig[0].kind, GraphSignalKind::StateExited);
  EXPECT_EQ(sig[0].state, ng.idle);
  EXPECT_EQ(sig[1].kind, GraphSignalKind::TransitionStarted);
  EXPECT_EQ(sig[1].state, ng.walk);
  EXPECT_EQ(sig[1].transition, 0);
  EXPECT_EQ(sig[2].kind, GraphSignalKind::StateEntered);
  EXPECT_EQ(sig[2].state, ng.walk);

  // Walk → exit: the parent's exit-time transition Ground → Air fires in the same update.
  p.set_trigger(ng.leave);
  p.update(kDt);
  EXPECT_FALSE(p.get_bool(ng.leave));
  EXPECT_EQ(p.current_state(0), ng.air);
  EXPECT_EQ(p.current_top_state(0), ng.air);
  EXPECT_EQ(p.current_path(0).size(), 1u);
  sig = p.drain_signals();
  ASSERT_EQ(sig.size(), 4u);
  EXPECT_EQ(sig[0].kind, GraphSignalKind::StateExited);
  EXPECT_EQ(sig[0].state, ng.walk);  // innermost first
  EXPECT_EQ(sig[1].kind, GraphSignalKind::StateExited);
  EXPECT_EQ(sig[1].state, ng.ground);
  EXPECT_EQ(sig[2].kind, GraphSignalKind::TransitionStarted);
  EXPECT_EQ(sig[2].transition, ng.ground_to_air);
  EXPECT_EQ(sig[3].kind, GraphSignalKind::StateEntered);
  EXPECT_EQ(sig[3].state, ng.air);

  // Back into Ground: its machine starts again at its entry state.
  p.set_bool(ng.go, false);
  p.set_bool(ng.land, true);
  p.update(kDt);
  EXPECT_EQ(p.current_top_state(0), ng.ground);
  EXPECT_EQ(p.current_state(0), ng.idle);
}

TEST(GraphNested, ParentConditionalTransitionsFireAnyTime) {
  NestedGraph ng;
  AnimationGraphPlayer p(ng.gb.g, ng.binding);
  p.set_bool(ng.go, true);
  p.update(kDt);
  EXPECT_EQ(p.current_state(0), ng.walk);
  p.set_bool(ng.falling, true);
  p.update(kDt);
  EXPECT_EQ(p.current_state(0), ng.fall);
  EXPECT_EQ(p.current_path(0).size(), 1u);
}

TEST(GraphNested, ExitedMachineWaitsForItsParent) {
  NestedGraph ng(true);  // Ground → Air also needs land == false
  AnimationGraphPlayer p(ng.gb.g, ng.binding);
  p.set_bool(ng.land, true);
  p.set_bool(ng.go, true);
  p.update(kDt);
  p.set_trigger(ng.leave);
  p.update(kDt);  // the sub-machine exits, the parent cannot leave yet
  EXPECT_EQ(p.current_top_state(0), ng.ground);
  EXPECT_EQ(p.current_state(0), ng.walk);  // keeps playing its last state
  p.set_bool(ng.go, false);
  for (int u = 0; u < 4; ++u) p.update(kDt);
  EXPECT_EQ(p.current_top_state(0), ng.ground);
  p.set_bool(ng.land, false);
  p.update(kDt);
  EXPECT_EQ(p.current_state(0), ng.air);
}

TEST(GraphNested, ExitFromTheRootMachineReentersItsEntry) {
  GraphBuilder gb;
  const int done = gb.param("done", ParamType::Trigger);
  const int m = gb.begin_machine("root");
  const int a = gb.clip_state("A", "idle");
  const int b = gb.clip_state("B", "walk");
  gb.entry(a);
  gb.transition(a, b);
  gb.transition(b, kExitState, gb.leaf(done, ConditionOp::IsSet), 0.25f);
  gb.layer("base", m);
  const GraphBinding binding = TestClips{}.bind(gb.g);
  AnimationGraphPlayer p(gb.g, binding);
  p.update(kDt);
  EXPECT_EQ(p.current_state(0), b);
  p.set_trigger(done);
  p.update(kDt);
  EXPECT_EQ(p.current_state(0), a);
  EXPECT_EQ(p.current_transition(0), 1);
}

// ---- gameplay control ------------------------------------------------------------------------------

TEST(GraphControl, ForceStateReachesNestedStates) {
  NestedGraph ng;
  AnimationGraphPlayer p(ng.gb.g, ng.binding);
  p.update(kDt);
  ASSERT_TRUE(p.force_state(0, ng.fall, 0.25f));
  EXPECT_EQ(p.current_state(0), ng.fall);
  p.update(kDt);
  EXPECT_NEAR(layer_sum(p.samples(), 0), 1.0f, kTol);
  EXPECT_NEAR(weight_of(p.samples(), TestClips{}.clip("fall")), 0.5f, kTol);
  ASSERT_TRUE(p.force_state(0, ng.walk));
  EXPECT_EQ(p.current_top_state(0), ng.ground);
  EXPECT_EQ(p.current_state(0), ng.walk);
  EXPECT_FALSE(p.force_state(0, 999));
  EXPECT_FALSE(p.force_state(3, ng.walk));
}

TEST(GraphControl, TravelWalksTheShortestPathOneHopPerUpdate) {
  GraphBuilder gb;
  const int never = gb.param("never", ParamType::Bool);
  const int m = gb.begin_machine("root");
  const int a = gb.clip_state("A", "idle");
  const int b = gb.clip_state("B", "walk");
  const int c = gb.clip_state("C", "run");
  const int d = gb.clip_state("D", "jump");
  gb.entry(a);
  const int off = gb.leaf(never, ConditionOp::IsTrue);
  gb.transition(a, b, off, 0.125f);
  gb.transition(b, c, off, 0.125f);
  gb.transition(c, d, off, 0.125f);
  gb.transition(a, c, off, 0.125f).priority = 3;  // the shortcut: A → C → D
  gb.layer("base", m);
  const GraphBinding binding = TestClips{}.bind(gb.g);
  AnimationGraphPlayer p(gb.g, binding);
  ASSERT_TRUE(p.travel(0, d));
  EXPECT_TRUE(p.travelling(0));
  p.update(kDt);
  EXPECT_EQ(p.current_state(0), c);
  EXPECT_EQ(p.current_transition(0), 3);
  p.update(kDt);
  EXPECT_EQ(p.current_state(0), d);
  EXPECT_FALSE(p.travelling(0));
  EXPECT_FALSE(p.travel(0, a));  // no transition leads back
  EXPECT_TRUE(p.travel(0, d));   // already there
}

TEST(GraphControl, TravelIntoANestedMachine) {
  NestedGraph ng;
  AnimationGraphPlayer p(ng.gb.g, ng.binding);
  p.set_bool(ng.falling, true);
  p.update(kDt);
  EXPECT_EQ(p.current_state(0), ng.fall);
  p.set_bool(ng.falling, false);
  // Fall has no way out: no path.
  EXPECT_FALSE(p.travel(0, ng.walk));
  ASSERT_TRUE(p.force_state(0, ng.air));
  p.update(kDt);
  ASSERT_TRUE(p.travel(0, ng.walk));  // Air → Ground (enters Idle) → Walk
  p.update(kDt);
  EXPECT_EQ(p.current_state(0), ng.idle);
  p.update(kDt);
  EXPECT_EQ(p.current_state(0), ng.walk);
  EXPECT_FALSE(p.travelling(0));
}

// ---- determinism -------------------------------------------------------------------------------------

TEST(GraphDeterminism, SameInputsGiveIdenticalSamples) {
  ChainGraph cg(true);
  AnimationGraphPlayer p1(cg.gb.g, cg.binding), p2(cg.gb.g, cg.binding);
  for (int f = 0; f < 500; ++f) {
    for (AnimationGraphPlayer* p : {&p1, &p2}) {
      p->set_bool(cg.go_b, f % 37 < 20);
      p->set_bool(cg.go_c, f % 53 < 10);
      if (f % 101 == 0) p->force_state(0, cg.a, 0.3f);
      p->update(1.0f / 60 + static_cast<float>(f % 7) * 1e-3f);
    }
    ASSERT_EQ(p1.samples().size(), p2.samples().size());
    for (std::size_t i = 0; i < p1.samples().size(); ++i) {
      const ClipSample &x = p1.samples()[i], &y = p2.samples()[i];
      EXPECT_EQ(x.clip, y.clip);
      EXPECT_EQ(std::memcmp(&x.time, &y.time, sizeof(float)), 0);
      EXPECT_EQ(std::memcmp(&x.weight, &y.weight, sizeof(float)), 0);
    }
  }
}

}  // namespace
}  // namespace mf::anim
