#pragma once
// SkeletonInstance: one animated skeleton with everything a frame needs, allocated at construction:
// the pose, the clip sampler's scratch, the event buffer and the CPU vertex buffers. A frame is
// update() with the producers' ClipSamples, then vertices() when the CPU path needs them.

#include <span>

#include "mf/anim/clip_sample.hpp"
#include "mf/skel/clip_sampler.hpp"
#include "mf/skel/constraints.hpp"
#include "mf/skel/cpu_vertices.hpp"
#include "mf/skel/skeleton_data.hpp"
#include "mf/skel/skeleton_pose.hpp"
#include "mf/skel/world_positions.hpp"

namespace mf::skel {

class SkeletonInstance {
 public:
  explicit SkeletonInstance(const SkeletonData& data);

  const SkeletonData& data() const { return pose_.data(); }
  SkeletonPose& pose() { return pose_; }
  const SkeletonPose& pose() const { return pose_; }

  // Applies the samples over the setup pose, then walks the update order (world transforms and
  // constraints, update_skeleton) with `context` (the frame's delta time, skeleton position, physics
  // settings). The frame's fired events replace the previous frame's.
  void update(std::span<const anim::ClipSample> samples, const FrameContext& context = {});
  // The two halves of update(), for players that change the local pose in between (bone overrides):
  // apply() resets to the setup pose, applies the samples and replaces the frame's events; solve()
  // walks the update order.
  void apply(std::span<const anim::ClipSample> samples);
  void solve(const FrameContext& context = {});
  // The events of `samples` alone, replacing the frame's events; the pose is left as it is.
  void fire_events(std::span<const anim::ClipSample> samples);

  std::span<const FiredEvent> events() const { return events_.events(); }

  // World vertices, UVs, colours and draw runs of the current pose.
  const CpuVertices& vertices();
  // World positions alone of the current pose's visible regions and meshes, unclipped.
  const WorldPositions& world_positions();

 private:
  SkeletonPose pose_;
  ClipSampler sampler_;
  EventBuffer events_;
  CpuVertices vertices_;
  WorldPositions positions_;
};

// A sample that plays `clip` looped (or held at its end) from time `previous` to `now` (seconds since
// the clip started), with the wraps counted, for simple players and tools. A loop wraps by
// anim::loop_position: `now` equal to the length shows the end pose, only time past it wraps.
anim::ClipSample loop_sample(const SkeletonData& data, int clip, float previous, float now, bool loop = true);

}  // namespace mf::skel
