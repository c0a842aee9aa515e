#pragma once
// SceneTree: owns the root node ("root") and ticks the tree.
//
// advance(delta), one frame:
//   1. physics: accumulator += delta; while accumulator ≥ step and fewer than max_physics_steps steps
//      ran in this advance: on_physics_process(step) for every node in tree order, then the physics
//      steppers (worlds), then the deferred signals queued so far are delivered, accumulator −= step. Whole steps beyond the cap are
//      dropped (stats().dropped_physics_steps); the fraction of a step stays.
//   2. process: on_process(delta) for every node in tree order, then the deferred signals, then the
//      nodes queued for free are freed.
// A tick walks a snapshot of the tree taken as it starts (a vector of node pointers whose capacity
// is reused): a node added during the tick is first processed in the next one; a node that leaves the
// tree during the tick has its snapshot entry cleared, so it is not reached (and may be destroyed).
// Nodes queued for free, and their subtrees, are left out of the snapshots that follow.

#include <cstdint>
#include <memory>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/scene/node.hpp"
#include "mf/scene/signal_queue.hpp"

namespace mf::scene {

// A physics simulation the tree steps once every node has had its physics tick (a 2D or 3D world), so
// bodies moved by nodes in that tick are simulated in the same step; signals it emits deferred are
// delivered with the step's.
class PhysicsStepper {
 public:
  virtual void step_physics(float step) = 0;

 protected:
  ~PhysicsStepper() = default;
};

struct SceneTreeStats {
  std::uint64_t process_ticks = 0;
  std::uint64_t physics_ticks = 0;
  std::uint64_t dropped_physics_steps = 0;
  double process_time = 0;  // seconds: the sum of the deltas given to process ticks
  double physics_time = 0;  // seconds: physics_ticks × step (while the step is unchanged)
};

class SceneTree {
 public:
  static constexpr double kDefaultPhysicsStep = 1.0 / 60.0;
  static constexpr int kDefaultMaxPhysicsSteps = 8;

  SceneTree();
  // The root's subtree exits the tree (on_exit_tree, children before parent), then is destroyed.
  ~SceneTree();
  SceneTree(const SceneTree&) = delete;
  SceneTree& operator=(const SceneTree&) = delete;

  Node& root() { return *root_; }
  const Node& root() const { return *root_; }

  // One frame of `delta` seconds (negative or non-finite deltas count as 0). Called from inside an
  // advance (a hook or a slot), it does nothing.
  void advance(float delta);
  // Frees the nodes queued for free now (outside a tick; inside one it waits for the tick's end).
  void flush_frees();

  // The fixed physics step in seconds: positive and finite.
  Status set_physics_step(double seconds);
  double physics_step() const { return step_; }
  // At least 1.
  Status set_max_physics_steps(int steps);
  int max_physics_steps() const { return max_steps_; }
  // accumulator / step, in [0, 1): how far the time is between the last physics step and the next,
  // for interpolating what physics moves.
  float physics_fraction() const;

  const SceneTreeStats& stats() const { return stats_; }
  // Whether a physics step or process tick is running.
  bool in_tick() const { return in_tick_; }

  SignalQueue& signal_queue() { return signals_; }

  // Steppers run after the nodes' on_physics_process in every physics step, in the order added. A
  // stepper must be removed before it is destroyed (nodes do it when they exit the tree).
  void add_physics_stepper(PhysicsStepper* stepper);
  void remove_physics_stepper(PhysicsStepper* stepper);

 private:
  friend class Node;
  enum class Tick : std::uint8_t { Physics, Process };

  void run_tick(Tick tick, float delta);
  void take_snapshot(Node& node);
  // Called by Node.
  void node_exiting(Node& node);
  void queue_free(Node& node) { free_queue_.push_back(&node); }

  // Declared before root_: the root (and the signals of its nodes) go first.
  SignalQueue signals_;
  std::unique_ptr<Node> root_;
  std::vector<Node*> snapshot_;
  std::vector<Node*> free_queue_;
  std::vector<PhysicsStepper*> steppers_;
  SceneTreeStats stats_;
  double step_ = kDefaultPhysicsStep;
  double accumulator_ = 0;
  int max_steps_ = kDefaultMaxPhysicsSteps;
  bool in_tick_ = false;
  bool advancing_ = false;
};

}  // namespace mf::scene
