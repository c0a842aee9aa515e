#include "mf/skel/skeleton_instance.hpp"

#include <algorithm>
#include <cmath>

#include "mf/anim/loop_time.hpp"

namespace mf::skel {

SkeletonInstance::SkeletonInstance(const SkeletonData& data)
    : pose_(data), sampler_(data), events_(), vertices_(data), positions_(data) {}

void SkeletonInstance::update(std::span<const anim::ClipSample> samples, const FrameContext& context) {
  apply(samples);
  solve(context);
}

void SkeletonInstance::apply(std::span<const anim::ClipSample> samples) {
  events_.clear();
  sampler_.apply(pose_, samples, events_);
}

void SkeletonInstance::fire_events(std::span<const anim::ClipSample> samples) {
  events_.clear();
  sampler_.fire_events(samples, events_);
}

void SkeletonInstance::solve(const FrameContext& context) { update_skeleton(pose_, context); }

const CpuVertices& SkeletonInstance::vertices() {
  vertices_.update(pose_);
  return vertices_;
}

const WorldPositions& SkeletonInstance::world_positions() {
  positions_.update(pose_);
  return positions_;
}

anim::ClipSample loop_sample(const SkeletonData& data, int clip, float previous, float now, bool loop) {
  anim::ClipSample s;
  s.clip = clip;
  const float length = data.clips[static_cast<std::size_t>(clip)].length;
  s.first = previous <= 0 && now >= previous;
  if (!loop || length <= 0) {
    s.time = std::min(now, length);
    s.previous_time = std::min(previous, length);
    return s;
  }
  const anim::LoopPosition at_now = anim::loop_position(now, length), at_before = anim::loop_position(previous, length);
  s.time = at_now.time;
  s.previous_time = at_before.time;
  s.loops = at_now.wraps - at_before.wraps;
  return s;
}

}  // namespace mf::skel
