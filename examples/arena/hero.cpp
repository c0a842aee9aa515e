#include "hero.hpp"

#include <cmath>
#include <numbers>

#include "mf/skel/animated_skeleton.hpp"

namespace arena {

Hero::Hero(std::string name, Lane lane, float x) : Skeleton2D(std::move(name)) {
  set_position({x, lane.ground});
  set_scale({lane.scale, lane.scale});
  set_update_mode(mf::scene::SkeletonUpdateMode::Physics);
  aim_ = {x + 100, lane.ground - 100};
}

mf::Status Hero::bind(std::shared_ptr<const mf::skel::SkeletonData> data, std::shared_ptr<const mf::anim::AnimationGraph> graph) {
  for (const char* bone : {kUpperArm, kForearm, kHand})
    if (data->find_bone(bone) < 0)
      return mf::Unexpected{mf::Error{{}, {}, {}, "the rig has no bone \"" + std::string(bone) + "\" for the hero's aiming arm"}};
  if (mf::Status s = set_graph(std::move(graph)); !s) return s;
  if (mf::Status s = set_data(std::move(data)); !s) return s;
  upper_arm_ = find_bone(kUpperArm);
  forearm_ = find_bone(kForearm);
  hand_ = find_bone(kHand);
  return {};
}

void Hero::on_physics_process(float step) {
  // Face the aim, with a little slack so an aim straight above does not flip every step.
  const float x = position().x;
  if (aim_.x < x - 4 * scale().x) set_flip_h(true);
  if (aim_.x > x + 4 * scale().x) set_flip_h(false);

  // The aim in skeleton space; the shoulder where the last pose left it (a step's lag at most).
  if (const auto to_skeleton = skeleton_transform().inverse()) {
    const mf::Vec2 target = to_skeleton->apply(aim_);
    const mf::Vec2 shoulder = bone_transform(upper_arm_).origin();
    mf::skel::BoneOverride arm;
    arm.space = mf::skel::BoneOverrideSpace::World;
    arm.channels = mf::skel::kOverrideRotation;
    arm.rotation = std::atan2(target.y - shoulder.y, target.x - shoulder.x) * (180 / std::numbers::pi_v<float>);
    set_bone_override(upper_arm_, arm);
    mf::skel::BoneOverride straight;
    straight.channels = mf::skel::kOverrideRotation;
    straight.rotation = 0;
    set_bone_override(forearm_, straight);
    set_bone_override(hand_, straight);
  }
  Skeleton2D::on_physics_process(step);
}

}  // namespace arena
