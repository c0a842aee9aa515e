#include "mf/live_reload/live_skeleton.hpp"

#include <algorithm>
#include <utility>

namespace mf::live_reload {

LiveSkeleton::LiveSkeleton(std::shared_ptr<const RigGeneration> rig, int pool_size, int signal_capacity)
    : rig_(std::move(rig)), pool_size_(pool_size), signal_capacity_(signal_capacity) {
  skeleton_ = std::make_unique<skel::AnimatedSkeleton>(*rig_->data, pool_size_, signal_capacity_);
  if (rig_->graph) {
    player_ = std::make_unique<anim::AnimationGraphPlayer>(*rig_->graph, *rig_->binding, signal_capacity_);
    skeleton_->set_graph(player_.get());
  }
}

CarryReport LiveSkeleton::follow(std::shared_ptr<const RigGeneration> next) {
  // The pool as large as the old one grew, so the carried entries fit without growing again.
  const int pool = std::max(pool_size_, static_cast<int>(skeleton_->tracks().pool_capacity()));
  auto skeleton = std::make_unique<skel::AnimatedSkeleton>(*next->data, pool, signal_capacity_);
  CarryReport report = carry_playback(*skeleton_, *skeleton);
  std::unique_ptr<anim::AnimationGraphPlayer> player;
  if (next->graph) {
    player = std::make_unique<anim::AnimationGraphPlayer>(*next->graph, *next->binding, signal_capacity_);
    if (player_) carry_graph(*player_, *player, report);
    skeleton->set_graph(player.get());
  }
  // New first, then the old generation goes (after the objects that read it).
  skeleton_ = std::move(skeleton);
  player_ = std::move(player);
  rig_ = std::move(next);
  return report;
}

}  // namespace mf::live_reload
