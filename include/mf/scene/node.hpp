#pragma once
// Node: the unit of the scene tree. A node has a name, owns its children (in order) and knows its
// parent and, while inside one, its SceneTree. Subclasses override the virtual hooks:
//
//   on_enter_tree()        entering a tree: the parent before its children
//   on_ready()             once per node, the first time it enters, after all its children entered
//                          (so children are ready before their parent)
//   on_exit_tree()         leaving the tree: the children (last child first) before their parent
//   on_process(delta)      every SceneTree::advance, in tree order (pre-order, children in order)
//   on_physics_process(step) every fixed physics step, in tree order
//
// Nodes are single-threaded: a tree and its nodes belong to one thread. A node is destroyed only by
// its owner: its parent (a SceneTree frees queued nodes), or whoever holds the std::unique_ptr that
// remove_child returned.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mf/core/expected.hpp"

namespace mf::scene {

class SceneTree;

// Which cached global transform a change makes stale: a Node2D's change reaches its 2D descendants, a
// Node3D's its 3D descendants; moving a node to another parent makes both stale.
enum class TransformSpace : std::uint8_t { TwoD = 1, ThreeD = 2, Both = 3 };

class Node {
 public:
  explicit Node(std::string name);
  virtual ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  const std::string& name() const { return name_; }
  Node* parent() const { return parent_; }
  // The tree this node is inside, or nullptr.
  SceneTree* tree() const { return tree_; }
  bool is_inside_tree() const { return tree_ != nullptr; }
  // Whether on_ready has run (it runs once, on the first entry).
  bool is_ready() const { return ready_; }

  // "/root/a/b" inside a tree; outside one, the names from the topmost ancestor down joined by '/'
  // without the leading '/' ("a/b" for a node b under a detached node a).
  std::string path() const;

  // Children, in order.
  std::size_t child_count() const { return children_.size(); }
  Node* child(std::size_t index) const { return children_[index].get(); }
  Node* find_child(std::string_view name) const;

  // Appends `child` as the last child; when this node is inside a tree, the child's subtree enters it
  // at once (on_enter_tree, on_ready). An error (the child is destroyed) when the child is null,
  // already has a parent, or its name is invalid or taken by a sibling: the message names this
  // node's path and the name.
  Expected<Node*> add_child(std::unique_ptr<Node> child);
  template <class T>
  Expected<T*> add_child(std::unique_ptr<T> child) {
    T* typed = child.get();
    Expected<Node*> added = add_child(std::unique_ptr<Node>(std::move(child)));
    if (!added) return Unexpected{added.error()};
    return typed;
  }
  template <class T, class... Args>
  Expected<T*> make_child(Args&&... args) {
    return add_child(std::make_unique<T>(std::forward<Args>(args)...));
  }

  // Detaches `child` (its subtree exits the tree first: on_exit_tree, children before parent) and
  // hands it over; nullptr when `child` is not a child of this node. Safe during a tick: a removed node
  // is not processed again in that tick.
  std::unique_ptr<Node> remove_child(Node* child);

  // Frees this node (and its subtree) at the end of the current process tick, or at the end of the
  // next one when called outside a tick, or at SceneTree::flush_frees(). From the next tick on the
  // node and its subtree are not processed. Never immediate. An error when the node is not inside a
  // tree (nothing would free it) or is the tree's root. Removing a queued node with remove_child
  // cancels its free.
  Status queue_free();
  bool is_queued_for_free() const { return queued_for_free_; }

  // The node at `path` (see node_path.hpp), or nullptr.
  Node* get_node(std::string_view path);
  template <class T>
  T* get_node(std::string_view path) {
    return dynamic_cast<T*>(get_node(path));
  }

  // Whether on_process / on_physics_process are called (both on by default). A change during a tick
  // holds for the nodes the tick has not reached yet.
  void set_process(bool enabled) { process_ = enabled; }
  void set_physics_process(bool enabled) { physics_process_ = enabled; }
  bool is_processing() const { return process_; }
  bool is_physics_processing() const { return physics_process_; }

 protected:
  virtual void on_enter_tree() {}
  virtual void on_ready() {}
  virtual void on_exit_tree() {}
  virtual void on_process(float /*delta*/) {}
  virtual void on_physics_process(float /*step*/) {}

  // Marks the cached global transforms of `space` stale in this subtree. Node passes it to its
  // children; Node2D and Node3D mark their own cache and stop where it was stale already (every
  // descendant of a stale node is stale).
  virtual void invalidate_global_transform(TransformSpace space);

 private:
  friend class SceneTree;

  void enter_tree(SceneTree* tree);
  void exit_tree();

  std::string name_;
  Node* parent_ = nullptr;
  SceneTree* tree_ = nullptr;
  std::vector<std::unique_ptr<Node>> children_;
  // Where this node is in the SceneTree's tick snapshot, so leaving the tree mid-tick clears its entry.
  std::size_t tick_index_ = static_cast<std::size_t>(-1);
  bool ready_ = false;
  bool queued_for_free_ = false;
  bool process_ = true;
  bool physics_process_ = true;
};

}  // namespace mf::scene
