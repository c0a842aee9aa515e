// AnimationGraphPlayer allocates nothing per frame after construction. Global operator new and
// delete are replaced by counting versions; thousands of frames of parameter changes, crossfades and
// interruptions, 1D and 2D blend spaces, nested machines entered and exited, a masked additive
// layer, triggers, force_state, travel and signal draining allocate zero times.

#include <gtest/gtest.h>

#include "counting_new.hpp"

#include <cmath>

#include "anim/graph_builder.hpp"
#include "mf/anim/animation_graph_player.hpp"

namespace mf::anim {
namespace {

TEST(GraphAllocation, SteadyFramesAllocateNothing) {
  test::GraphBuilder gb;
  const int speed = gb.param("speed", ParamType::Float);
  const int aim_x = gb.param("aim_x", ParamType::Float);
  const int aim_y = gb.param("aim_y", ParamType::Float);
  const int jump = gb.param("jump", ParamType::Trigger);
  const int grounded = gb.param("grounded", ParamType::Bool, 1);
  const int mode = gb.param("mode", ParamType::Int);

  const int air_m = gb.begin_machine("air");
  const int rise = gb.clip_state("Rise", "jump", false);
  const int fall = gb.clip_state("Fall", "fall");
  gb.entry(rise);
  gb.transition(rise, fall).has_exit_time = true;
  gb.transition(fall, kExitState, gb.leaf(grounded, ConditionOp::IsTrue), 0.1f);

  const int root = gb.begin_machine("root");
  const int move = gb.blend1d("Move", speed, {{"idle", 0}, {"walk", 1}, {"run", 3}});
  const int strafe = gb.blend2d("Strafe", aim_x, aim_y,
                                {{"idle", 0, 0}, {"walk", 1, 0}, {"run", 0, 1}, {"jump", -1, 0}, {"fall", 0, -1}},
                                {{0, 1, 2}, {0, 2, 3}, {0, 3, 4}, {0, 4, 1}}, {{1, 2}, {2, 3}, {3, 4}, {4, 1}});
  const int air = gb.machine_state("Air", air_m);
  const int land = gb.clip_state("Land", "land", false);
  gb.entry(move);
  gb.transition(kAnyState, air, gb.leaf(jump, ConditionOp::IsSet), 0.15f);
  gb.transition(move, strafe, gb.leaf(mode, ConditionOp::Equal, 1), 0.3f);
  gb.transition(strafe, move, gb.leaf(mode, ConditionOp::Equal, 0), 0.3f).interruptible = false;
  Transition& t = gb.transition(air, land, -1, 0.1f);
  t.has_exit_time = true;
  gb.transition(land, move, -1, 0.2f).has_exit_time = true;

  const int upper_m = gb.begin_machine("upper");
  gb.entry(gb.clip_state("Wave", "wave"));
  gb.layer("base", root);
  gb.layer("upper", upper_m, 0.7f, ClipBlend::Additive, {"arm", "hand"});

  const test::TestClips clips;
  const GraphBinding binding = clips.bind(gb.g);
  const std::size_t at_start = testing::allocation_count();
  AnimationGraphPlayer player(gb.g, binding);
  EXPECT_GT(testing::allocation_count(), at_start);  // the counter sees construction

  std::size_t samples = 0, signals = 0, states_seen = 0;
  auto frame = [&](int f) {
    player.set_float(speed, static_cast<float>(f % 240) / 80.0f);
    player.set_float(aim_x, std::sin(static_cast<float>(f) * 0.05f) * 1.5f);
    player.set_float(aim_y, std::cos(static_cast<float>(f) * 0.03f) * 1.5f);
    player.set_int(mode, (f / 150) % 2);
    if (f % 97 == 0) {
      player.set_trigger(jump);
      player.set_bool(grounded, false);
    }
    if (f % 97 == 40) player.set_bool(grounded, true);
    if (f % 331 == 0) player.force_state(0, fall, 0.2f);
    if (f % 419 == 0) player.travel(0, strafe);
    if (f % 701 == 0) player.set_param("speed", 2.0f);
    player.update(1.0f / 60);
    samples += player.samples().size();
    states_seen += static_cast<std::size_t>(player.current_state(0) >= 0);
    signals += player.drain_signals().size();
  };

  for (int f = 0; f < 600; ++f) frame(f);
  const std::size_t before = testing::allocation_count();
  for (int f = 600; f < 6600; ++f) frame(f);
  EXPECT_EQ(testing::allocation_count() - before, 0u);
  EXPECT_GT(samples, 6000u);  // the frames did produce samples and signals
  EXPECT_GT(signals, 200u);
  EXPECT_EQ(states_seen, 6600u);
  (void)land;
}

}  // namespace
}  // namespace mf::anim
