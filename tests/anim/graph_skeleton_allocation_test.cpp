// AnimatedSkeleton driven by an animation graph and a code track allocates nothing per frame:
// transitions, a masked additive layer, the sampler and event draining over thousands of frames.

#include <gtest/gtest.h>

#include <memory>

#include "counting_new.hpp"

#include "anim/graph_builder.hpp"
#include "skel/test_rig.hpp"
#include "mf/skel/animated_skeleton.hpp"

namespace mf::anim {
namespace {

TEST(GraphSkeletonAllocation, SteadyFramesAllocateNothing) {
  skel::SkeletonData data;
  const int root = skel::test::add_bone(data, "root", -1);
  const int arm = skel::test::add_bone(data, "arm", root);
  data.events.push_back({"beat", 0, 0, "", "", 1, 0});
  for (const char* name : {"idle", "walk", "wave"}) {
    auto c = std::make_shared<skel::ClipData>();
    c->name = name;
    c->length = 1;
    skel::test::add_timeline(*c, skel::TimelineKind::Rotate, root, 1, {0, 1}, {0, 90});
    skel::test::add_timeline(*c, skel::TimelineKind::Rotate, arm, 1, {0, 0.5f, 1}, {-170, 170, -170});
    c->events = {{0.5f, 0, 0, 0, -1, 1, 0}};
    skel::test::add_clip(data, c);
  }
  test::GraphBuilder gb;
  const int go = gb.param("go", ParamType::Bool);
  const int pace = gb.param("pace", ParamType::Float);
  const int base = gb.begin_machine("base");
  const int a = gb.clip_state("Idle", "idle");
  const int b = gb.blend1d("Move", pace, {{"idle", 0}, {"walk", 1}});
  gb.entry(a);
  gb.transition(a, b, gb.leaf(go, ConditionOp::IsTrue), 0.3f);
  gb.transition(b, a, gb.leaf(go, ConditionOp::IsFalse), 0.3f);
  const int upper = gb.begin_machine("upper");
  gb.entry(gb.clip_state("Wave", "wave"));
  gb.layer("base", base);
  gb.layer("upper", upper, 0.5f, ClipBlend::Additive, {"arm"});

  auto binding = skel::bind_graph(gb.g, data);
  ASSERT_TRUE(binding.ok()) << binding.error().to_string();
  AnimationGraphPlayer player(gb.g, *binding);
  skel::AnimatedSkeleton s(data);
  s.set_graph(&player);
  s.tracks().set_clip(0, 2, true);  // a code track above the graph, created before the frames

  std::size_t events = 0;
  auto frame = [&](int f) {
    player.set_bool(go, f % 50 < 25);
    player.set_float(pace, static_cast<float>(f % 90) / 90.0f);
    s.update(1.0f / 60);
    s.drain([&](const skel::FiredEvent&, int) { ++events; }, [](const TrackSignal&) {});
    player.drain_signals();
  };
  for (int f = 0; f < 300; ++f) frame(f);
  const std::size_t before = testing::allocation_count();
  for (int f = 300; f < 3300; ++f) frame(f);
  EXPECT_EQ(testing::allocation_count() - before, 0u);
  EXPECT_GT(events, 100u);
}

}  // namespace
}  // namespace mf::anim
