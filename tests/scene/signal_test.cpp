#include "mf/scene/signal.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "mf/scene/scene_tree.hpp"
#include "scene/recording_node.hpp"

namespace mf::scene {
namespace {

using ::testing::ElementsAre;
using testing::Log;
using testing::recording;
using testing::RecordingNode;

TEST(Signal, EmitCallsSlotsInConnectionOrder) {
  Signal<int, std::string> s;
  Log log;
  s.connect([&](int i, const std::string& t) { log.push_back("first " + std::to_string(i) + t); });
  s.connect([&](int i, const std::string& t) { log.push_back("second " + std::to_string(i) + t); });
  s.emit(7, "x");
  EXPECT_THAT(log, ElementsAre("first 7x", "second 7x"));
}

TEST(Signal, DisconnectStopsASlot) {
  Signal<> s;
  int calls = 0;
  const Connection c = s.connect([&] { ++calls; });
  s.emit();
  s.disconnect(c);
  s.emit();
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(s.slot_count(), 0u);
  s.disconnect(c);  // twice is harmless
}

TEST(Signal, DisconnectInsideASlotTakesEffectAtOnce) {
  Signal<> s;
  Log log;
  Connection second;
  Connection first = s.connect([&] {
    log.push_back("first");
    s.disconnect(second);
    s.disconnect(first);  // itself
  });
  second = s.connect([&] { log.push_back("second"); });
  s.connect([&] { log.push_back("third"); });
  s.emit();
  s.emit();
  EXPECT_THAT(log, ElementsAre("first", "third", "third"));
  EXPECT_EQ(s.slot_count(), 1u);
}

TEST(Signal, ASlotConnectedInsideASlotIsCalledFromTheNextEmission) {
  Signal<> s;
  Log log;
  bool connected = false;
  s.connect([&] {
    log.push_back("outer");
    if (!connected) {
      connected = true;
      // Enough connections to make the slot list grow while this slot runs.
      for (int i = 0; i < 16; ++i) s.connect([&, i] { if (i == 0) log.push_back("inner"); });
    }
  });
  s.emit();
  s.emit();
  EXPECT_THAT(log, ElementsAre("outer", "outer", "inner"));
}

TEST(Signal, ScopedConnectionDisconnectsWhenDestroyed) {
  Signal<int> s;
  int sum = 0;
  {
    ScopedConnection scoped = s.connect_scoped([&](int v) { sum += v; });
    s.emit(1);
    ScopedConnection moved = std::move(scoped);
    s.emit(10);
  }
  s.emit(100);
  EXPECT_EQ(sum, 11);
  EXPECT_EQ(s.slot_count(), 0u);
}

TEST(Signal, AScopedConnectionMayOutliveItsSignal) {
  ScopedConnection scoped;
  {
    Signal<> s;
    scoped = s.connect_scoped([] {});
  }
  scoped.reset();  // the signal is gone: nothing to do
  EXPECT_EQ(scoped.connection().id, 0u);
}

TEST(Signal, EmitDeferredWaitsForTheTree) {
  SceneTree tree;
  Signal<int> s;
  std::vector<int> got;
  s.connect([&](int v) { got.push_back(v); });
  s.emit_deferred(tree, 1);
  s.emit_deferred(tree, 2);
  EXPECT_TRUE(got.empty());
  EXPECT_EQ(s.pending_count(), 2u);
  tree.advance(0.001f);  // no physics step: delivered after the process tick
  EXPECT_THAT(got, ElementsAre(1, 2));
  EXPECT_EQ(s.pending_count(), 0u);
}

TEST(Signal, APhysicsStepsEmissionArrivesBeforeTheProcessTick) {
  Log log;  // before the tree: its destructor logs the exits
  SceneTree tree;
  Signal<int> hit;
  hit.connect([&](int v) { log.push_back("hit " + std::to_string(v)); });
  RecordingNode* n = *tree.root().add_child(recording("n", log));
  int step = 0;
  n->on_physics_action = [&](RecordingNode&) { hit.emit_deferred(tree, ++step); };
  n->on_process_action = [&](RecordingNode&) { hit.emit_deferred(tree, 100); };
  log.clear();
  tree.advance(2.0f / 60 + 0.001f);
  EXPECT_THAT(log, ElementsAre("physics n", "hit 1", "physics n", "hit 2", "process n", "hit 100"));
}

TEST(Signal, DeferredDeliveryFollowsQueueOrderAcrossSignals) {
  Log log;  // before the tree: its destructor logs the exits
  SceneTree tree;
  Signal<int> a;
  Signal<std::string> b;
  a.connect([&](int v) { log.push_back("a" + std::to_string(v)); });
  b.connect([&](const std::string& v) { log.push_back("b" + v); });
  a.emit_deferred(tree, 1);
  b.emit_deferred(tree, "2");
  a.emit_deferred(tree, 3);
  b.emit_deferred(tree, "4");
  b.emit_deferred(tree, "5");
  a.emit_deferred(tree, 6);
  tree.advance(0.001f);
  EXPECT_THAT(log, ElementsAre("a1", "b2", "a3", "b4", "b5", "a6"));
}

TEST(Signal, AnEmissionQueuedDuringDeliveryWaitsForTheNextDeliveryPoint) {
  Log log;  // before the tree: its destructor logs the exits
  SceneTree tree;
  Signal<int> s;
  s.connect([&](int v) {
    log.push_back("got " + std::to_string(v));
    if (v < 3) s.emit_deferred(tree, v + 1);
  });
  s.emit_deferred(tree, 1);
  tree.advance(0.001f);
  EXPECT_THAT(log, ElementsAre("got 1"));
  tree.advance(0.001f);
  tree.advance(0.001f);
  EXPECT_THAT(log, ElementsAre("got 1", "got 2", "got 3"));
}

TEST(Signal, ADestroyedSignalTakesItsPendingEmissionsAlong) {
  Log log;  // before the tree: its destructor logs the exits
  SceneTree tree;
  Signal<int> kept;
  kept.connect([&](int v) { log.push_back("kept " + std::to_string(v)); });
  auto doomed = std::make_unique<Signal<int>>();
  doomed->connect([&](int v) { log.push_back("doomed " + std::to_string(v)); });
  kept.emit_deferred(tree, 1);
  doomed->emit_deferred(tree, 2);
  kept.emit_deferred(tree, 3);
  doomed.reset();
  tree.advance(0.001f);
  EXPECT_THAT(log, ElementsAre("kept 1", "kept 3"));
}

TEST(Signal, ASlotMayDestroyAnotherSignalWithPendingEmissions) {
  Log log;  // before the tree: its destructor logs the exits
  SceneTree tree;
  auto other = std::make_unique<Signal<>>();
  other->connect([&] { log.push_back("other"); });
  Signal<> first;
  first.connect([&] {
    log.push_back("first");
    other.reset();
  });
  first.emit_deferred(tree);
  other->emit_deferred(tree);
  tree.advance(0.001f);
  EXPECT_THAT(log, ElementsAre("first"));
}

TEST(Signal, ASignalMayOutliveItsTree) {
  Signal<int> s;
  int got = 0;
  s.connect([&](int v) { got = v; });
  {
    SceneTree tree;
    s.emit_deferred(tree, 5);
  }
  EXPECT_EQ(s.pending_count(), 0u) << "the tree's end drops what it had not delivered";
  SceneTree next;
  s.emit_deferred(next, 6);
  next.advance(0.001f);
  EXPECT_EQ(got, 6);
}

TEST(Signal, NodesKeepScopedConnectionsAsMembers) {
  struct Listener : Node {
    Listener(Signal<int>& s, int* sum) : Node("listener"), connection(s.connect_scoped([sum](int v) { *sum += v; })) {}
    ScopedConnection connection;
  };
  SceneTree tree;
  Signal<int> s;
  int sum = 0;
  Node* listener = *tree.root().add_child(std::make_unique<Listener>(s, &sum));
  s.emit(2);
  ASSERT_TRUE(listener->queue_free().ok());
  tree.flush_frees();
  s.emit(40);
  EXPECT_EQ(sum, 2);
  EXPECT_EQ(s.slot_count(), 0u);
}

}  // namespace
}  // namespace mf::scene
