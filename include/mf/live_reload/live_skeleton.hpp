#pragma once
// LiveSkeleton: an AnimatedSkeleton (and, when the rig has a graph, its AnimationGraphPlayer) that
// follows a RigReloader's generations. It holds the generation it was made from, so the data and the
// graph it plays stay alive; follow() makes a new skeleton and player from a newer generation and
// carries the playback over (playback_carry.hpp).
//
//   live_reload::LiveSkeleton hero(reloader.current());
//   every frame, between ticks:
//     reloader.apply_pending(tree);
//     if (hero.generation() != reloader.generation()) hero.follow(reloader.current());
//     hero.skeleton().update(dt); …
//
// follow() replaces the skeleton and the player objects: references to the old ones (kept by nodes
// or renderers) must be taken again from skeleton() and graph_player(). Drain the old skeleton's
// events and signals before following: they are not carried.

#include <cstdint>
#include <memory>

#include "mf/anim/animation_graph_player.hpp"
#include "mf/live_reload/playback_carry.hpp"
#include "mf/live_reload/rig_generation.hpp"
#include "mf/skel/animated_skeleton.hpp"

namespace mf::live_reload {

class LiveSkeleton {
 public:
  // A skeleton (and a graph player attached to it, when the generation has a graph) made from `rig`;
  // pool_size and signal_capacity as in AnimatedSkeleton and AnimationGraphPlayer.
  explicit LiveSkeleton(std::shared_ptr<const RigGeneration> rig, int pool_size = 8, int signal_capacity = 64);

  skel::AnimatedSkeleton& skeleton() { return *skeleton_; }
  const skel::AnimatedSkeleton& skeleton() const { return *skeleton_; }
  // Null when the generation has no graph.
  anim::AnimationGraphPlayer* graph_player() { return player_.get(); }
  const RigGeneration& rig() const { return *rig_; }
  std::uint64_t generation() const { return rig_->generation; }

  // Moves onto `next`: a new skeleton and player from its data and graph, with the tracks, bone
  // overrides, graph parameters and states carried over by name. The old generation is released.
  CarryReport follow(std::shared_ptr<const RigGeneration> next);

 private:
  std::shared_ptr<const RigGeneration> rig_;
  // Declared after rig_: destroyed first, while the data they read is still held.
  std::unique_ptr<anim::AnimationGraphPlayer> player_;
  std::unique_ptr<skel::AnimatedSkeleton> skeleton_;
  int pool_size_;
  int signal_capacity_;
};

}  // namespace mf::live_reload
