// The animation graph's per-frame cost on a locomotion-like graph: a 1D blend space of 3 clips, a 2D
// blend space of 5, a crossfade between them always running (the mode flips every 0.4 s, the mix
// takes 0.4 s), a trigger-driven nested jump machine, and an additive layer masked to one bone chain.
// Measured for the player alone, and for the player plus clip sampling on the mid-complexity rig
// (40 bones); for 1 and 200 characters with staggered parameters.

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "mf/anim/animation_graph_player.hpp"
#include "mf/skel/animated_skeleton.hpp"
#include "mf/skel/clip_sampler.hpp"
#include "mf/skel/skeleton_pose.hpp"
#include "synthetic_rig.hpp"

namespace {

using namespace mf;
using anim::ConditionOp;
using anim::ParamType;

// The mid-complexity rig with its clip "move" also known under the names the graph uses (every
// alias samples the same 2 s clip: the cost is the same as distinct clips of that size).
const skel::SkeletonData& rig() {
  static const std::shared_ptr<skel::SkeletonData> data = [] {
    auto built = testing::build_synthetic(testing::make_mid_complexity_rig());
    auto copy = std::make_shared<skel::SkeletonData>(*built.data);
    const skel::SkeletonData::ClipEntry move = copy->clips[static_cast<std::size_t>(copy->find_clip("move"))];
    for (const char* name : {"idle", "walk", "run", "strafe_l", "strafe_r", "back", "jump", "fall", "wave"}) {
      skel::SkeletonData::ClipEntry alias = move;
      alias.name = name;
      copy->clips.push_back(alias);
    }
    return copy;
  }();
  return *data;
}

struct Locomotion {
  anim::AnimationGraph g;
  int speed = 0, aim_x = 0, aim_y = 0, mode = 0, jump = 0;

  int param(const char* name, ParamType type) {
    g.params.push_back({name, type, 0});
    return static_cast<int>(g.params.size() - 1);
  }
  int leaf(int p, ConditionOp op, float v = 0) {
    anim::ConditionNode n;
    n.param = p;
    n.op = op;
    n.value = v;
    g.conditions.push_back(n);
    return static_cast<int>(g.conditions.size() - 1);
  }
  int begin(const char* name) {
    anim::StateMachine m;
    m.name = name;
    m.state_first = static_cast<std::uint32_t>(g.states.size());
    m.transition_first = static_cast<std::uint32_t>(g.transitions.size());
    g.machines.push_back(m);
    return static_cast<int>(g.machines.size() - 1);
  }
  int state(anim::GraphState s) {
    g.states.push_back(std::move(s));
    ++g.machines.back().state_count;
    return static_cast<int>(g.states.size() - 1);
  }
  int clip(const char* name, const char* clip, bool loop = true) {
    anim::GraphState s;
    s.name = name;
    s.clip = clip;
    s.loop = loop;
    return state(s);
  }
  anim::Transition& transition(int from, int to, int condition, float duration) {
    anim::Transition t;
    t.from = from;
    t.to = to;
    t.condition = condition;
    t.duration = duration;
    g.transitions.push_back(t);
    ++g.machines.back().transition_count;
    return g.transitions.back();
  }

