#pragma once
// Hero: the mannequin that aims. It stands (speed 0: the graph's idle), faces the aim point and points
// its front arm at it through bone overrides: the upper arm gets a world-space rotation towards the
// aim (computed in skeleton space, so FlipH needs nothing special), the forearm and hand a local
// rotation of 0 (a straight arm). A weapon sits on a BoneAttachment2D on the hand.

#include <memory>
#include <string>

#include "mf/anim/animation_graph.hpp"
#include "mf/core/math/vec2.hpp"
#include "mf/scene/skeleton/skeleton_2d.hpp"
#include "walker.hpp"

namespace arena {

class Hero : public mf::scene::Skeleton2D {
 public:
  Hero(std::string name, Lane lane, float x);

  // Binds the rig and the graph; an error naming what the rig lacks (the arm's bones).
  mf::Status bind(std::shared_ptr<const mf::skel::SkeletonData> data, std::shared_ptr<const mf::anim::AnimationGraph> graph);
  // Canvas point the arm points at from the next physics step.
  void set_aim(mf::Vec2 aim) { aim_ = aim; }
  mf::Vec2 aim() const { return aim_; }

  static constexpr const char* kUpperArm = "upper_arm_l";
  static constexpr const char* kForearm = "forearm_l";
  static constexpr const char* kHand = "hand_l";

 protected:
  void on_physics_process(float step) override;

 private:
  mf::Vec2 aim_;
  int upper_arm_ = -1, forearm_ = -1, hand_ = -1;
};

}  // namespace arena
