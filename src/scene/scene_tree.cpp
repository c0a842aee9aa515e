#include "mf/scene/scene_tree.hpp"

#include <algorithm>
#include <cmath>

namespace mf::scene {

namespace {

// A remainder this close below a whole step counts as the step: a delta of exactly one step, once
// summed in floating point, must not leave the step for the next advance.
constexpr double kStepTolerance = 1e-6;

}  // namespace

SceneTree::SceneTree() : root_(std::make_unique<Node>("root")) { root_->enter_tree(this); }

SceneTree::~SceneTree() {
  free_queue_.clear();  // the whole tree goes; nothing is freed one by one
  if (root_->tree_) root_->exit_tree();
  root_.reset();
}

Status SceneTree::set_physics_step(double seconds) {
  if (!(seconds > 0) || !std::isfinite(seconds))
    return Unexpected{Error{.message = "the physics step must be a positive number of seconds, not " + std::to_string(seconds)}};
  step_ = seconds;
  return {};
}

Status SceneTree::set_max_physics_steps(int steps) {
  if (steps < 1)
    return Unexpected{Error{.message = "at least one physics step per advance is needed, not " + std::to_string(steps)}};
  max_steps_ = steps;
  return {};
}

float SceneTree::physics_fraction() const {
  return static_cast<float>(std::clamp(accumulator_ / step_, 0.0, 1.0));
}

void SceneTree::advance(float delta) {
  if (advancing_) return;  // a hook or slot that advances its own tree would recurse: ignored
  advancing_ = true;
  if (!(delta > 0) || !std::isfinite(delta)) delta = 0;

  accumulator_ += delta;
  const double threshold = step_ * (1 - kStepTolerance);
  int steps = 0;
  while (accumulator_ >= threshold && steps < max_steps_) {
    run_tick(Tick::Physics, static_cast<float>(step_));
    ++stats_.physics_ticks;
    stats_.physics_time += step_;
    signals_.deliver();
    accumulator_ = std::max(accumulator_ - step_, 0.0);
    ++steps;
  }
  if (accumulator_ >= threshold) {
    // Over the cap: the whole steps left are dropped, the fraction of a step stays.
    const double dropped = std::floor(accumulator_ / step_ + kStepTolerance);
    stats_.dropped_physics_steps += static_cast<std::uint64_t>(dropped);
    accumulator_ = std::max(accumulator_ - dropped * step_, 0.0);
  }

  run_tick(Tick::Process, delta);
  ++stats_.process_ticks;
  stats_.process_time += delta;
  signals_.deliver();
  flush_frees();
  advancing_ = false;
}

void SceneTree::flush_frees() {
  if (in_tick_) return;
  // In queue order. Freeing a node removes its queued descendants from the queue as they exit, and
  // on_exit_tree hooks may queue more: the loop reads the queue afresh each time.
  while (!free_queue_.empty()) {
    Node* node = free_queue_.front();
    free_queue_.erase(free_queue_.begin());
    node->queued_for_free_ = false;  // node_exiting need not look for it
    std::unique_ptr<Node> owned = node->parent_->remove_child(node);
  }
}

void SceneTree::take_snapshot(Node& node) {
  if (node.queued_for_free_) return;
  node.tick_index_ = snapshot_.size();
  snapshot_.push_back(&node);
  for (const auto& c : node.children_) take_snapshot(*c);
}

void SceneTree::run_tick(Tick tick, float delta) {
  snapshot_.clear();
  take_snapshot(*root_);
  in_tick_ = true;
  // By index: entries of nodes that leave the tree meanwhile are nulled by node_exiting.
  for (std::size_t i = 0; i < snapshot_.size(); ++i) {
    Node* node = snapshot_[i];
    if (!node) continue;
    if (tick == Tick::Physics) {
      if (node->physics_process_) node->on_physics_process(delta);
    } else if (node->process_) {
      node->on_process(delta);
    }
  }
  if (tick == Tick::Physics) {
    // By index: a stepper may remove itself (or another) from inside its step.
    for (std::size_t i = 0; i < steppers_.size(); ++i) steppers_[i]->step_physics(delta);
  }
  in_tick_ = false;
  snapshot_.clear();
}

void SceneTree::add_physics_stepper(PhysicsStepper* stepper) {
  if (stepper && std::find(steppers_.begin(), steppers_.end(), stepper) == steppers_.end()) steppers_.push_back(stepper);
}

void SceneTree::remove_physics_stepper(PhysicsStepper* stepper) { std::erase(steppers_, stepper); }

void SceneTree::node_exiting(Node& node) {
  if (in_tick_ && node.tick_index_ < snapshot_.size() && snapshot_[node.tick_index_] == &node)
    snapshot_[node.tick_index_] = nullptr;
  if (node.queued_for_free_) {
    const auto it = std::find(free_queue_.begin(), free_queue_.end(), &node);
    if (it != free_queue_.end()) free_queue_.erase(it);
  }
}

}  // namespace mf::scene
