#pragma once
// A node that logs its hooks ("enter a", "ready a", "exit a", "process a", "physics a") to a shared
// log, and can run an action from on_process / on_physics_process.

#include <functional>
#include <string>
#include <vector>

#include "mf/scene/node.hpp"

namespace mf::scene::testing {

using Log = std::vector<std::string>;

class RecordingNode : public Node {
 public:
  RecordingNode(std::string name, Log* log) : Node(std::move(name)), log_(log) {}

  std::function<void(RecordingNode&)> on_process_action;
  std::function<void(RecordingNode&)> on_physics_action;
  std::vector<float> process_deltas;
  std::vector<float> physics_steps;

 protected:
  void on_enter_tree() override { log_->push_back("enter " + name()); }
  void on_ready() override { log_->push_back("ready " + name()); }
  void on_exit_tree() override { log_->push_back("exit " + name()); }
  void on_process(float delta) override {
    log_->push_back("process " + name());
    process_deltas.push_back(delta);
    if (on_process_action) on_process_action(*this);
  }
  void on_physics_process(float step) override {
    log_->push_back("physics " + name());
    physics_steps.push_back(step);
    if (on_physics_action) on_physics_action(*this);
  }

 private:
  Log* log_;
};

inline std::unique_ptr<RecordingNode> recording(std::string name, Log& log) {
  return std::make_unique<RecordingNode>(std::move(name), &log);
}

}  // namespace mf::scene::testing
