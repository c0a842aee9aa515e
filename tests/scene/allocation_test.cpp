// The scene host allocates nothing through the global operator new per frame once warm: advances of
// a tree whose nodes emit deferred signals on every physics step and process tick, with slots that
// read the arguments, must count zero after a warm-up.

#include <gtest/gtest.h>

#include "counting_new.hpp"
#include "mf/scene/node_2d.hpp"
#include "mf/scene/scene_tree.hpp"
#include "mf/scene/signal.hpp"

namespace mf::scene {
namespace {

struct Emitter : Node2D {
  Emitter(std::string name, SceneTree& tree, Signal<int, float>& hit, Signal<int>& tick)
      : Node2D(std::move(name)), tree_(tree), hit_(hit), tick_(tick) {}

  void on_physics_process(float step) override {
    set_position(position() + Vec2{step, 0});
    hit_.emit_deferred(tree_, ++count_, step);
    hit_.emit_deferred(tree_, -count_, step);
  }
  void on_process(float) override {
    tick_.emit_deferred(tree_, count_);
    (void)global_transform();
  }

  SceneTree& tree_;
  Signal<int, float>& hit_;
  Signal<int>& tick_;
  int count_ = 0;
};

TEST(SceneAllocation, SteadyAdvancesWithDeferredSignalsAllocateNothing) {
  SceneTree tree;
  Signal<int, float> hit;
  Signal<int> tick;
  long sum = 0;
  hit.connect([&](int v, float) { sum += v; });
  tick.connect([&](int v) { sum += v; });
  Node2D* parent = *tree.root().make_child<Node2D>("parent");
  for (int i = 0; i < 8; ++i)
    ASSERT_TRUE(parent->add_child(std::make_unique<Emitter>("e" + std::to_string(i), tree, hit, tick)).ok());

  const float deltas[] = {0.010f, 0.025f, 0.030f, 0.016f, 0.050f};
  for (int f = 0; f < 50; ++f) tree.advance(deltas[f % 5]);  // warm-up: the lists reach their size
  const std::size_t before = mf::testing::allocation_count();
  for (int f = 0; f < 500; ++f) tree.advance(deltas[f % 5]);
  EXPECT_EQ(mf::testing::allocation_count() - before, 0u) << "operator new calls in 500 advances";
  EXPECT_GT(tree.stats().physics_ticks, 500u);
  EXPECT_NE(sum, 0);
}

}  // namespace
}  // namespace mf::scene
