#include "mf/scene/node.hpp"

#include <algorithm>

#include "mf/scene/node_path.hpp"
#include "mf/scene/scene_tree.hpp"

namespace mf::scene {

Node::Node(std::string name) : name_(std::move(name)) {}

// A node is destroyed outside any tree (remove_child and the tree's destructor make it exit first);
// its children go with it.
Node::~Node() = default;

std::string Node::path() const {
  std::size_t length = 0;
  for (const Node* n = this; n; n = n->parent_) length += n->name_.size() + 1;
  std::string s(length, '/');
  std::size_t end = length;
  for (const Node* n = this; n; n = n->parent_) {
    end -= n->name_.size();
    std::copy(n->name_.begin(), n->name_.end(), s.begin() + static_cast<std::ptrdiff_t>(end));
    --end;  // the '/' before the name
  }
  return tree_ ? s : s.substr(1);
}

Node* Node::find_child(std::string_view name) const {
  for (const auto& c : children_)
    if (c->name_ == name) return c.get();
  return nullptr;
}

Expected<Node*> Node::add_child(std::unique_ptr<Node> child) {
  auto fail = [&](std::string what) -> Expected<Node*> {
    return Unexpected{Error{.message = std::move(what)}};
  };
  if (!child) return fail("cannot add a null child to '" + path() + "'");
  if (child->parent_) return fail("cannot add '" + child->name_ + "' to '" + path() + "': it already has a parent");
  if (const std::string_view why = node_name_problem(child->name_); !why.empty())
    return fail("cannot add '" + child->name_ + "' to '" + path() + "': " + std::string(why));
  if (find_child(child->name_))
    return fail("cannot add '" + child->name_ + "' to '" + path() + "': a sibling already has that name");
  Node* added = child.get();
  added->parent_ = this;
  children_.push_back(std::move(child));
  added->invalidate_global_transform(TransformSpace::Both);
  if (tree_) added->enter_tree(tree_);
  return added;
}

std::unique_ptr<Node> Node::remove_child(Node* child) {
  const auto it = std::find_if(children_.begin(), children_.end(),
                               [&](const std::unique_ptr<Node>& c) { return c.get() == child; });
  if (it == children_.end()) return nullptr;
  if (child->tree_) child->exit_tree();
  // Found again: an on_exit_tree hook may have added or removed siblings.
  const auto at = std::find_if(children_.begin(), children_.end(),
                               [&](const std::unique_ptr<Node>& c) { return c.get() == child; });
  if (at == children_.end()) return nullptr;
  std::unique_ptr<Node> owned = std::move(*at);
  children_.erase(at);
  owned->parent_ = nullptr;
  owned->invalidate_global_transform(TransformSpace::Both);
  return owned;
}

Status Node::queue_free() {
  if (!tree_) return Unexpected{Error{.message = "cannot queue '" + path() + "' for free: it is not inside a SceneTree"}};
  if (!parent_) return Unexpected{Error{.message = "cannot queue the tree's root for free"}};
  if (!queued_for_free_) {
    queued_for_free_ = true;
    tree_->queue_free(*this);
  }
  return {};
}

Node* Node::get_node(std::string_view path) { return resolve_node_path(*this, path); }

void Node::invalidate_global_transform(TransformSpace space) {
  for (const auto& c : children_) c->invalidate_global_transform(space);
}

void Node::enter_tree(SceneTree* tree) {
  tree_ = tree;
  tick_index_ = static_cast<std::size_t>(-1);
  on_enter_tree();
  // By index, skipping children that entered already: a hook may add children (they enter at once).
  for (std::size_t i = 0; i < children_.size(); ++i)
    if (!children_[i]->tree_) children_[i]->enter_tree(tree);
  if (!ready_ && tree_ == tree) {
    ready_ = true;
    on_ready();
  }
}

void Node::exit_tree() {
  for (std::size_t i = children_.size(); i-- > 0;) {
    if (i < children_.size() && children_[i]->tree_) children_[i]->exit_tree();
  }
  on_exit_tree();
  tree_->node_exiting(*this);
  queued_for_free_ = false;
  tree_ = nullptr;
}

}  // namespace mf::scene
