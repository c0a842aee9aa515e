#pragma once
// Walker: a mannequin of the crowd. Each physics step it changes its own "speed" parameter of the
// locomotion graph towards a target that it picks again every few seconds (idle 0, walk 1, run 3),
// moves along its lane at the ground speed the blend shows, and turns round at the arena's edges by
// mirroring itself (FlipH). Hit, it flashes red (its modulate) and hops (the graph's "jump" trigger).
//
// It ticks in UpdateMode Physics, so its SkeletonHitboxes2D child measures the pose of the same step.

#include <cstdint>
#include <memory>
#include <string>

#include "mf/anim/animation_graph.hpp"
#include "mf/scene/skeleton/skeleton_2d.hpp"
#include "random.hpp"

namespace arena {

struct Lane {
  float ground = 0;  // canvas Y of the feet
  float scale = 1;   // node scale: nearer lanes are larger
};

class Walker : public mf::scene::Skeleton2D {
 public:
  // Walks between min_x and max_x (canvas) on `lane`, starting at x facing right or left.
  Walker(std::string name, Lane lane, float min_x, float max_x, float x, bool facing_left, Random random);

  // Binds the rig and the graph; an error when the graph lacks "speed" or "jump".
  mf::Status bind(std::shared_ptr<const mf::skel::SkeletonData> data, std::shared_ptr<const mf::anim::AnimationGraph> graph);
  // The hit reaction. A walker already hopping only flashes again.
  void hit();

  float speed() const { return speed_; }
  int hits() const { return hits_; }
  const Lane& lane() const { return lane_; }

  // Ground speed of the locomotion blend in skeleton pixels per second at a speed parameter:
  // measured from the clips' planted feet (walk 203 px/s at 1, run 383 px/s at 3), linear between.
  static float ground_speed(float speed);

 protected:
  void on_physics_process(float step) override;

 private:
  Lane lane_;
  float min_x_, max_x_;
  Random random_;
  int speed_param_ = -1, jump_param_ = -1;
  float speed_ = 0, target_speed_ = 1, retarget_in_ = 0;
  float flash_ = 0, hop_cooldown_ = 0;
  int hits_ = 0;
};

}  // namespace arena
