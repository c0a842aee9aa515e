#include "mf/scene/node_path.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "mf/scene/node.hpp"
#include "mf/scene/scene_tree.hpp"

namespace mf::scene {
namespace {

using ::testing::HasSubstr;

struct Tree {
  SceneTree tree;
  Node* a = nullptr;
  Node* b = nullptr;
  Node* c = nullptr;
  Node* x = nullptr;
  Tree() {
    a = *tree.root().make_child<Node>("a");
    b = *a->make_child<Node>("b");
    c = *a->make_child<Node>("c");
    x = *tree.root().make_child<Node>("x");
  }
};

TEST(NodePath, RelativePaths) {
  Tree t;
  EXPECT_EQ(t.tree.root().get_node("a/b"), t.b);
  EXPECT_EQ(t.a->get_node("c"), t.c);
  EXPECT_EQ(t.a->get_node("."), t.a);
  EXPECT_EQ(t.a->get_node("./b"), t.b);
}

TEST(NodePath, ParentSteps) {
  Tree t;
  EXPECT_EQ(t.b->get_node("../c"), t.c);
  EXPECT_EQ(t.b->get_node(".."), t.a);
  EXPECT_EQ(t.b->get_node("../../x"), t.x);
  EXPECT_EQ(t.b->get_node("../../.."), nullptr) << "above the root";
}

TEST(NodePath, AbsolutePaths) {
  Tree t;
  EXPECT_EQ(t.c->get_node("/root/x"), t.x);
  EXPECT_EQ(t.x->get_node("/root/a/b"), t.b);
  EXPECT_EQ(t.x->get_node("/root"), &t.tree.root());
  EXPECT_EQ(t.x->get_node("/other/a"), nullptr) << "the first name must be the root's";
}

TEST(NodePath, AbsolutePathsOfADetachedSubtreeStartAtItsTopmostNode) {
  Node top("top");
  Node* child = *top.make_child<Node>("child");
  Node* leaf = *child->make_child<Node>("leaf");
  EXPECT_EQ(leaf->get_node("/top/child"), child);
  EXPECT_EQ(leaf->get_node("/root/child"), nullptr);
}

TEST(NodePath, MissingAndMalformedPathsGiveNull) {
  Tree t;
  EXPECT_EQ(t.a->get_node("missing"), nullptr);
  EXPECT_EQ(t.a->get_node("b/missing"), nullptr);
  EXPECT_EQ(t.a->get_node(""), nullptr);
  EXPECT_EQ(t.a->get_node("b//"), nullptr);
  EXPECT_EQ(t.a->get_node("/"), nullptr);
}

TEST(NodePath, ParseKeepsTheParts) {
  const Expected<NodePath> p = NodePath::parse("/root/a/b");
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(p->absolute);
  EXPECT_EQ(p->parts, (std::vector<std::string>{"root", "a", "b"}));
  EXPECT_EQ(p->to_string(), "/root/a/b");
  const Expected<NodePath> r = NodePath::parse("../c");
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->absolute);
  EXPECT_EQ(r->to_string(), "../c");
}

TEST(NodePath, ParseErrorsNameThePathAndThePart) {
  const Expected<NodePath> empty_part = NodePath::parse("a//b");
  ASSERT_FALSE(empty_part.ok());
  EXPECT_THAT(empty_part.error().message, HasSubstr("'a//b'"));
  EXPECT_THAT(empty_part.error().message, HasSubstr("empty part"));
  const Expected<NodePath> bad_name = NodePath::parse("a/b:c");
  ASSERT_FALSE(bad_name.ok());
  EXPECT_THAT(bad_name.error().message, HasSubstr("'b:c'"));
  EXPECT_FALSE(NodePath::parse("").ok());
  EXPECT_FALSE(NodePath::parse("/../a").ok());
}

TEST(NodePath, NameRules) {
  EXPECT_TRUE(is_valid_node_name("Player 1"));
  EXPECT_FALSE(is_valid_node_name(""));
  for (const char* bad : {"a/b", "a:b", "a.b", "a@b", "a%b"}) EXPECT_FALSE(is_valid_node_name(bad)) << bad;
}

}  // namespace
}  // namespace mf::scene