  Locomotion() {
    speed = param("speed", ParamType::Float);
    aim_x = param("aim_x", ParamType::Float);
    aim_y = param("aim_y", ParamType::Float);
    mode = param("mode", ParamType::Int);
    jump = param("jump", ParamType::Trigger);

    begin("air");
    const int rise = clip("Rise", "jump", false);
    const int fall = clip("Fall", "fall");
    g.machines.back().entry = rise;
    transition(rise, fall, -1, 0.1f).has_exit_time = true;
    anim::Transition& out = transition(fall, anim::kExitState, -1, 0.1f);
    out.has_exit_time = true;
    out.exit_time = 1;

    const int root = begin("root");
    anim::GraphState move;
    move.name = "Move";
    move.kind = anim::StateKind::BlendSpace1D;
    move.param_x = speed;
    move.member_first = static_cast<std::uint32_t>(g.members.size());
    move.member_count = 3;
    g.members.push_back({"idle", 0, 0, 1});
    g.members.push_back({"walk", 1, 0, 1});
    g.members.push_back({"run", 3, 0, 1});
    const int move_state = state(move);
    anim::GraphState strafe;
    strafe.name = "Strafe";
    strafe.kind = anim::StateKind::BlendSpace2D;
    strafe.param_x = aim_x;
    strafe.param_y = aim_y;
    strafe.member_first = static_cast<std::uint32_t>(g.members.size());
    strafe.member_count = 5;
    g.members.push_back({"idle", 0, 0, 1});
    g.members.push_back({"strafe_r", 1, 0, 1});
    g.members.push_back({"walk", 0, 1, 1});
    g.members.push_back({"strafe_l", -1, 0, 1});
    g.members.push_back({"back", 0, -1, 1});
    strafe.triangle_first = static_cast<std::uint32_t>(g.triangles.size());
    strafe.triangle_count = 4;
    g.triangles.insert(g.triangles.end(), {{0, 1, 2}, {0, 2, 3}, {0, 3, 4}, {0, 4, 1}});
    strafe.hull_first = static_cast<std::uint32_t>(g.hull_edges.size());
    strafe.hull_count = 4;
    g.hull_edges.insert(g.hull_edges.end(), {{1, 2}, {2, 3}, {3, 4}, {4, 1}});
    const int strafe_state = state(strafe);
    anim::GraphState air;
    air.name = "Air";
    air.kind = anim::StateKind::Machine;
    air.machine = 0;
    const int air_state = state(air);
    g.machines.back().entry = move_state;
    transition(anim::kAnyState, air_state, leaf(jump, ConditionOp::IsSet), 0.15f);
    transition(move_state, strafe_state, leaf(mode, ConditionOp::Equal, 1), 0.4f);
    transition(strafe_state, move_state, leaf(mode, ConditionOp::Equal, 0), 0.4f);
    transition(air_state, move_state, -1, 0.2f).has_exit_time = true;

    const int upper = begin("upper");
    g.machines.back().entry = clip("Wave", "wave");
    g.layers.push_back({"base", 1, anim::ClipBlend::Replace, root, {}});
    std::vector<std::string> mask;
    for (int k = 0; k < 8; ++k) mask.push_back("c2_" + std::to_string(k));
    g.layers.push_back({"upper", 0.6f, anim::ClipBlend::Additive, upper, mask});
  }
};

const Locomotion& graph() {
  static const Locomotion l;
  return l;
}

const anim::GraphBinding& binding() {
  static const anim::GraphBinding b = [] {
    auto r = skel::bind_graph(graph().g, rig());
    if (!r) std::abort();
    return std::move(r).value();
  }();
  return b;
}

// One character's inputs for a frame: speed sweeps, aim circles, mode flips every 24 frames (a
// 0.4 s crossfade always runs), a jump every 15 s (4 s in the air).
void drive(anim::AnimationGraphPlayer& p, const Locomotion& l, int character, int frame) {
  const float t = static_cast<float>(frame + character * 7) / 60;
  p.set_float(l.speed, 1.5f + 1.5f * std::sin(t));
  p.set_float(l.aim_x, std::cos(t * 1.3f));
  p.set_float(l.aim_y, std::sin(t * 1.3f));
  p.set_int(l.mode, ((frame + character * 5) / 24) % 2);
  if ((frame + character * 13) % 900 == 0) p.set_trigger(l.jump);
}

struct Players {
  explicit Players(int count) {
    for (int i = 0; i < count; ++i) players.push_back(std::make_unique<anim::AnimationGraphPlayer>(graph().g, binding()));
    for (int f = 0; f < 120; ++f) step(f);  // warm: every state visited, mixes running
  }
  std::size_t step(int frame) {
    std::size_t samples = 0;
    for (std::size_t i = 0; i < players.size(); ++i) {
      drive(*players[i], graph(), static_cast<int>(i), frame);
      players[i]->update(1.0f / 60);
      samples += players[i]->samples().size();
      players[i]->drain_signals();
    }
    return samples;
  }
  std::vector<std::unique_ptr<anim::AnimationGraphPlayer>> players;
};

void BM_GraphPlayer(benchmark::State& state) {
  Players p(static_cast<int>(state.range(0)));
  int frame = 120;
  std::size_t samples = 0;
  for (auto _ : state) samples += p.step(frame++);
  state.counters["samples/player"] =
      static_cast<double>(samples) / static_cast<double>(state.iterations() * static_cast<std::size_t>(state.range(0)));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_GraphPlayerAndSampling(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  Players p(n);
  std::vector<skel::SkeletonPose> poses;
  for (int i = 0; i < n; ++i) poses.emplace_back(rig());
  skel::ClipSampler sampler(rig());
  skel::EventBuffer events;
  int frame = 120;
  for (auto _ : state) {
    for (std::size_t i = 0; i < p.players.size(); ++i) {
      anim::AnimationGraphPlayer& player = *p.players[i];
      drive(player, graph(), static_cast<int>(i), frame);
      player.update(1.0f / 60);
      events.clear();
      sampler.apply(poses[i], player.samples(), events);
      player.drain_signals();
    }
    ++frame;
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

BENCHMARK(BM_GraphPlayer)->Arg(1)->Arg(200)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GraphPlayerAndSampling)->Arg(1)->Arg(200)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
