#include "mf/scene/scene_tree.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "scene/recording_node.hpp"

namespace mf::scene {
namespace {

using ::testing::ElementsAre;
using testing::Log;
using testing::recording;
using testing::RecordingNode;

long count(const Log& log, const std::string& entry) { return std::count(log.begin(), log.end(), entry); }

TEST(SceneTree, TheRootIsNamedRootAndInsideTheTree) {
  SceneTree tree;
  EXPECT_EQ(tree.root().name(), "root");
  EXPECT_TRUE(tree.root().is_inside_tree());
  EXPECT_EQ(tree.root().tree(), &tree);
}

TEST(SceneTree, FixedStepsForVariableDeltas) {
  Log log;  // before the tree: its destructor logs the exits
  SceneTree tree;
  RecordingNode* n = *tree.root().add_child(recording("n", log));
  // Step 1/60 s ≈ 0.01667: 0.010 → none (0.010 left); 0.035 → two (0.00167 left); 0.03167 → one.
  tree.advance(0.010f);
  EXPECT_EQ(tree.stats().physics_ticks, 0u);
  tree.advance(0.025f);
  EXPECT_EQ(tree.stats().physics_ticks, 2u);
  tree.advance(0.030f);
  EXPECT_EQ(tree.stats().physics_ticks, 3u);
  EXPECT_EQ(tree.stats().process_ticks, 3u);
  EXPECT_EQ(n->physics_steps.size(), 3u);
  for (float s : n->physics_steps) EXPECT_FLOAT_EQ(s, 1.0f / 60);
  EXPECT_NEAR(tree.physics_fraction(), 0.015 * 60, 1e-4);
  EXPECT_NEAR(tree.stats().physics_time, 3.0 / 60, 1e-12);
  EXPECT_NEAR(tree.stats().process_time, 0.065, 1e-6);
  EXPECT_EQ(tree.stats().dropped_physics_steps, 0u);
}

TEST(SceneTree, ADeltaOfExactlyOneStepRunsOneStepEveryTime) {
  SceneTree tree;
  for (int i = 0; i < 600; ++i) tree.advance(1.0f / 60);
  EXPECT_EQ(tree.stats().physics_ticks, 600u);
}

TEST(SceneTree, StepsBeyondTheCapAreDroppedAndCounted) {
  SceneTree tree;
  ASSERT_TRUE(tree.set_physics_step(0.01).ok());
  ASSERT_TRUE(tree.set_max_physics_steps(4).ok());
  tree.advance(0.105f);  // 10.5 steps: 4 run, 6 dropped, half a step stays
  EXPECT_EQ(tree.stats().physics_ticks, 4u);
  EXPECT_EQ(tree.stats().dropped_physics_steps, 6u);
  EXPECT_NEAR(tree.physics_fraction(), 0.5f, 1e-4f);
  tree.advance(0.005f);
  EXPECT_EQ(tree.stats().physics_ticks, 5u);
  EXPECT_EQ(tree.stats().dropped_physics_steps, 6u);
}

TEST(SceneTree, DefaultCapIsEightSteps) {
  SceneTree tree;
  tree.advance(0.5f);  // 30 steps of 1/60 s
  EXPECT_EQ(tree.stats().physics_ticks, 8u);
  EXPECT_EQ(tree.stats().dropped_physics_steps, 22u);
}

TEST(SceneTree, PhysicsBeforeProcessInTreeOrder) {
  Log log;  // before the tree: its destructor logs the exits
  SceneTree tree;
  RecordingNode* a = *tree.root().add_child(recording("a", log));
  ASSERT_TRUE(a->add_child(recording("b", log)).ok());
  ASSERT_TRUE(tree.root().add_child(recording("c", log)).ok());
  log.clear();
  tree.advance(2.0f / 60 + 0.001f);
  EXPECT_THAT(log, ElementsAre("physics a", "physics b", "physics c", "physics a", "physics b", "physics c",
                               "process a", "process b", "process c"));
}

TEST(SceneTree, TheProcessDeltaIsPassedThrough) {
  Log log;  // before the tree: its destructor logs the exits
  SceneTree tree;
  RecordingNode* n = *tree.root().add_child(recording("n", log));
  tree.advance(0.012f);
  tree.advance(0.5f);
  tree.advance(0.0f);
  EXPECT_THAT(n->process_deltas, ElementsAre(0.012f, 0.5f, 0.0f));
}

TEST(SceneTree, ProcessFlagsTurnCallbacksOff) {
  Log log;  // before the tree: its destructor logs the exits
  SceneTree tree;
  RecordingNode* n = *tree.root().add_child(recording("n", log));
  n->set_process(false);
  tree.advance(0.02f);
  EXPECT_EQ(count(log, "process n"), 0);
  EXPECT_EQ(count(log, "physics n"), 1);
  n->set_process(true);
  n->set_physics_process(false);
  tree.advance(0.02f);
  EXPECT_EQ(count(log, "process n"), 1);
  EXPECT_EQ(count(log, "physics n"), 1);
}

TEST(SceneTree, QueueFreeDuringATickFreesAfterTheTick) {
  Log log;  // before the tree: its destructor logs the exits
  SceneTree tree;
  RecordingNode* a = *tree.root().add_child(recording("a", log));
  RecordingNode* b = *tree.root().add_child(recording("b", log));
  ASSERT_TRUE(b->add_child(recording("c", log)).ok());
  a->on_process_action = [&](RecordingNode&) {
    if (Node* victim = tree.root().get_node("b")) {
      ASSERT_TRUE(victim->queue_free().ok());
    }
  };
  log.clear();
  tree.advance(0.001f);
  // b was queued before its turn: this tick still reaches it; then b and c exit and are freed.
  EXPECT_THAT(log, ElementsAre("process a", "process b", "process c", "exit c", "exit b"));
  EXPECT_EQ(tree.root().get_node("b"), nullptr);
  log.clear();
  tree.advance(0.001f);
  EXPECT_THAT(log, ElementsAre("process a"));
}

TEST(SceneTree, ANodeQueuedInAPhysicsStepIsNotProcessedAgain) {
  Log log;  // before the tree: its destructor logs the exits
  SceneTree tree;
  RecordingNode* a = *tree.root().add_child(recording("a", log));
  ASSERT_TRUE(a->add_child(recording("child", log)).ok());
  a->on_physics_action = [](RecordingNode& self) { ASSERT_TRUE(self.queue_free().ok()); };
  log.clear();
  tree.advance(3.0f / 60 + 0.001f);
  EXPECT_THAT(log, ElementsAre("physics a", "physics child", "exit child", "exit a"));
  EXPECT_EQ(tree.root().child_count(), 0u);
}

TEST(SceneTree, QueueFreeOutsideATickWaitsForTheNextTick) {
  Log log;  // before the tree: its destructor logs the exits
  SceneTree tree;
  RecordingNode* a = *tree.root().add_child(recording("a", log));
  ASSERT_TRUE(a->queue_free().ok());
  ASSERT_TRUE(a->queue_free().ok()) << "twice is once";
  EXPECT_EQ(tree.root().child_count(), 1u);
  log.clear();
  tree.advance(0.001f);
  EXPECT_THAT(log, ElementsAre("exit a")) << "left out of the tick after it was queued";
  EXPECT_EQ(tree.root().child_count(), 0u);
}

TEST(SceneTree, QueueingAParentAndItsChildFreesBothOnce) {
  Log log;  // before the tree: its destructor logs the exits
  SceneTree tree;
  RecordingNode* a = *tree.root().add_child(recording("a", log));
  RecordingNode* child = *a->add_child(recording("child", log));
  ASSERT_TRUE(child->queue_free().ok());
  ASSERT_TRUE(a->queue_free().ok());
  ASSERT_TRUE(tree.root().add_child(recording("z", log)).ok());
  ASSERT_TRUE(tree.root().get_node("z")->queue_free().ok());
  log.clear();
  tree.flush_frees();
  EXPECT_THAT(log, ElementsAre("exit child", "exit a", "exit z"));
  EXPECT_EQ(tree.root().child_count(), 0u);
}

TEST(SceneTree, RemovingALaterNodeDuringATickSkipsIt) {
  Log log;  // before the tree: its destructor logs the exits
  SceneTree tree;
  RecordingNode* a = *tree.root().add_child(recording("a", log));
  RecordingNode* b = *tree.root().add_child(recording("b", log));
  ASSERT_TRUE(b->add_child(recording("c", log)).ok());
  ASSERT_TRUE(tree.root().add_child(recording("d", log)).ok());
  a->on_process_action = [&](RecordingNode&) {
    if (Node* victim = tree.root().get_node("b")) tree.root().remove_child(victim).reset();  // destroyed now
  };
  log.clear();
  tree.advance(0.001f);
  EXPECT_THAT(log, ElementsAre("process a", "exit c", "exit b", "process d"));
}

TEST(SceneTree, AChildAddedDuringATickEntersAtOnceAndIsProcessedFromTheNextTick) {
  Log log;  // before the tree: its destructor logs the exits
  SceneTree tree;
  RecordingNode* a = *tree.root().add_child(recording("a", log));
  a->on_process_action = [&](RecordingNode& self) {
    if (!self.find_child("spawned")) {
      ASSERT_TRUE(self.add_child(recording("spawned", log)).ok());
    }
  };
  ASSERT_TRUE(tree.root().add_child(recording("b", log)).ok());
  log.clear();
  tree.advance(0.001f);
  EXPECT_THAT(log, ElementsAre("process a", "enter spawned", "ready spawned", "process b"));
  log.clear();
  tree.advance(0.001f);
  EXPECT_THAT(log, ElementsAre("process a", "process spawned", "process b"));
}

TEST(SceneTree, AdvanceFromInsideAnAdvanceIsIgnored) {
  Log log;
  SceneTree tree;
  RecordingNode* n = *tree.root().add_child(recording("n", log));
  n->on_process_action = [&](RecordingNode&) { tree.advance(1.0f); };
  tree.advance(0.001f);
  EXPECT_EQ(tree.stats().process_ticks, 1u);
  EXPECT_EQ(tree.stats().physics_ticks, 0u);
}

TEST(SceneTree, SettingsAreChecked) {
  SceneTree tree;
  EXPECT_FALSE(tree.set_physics_step(0).ok());
  EXPECT_FALSE(tree.set_physics_step(-1).ok());
  EXPECT_FALSE(tree.set_max_physics_steps(0).ok());
  EXPECT_DOUBLE_EQ(tree.physics_step(), 1.0 / 60);
  EXPECT_EQ(tree.max_physics_steps(), 8);
}

}  // namespace
}  // namespace mf::scene
