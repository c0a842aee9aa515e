#include "walker.hpp"

#include <algorithm>

namespace arena {

namespace {
constexpr float kWalkGroundSpeed = 203, kRunGroundSpeed = 383;  // skeleton px/s at speed 1 and 3
constexpr float kFlashSeconds = 0.35f;
constexpr float kHopSeconds = 1.1f;  // the jump clip with its transitions in and out
}  // namespace

Walker::Walker(std::string name, Lane lane, float min_x, float max_x, float x, bool facing_left, Random random)
    : Skeleton2D(std::move(name)), lane_(lane), min_x_(min_x), max_x_(max_x), random_(random) {
  set_position({x, lane.ground});
  set_scale({lane.scale, lane.scale});
  set_flip_h(facing_left);
  set_update_mode(mf::scene::SkeletonUpdateMode::Physics);
  speed_ = random_.uniform(0.8f, 2.6f);
  target_speed_ = speed_;
  retarget_in_ = random_.uniform(0.5f, 3.0f);
}

mf::Status Walker::bind(std::shared_ptr<const mf::skel::SkeletonData> data, std::shared_ptr<const mf::anim::AnimationGraph> graph) {
  speed_param_ = graph->find_param("speed");
  jump_param_ = graph->find_param("jump");
  if (speed_param_ < 0 || jump_param_ < 0)
    return mf::Unexpected{mf::Error{{}, {}, {}, "the locomotion graph needs a float \"speed\" and a trigger \"jump\" parameter"}};
  if (mf::Status s = set_graph(std::move(graph)); !s) return s;
  if (mf::Status s = set_data(std::move(data)); !s) return s;
  graph_player()->set_float(speed_param_, speed_);
  return {};
}

float Walker::ground_speed(float speed) {
  if (speed <= 1) return kWalkGroundSpeed * std::max(speed, 0.0f);
  return kWalkGroundSpeed + (kRunGroundSpeed - kWalkGroundSpeed) * (std::min(speed, 3.0f) - 1) / 2;
}

void Walker::hit() {
  ++hits_;
  flash_ = kFlashSeconds;
  if (hop_cooldown_ <= 0 && graph_player()) {
    graph_player()->set_trigger(jump_param_);
    hop_cooldown_ = kHopSeconds;
  }
}

void Walker::on_physics_process(float step) {
  // A new pace now and then: mostly walking and running, sometimes a stop.
  retarget_in_ -= step;
  if (retarget_in_ <= 0) {
    target_speed_ = random_.unit() < 0.12f ? 0.0f : random_.uniform(0.7f, 3.0f);
    retarget_in_ = random_.uniform(1.5f, 4.0f);
  }
  speed_ += (target_speed_ - speed_) * std::min(1.0f, step * 1.5f);
  if (graph_player()) graph_player()->set_float(speed_param_, speed_);

  // Along the lane; at an edge, turn round.
  const float direction = flip_h() ? -1.0f : 1.0f;
  float x = position().x + direction * ground_speed(speed_) * lane_.scale * step;
  if (x > max_x_ && direction > 0) set_flip_h(true);
  if (x < min_x_ && direction < 0) set_flip_h(false);
  x = std::clamp(x, min_x_ - 1, max_x_ + 1);
  set_position({x, lane_.ground});

  hop_cooldown_ = std::max(0.0f, hop_cooldown_ - step);
  flash_ = std::max(0.0f, flash_ - step);
  const float f = flash_ / kFlashSeconds;  // 1 at the hit, fading to 0
  set_modulate({1, 1 - 0.75f * f, 1 - 0.75f * f, 1});

  Skeleton2D::on_physics_process(step);
}

}  // namespace arena
