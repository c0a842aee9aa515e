#include "mf/scene/node.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "mf/scene/scene_tree.hpp"
#include "scene/recording_node.hpp"

namespace mf::scene {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::Log;
using testing::recording;
using testing::RecordingNode;

// a { b { c }, d }, built outside the tree.
std::unique_ptr<RecordingNode> nested(Log& log) {
  auto a = recording("a", log);
  auto b = recording("b", log);
  EXPECT_TRUE(b->add_child(recording("c", log)).ok());
  EXPECT_TRUE(a->add_child(std::move(b)).ok());
  EXPECT_TRUE(a->add_child(recording("d", log)).ok());
  return a;
}

TEST(Node, EnteringATreeCallsEnterParentFirstAndReadyAfterTheChildren) {
  Log log;
  SceneTree tree;
  auto a = nested(log);
  EXPECT_TRUE(log.empty()) << "nothing is called outside a tree";
  ASSERT_TRUE(tree.root().add_child(std::move(a)).ok());
  EXPECT_THAT(log, ElementsAre("enter a", "enter b", "enter c", "ready c", "ready b", "enter d", "ready d", "ready a"));
}

TEST(Node, ExitingCallsChildrenBeforeTheirParentAndReadyRunsOnce) {
  Log log;
  SceneTree tree;
  Node* a = *tree.root().add_child(nested(log));
  log.clear();
  std::unique_ptr<Node> removed = tree.root().remove_child(a);
  ASSERT_EQ(removed.get(), a);
  EXPECT_THAT(log, ElementsAre("exit d", "exit c", "exit b", "exit a"));
  EXPECT_FALSE(a->is_inside_tree());
  EXPECT_FALSE(a->get_node("b/c")->is_inside_tree());
  EXPECT_EQ(a->parent(), nullptr);

  log.clear();
  ASSERT_TRUE(tree.root().add_child(std::move(removed)).ok());
  EXPECT_THAT(log, ElementsAre("enter a", "enter b", "enter c", "enter d")) << "on_ready runs only on the first entry";
  EXPECT_TRUE(a->is_ready());
}

TEST(Node, TheTreesDestructorExitsEveryNode) {
  Log log;
  {
    SceneTree tree;
    ASSERT_TRUE(tree.root().add_child(nested(log)).ok());
    log.clear();
  }
  EXPECT_THAT(log, ElementsAre("exit d", "exit c", "exit b", "exit a"));
}

TEST(Node, ChildrenKeepTheirOrder) {
  Node parent("p");
  for (const char* n : {"x", "y", "z"}) ASSERT_TRUE(parent.add_child(std::make_unique<Node>(n)).ok());
  ASSERT_EQ(parent.child_count(), 3u);
  EXPECT_EQ(parent.child(0)->name(), "x");
  EXPECT_EQ(parent.child(2)->name(), "z");
  EXPECT_EQ(parent.find_child("y"), parent.child(1));
  EXPECT_EQ(parent.find_child("w"), nullptr);
}

TEST(Node, ADuplicateNameIsAnErrorNamingTheParentAndTheName) {
  SceneTree tree;
  Node* level = *tree.root().make_child<Node>("level");
  ASSERT_TRUE(level->make_child<Node>("enemy").ok());
  const Expected<Node*> again = level->add_child(std::make_unique<Node>("enemy"));
  ASSERT_FALSE(again.ok());
  EXPECT_THAT(again.error().message, HasSubstr("/root/level"));
  EXPECT_THAT(again.error().message, HasSubstr("'enemy'"));
  EXPECT_THAT(again.error().message, HasSubstr("sibling"));
  EXPECT_EQ(level->child_count(), 1u);
}

TEST(Node, InvalidNamesAreErrors) {
  SceneTree tree;
  for (const char* bad : {"", "a/b", "a:b", "a.b", "@a", "50%", "..", "."}) {
    const Expected<Node*> added = tree.root().add_child(std::make_unique<Node>(bad));
    ASSERT_FALSE(added.ok()) << "'" << bad << "'";
    EXPECT_THAT(added.error().message, HasSubstr("/root")) << bad;
    EXPECT_THAT(added.error().message, HasSubstr("'" + std::string(bad) + "'")) << bad;
  }
  EXPECT_FALSE(tree.root().add_child(std::unique_ptr<Node>()).ok());
  EXPECT_EQ(tree.root().child_count(), 0u);
  EXPECT_TRUE(tree.root().make_child<Node>("fine_name-2 ok").ok());
}

TEST(Node, PathsInsideAndOutsideATree) {
  Log log;
  auto a = nested(log);
  RecordingNode* raw = a.get();
  EXPECT_EQ(raw->path(), "a");
  EXPECT_EQ(raw->get_node("b/c")->path(), "a/b/c") << "outside a tree: from the topmost ancestor";

  SceneTree tree;
  ASSERT_TRUE(tree.root().add_child(std::move(a)).ok());
  EXPECT_EQ(tree.root().path(), "/root");
  EXPECT_EQ(raw->path(), "/root/a");
  EXPECT_EQ(raw->get_node("b/c")->path(), "/root/a/b/c");
}

TEST(Node, TypedGetNodeCasts) {
  Log log;
  SceneTree tree;
  ASSERT_TRUE(tree.root().add_child(nested(log)).ok());
  ASSERT_TRUE(tree.root().make_child<Node>("plain").ok());
  EXPECT_NE(tree.root().get_node<RecordingNode>("a/b"), nullptr);
  EXPECT_EQ(tree.root().get_node<RecordingNode>("plain"), nullptr) << "not a RecordingNode";
  EXPECT_EQ(tree.root().get_node<RecordingNode>("missing"), nullptr);
}

TEST(Node, RemoveChildOfANonChildGivesNothing) {
  Node a("a"), b("b");
  EXPECT_EQ(a.remove_child(&b), nullptr);
  EXPECT_EQ(a.remove_child(nullptr), nullptr);
}

TEST(Node, QueueFreeNeedsATreeAndIsNotForTheRoot) {
  Node loose("loose");
  EXPECT_FALSE(loose.queue_free().ok());
  SceneTree tree;
  EXPECT_FALSE(tree.root().queue_free().ok());
  Node* n = *tree.root().make_child<Node>("n");
  EXPECT_TRUE(n->queue_free().ok());
  EXPECT_TRUE(n->is_queued_for_free());
  EXPECT_EQ(tree.root().child_count(), 1u) << "never immediate";
  tree.flush_frees();
  EXPECT_EQ(tree.root().child_count(), 0u);
}

TEST(Node, RemovingAQueuedNodeCancelsItsFree) {
  SceneTree tree;
  Node* n = *tree.root().make_child<Node>("n");
  ASSERT_TRUE(n->make_child<Node>("inner").ok());
  ASSERT_TRUE(n->get_node("inner")->queue_free().ok());
  std::unique_ptr<Node> kept = tree.root().remove_child(n);
  EXPECT_FALSE(kept->get_node("inner")->is_queued_for_free());
  tree.flush_frees();  // nothing left to free: no dangling pointer
  EXPECT_NE(kept->get_node("inner"), nullptr);
}

TEST(Node, ChildrenAddedInEnterTreeEnterOnce) {
  struct Spawner : Node {
    using Node::Node;
    Log* log = nullptr;
    void on_enter_tree() override {
      if (!find_child("spawned")) (void)add_child(recording("spawned", *log));
    }
  };
  Log log;
  SceneTree tree;
  auto s = std::make_unique<Spawner>("s");
  s->log = &log;
  ASSERT_TRUE(tree.root().add_child(std::move(s)).ok());
  EXPECT_THAT(log, ElementsAre("enter spawned", "ready spawned"));
}

}  // namespace
}  // namespace mf::scene
