#pragma once
// ClipSampler: applies a frame's ClipSamples to a pose. The pose is reset to the setup pose, then each
// layer's samples are combined (weighted average per property, Additive on top, discrete timelines by
// the highest weight at or above its threshold), layer after layer. Scale averages magnitudes and takes
// the sign of the newest Replace sample that keys it (the last in the layer, samples coming oldest
// first), so a crossfade from scale −1 to 1 keeps the size and shows the incoming sign from its first
// mixed frame on. Events whose keys fall in each sample's (previous time, time] window are collected.
// Allocates nothing.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mf/anim/clip_sample.hpp"
#include "mf/core/touched_set.hpp"
#include "mf/skel/skeleton_pose.hpp"

namespace mf::skel {

// An event key that fired this frame.
struct FiredEvent {
  std::int32_t event;          // index into SkeletonData::events
  std::int32_t clip;
  std::int32_t sample;         // index of the sample in the span that fired it
  float time;                  // key time in the clip
  std::int32_t int_value;
  float float_value;
  const std::string* string_value;  // the key's string or the definition's default; never null
  float volume, balance;
};

// Fixed-capacity list of fired events, reused every frame.
class EventBuffer {
 public:
  explicit EventBuffer(std::size_t capacity = 256) { events_.reserve(capacity); }
  void clear() {
    events_.clear();
    dropped_ = 0;
  }
  void push(const FiredEvent& e) {
    if (events_.size() < events_.capacity()) events_.push_back(e);
    else ++dropped_;
  }
  std::span<const FiredEvent> events() const { return events_; }
  std::size_t dropped() const { return dropped_; }  // events beyond the capacity this frame

 private:
  std::vector<FiredEvent> events_;
  std::size_t dropped_ = 0;
};

class ClipSampler {
 public:
  explicit ClipSampler(const SkeletonData& data);

  // Resets `pose` to the setup pose and applies `samples` (grouped by ascending layer; samples whose
  // clip is not loaded are skipped). Fired events are appended to `events` (not cleared here).
  void apply(SkeletonPose& pose, std::span<const anim::ClipSample> samples, EventBuffer& events);
  // Only the events apply() would fire for `samples` (same windows, thresholds and order), without
  // touching a pose: for players that advance time while they skip posing (an off-screen skeleton).
  void fire_events(std::span<const anim::ClipSample> samples, EventBuffer& events) const;

 private:
  void apply_layer(SkeletonPose& pose, std::span<const anim::ClipSample> layer, std::int32_t first_index,
                   EventBuffer& events);
  void clear_layer();
  void finish_layer(SkeletonPose& pose);
  void finish_bone(SkeletonPose& pose, std::size_t bone);
  void finish_slot(SkeletonPose& pose, std::size_t slot);
  void finish_constraint(SkeletonPose& pose, std::size_t constraint);
  std::size_t physics_index(std::int32_t physics) const {
    return data_->ik.size() + data_->transform.size() + data_->path.size() + static_cast<std::size_t>(physics);
  }
  void sample_into_layer(SkeletonPose& pose, const anim::ClipSample& sample, const ClipData& clip);
  void accumulate_timeline(SkeletonPose& pose, const anim::ClipSample& sample, const ClipData& clip, std::size_t ti);
  // A layer whose one sample has full weight and Replace blending, of a clip that keys each property
  // once: its values are the result, written straight into the pose (clip_direct.cpp). Kinds that need
  // the layer's bookkeeping (inherit, sequences, draw order, IK flags) still go through it.
  static bool applies_directly(std::span<const anim::ClipSample> layer, const ClipData& clip);
  void apply_direct(SkeletonPose& pose, const anim::ClipSample& sample, const ClipData& clip);
  void mark_physics_resets(const anim::ClipSample& sample, const ClipData& clip);
  void fire_events(const anim::ClipSample& sample, const ClipData& clip, std::int32_t sample_index,
                   EventBuffer& events) const;

  // Best sample so far of a discrete property within a layer.
  struct Discrete {
    float weight;
    float value[3];
    float key_time;
    float time;
  };

  static bool keep_best(Discrete& best, float weight, float threshold, std::array<float, 3> value, float key_time,
                        float time);

  const SkeletonData* data_;
  std::size_t constraint_params_ = 0;
  std::uint32_t transform_base_ = 0, path_base_ = 0, physics_base_ = 0;  // offsets of each kind's parameters

  // Per bone × 7 local properties (x, y, rotation, scale x/y, shear x/y): weighted sums of Replace
  // samples, their weights, and the sums of Additive contributions. Rotation sums are differences from
  // rotation_ref_, the first sample's angle. Scale sums are of magnitudes; scale_negative_ (per bone ×
  // scale x, y) holds the sign of the newest Replace sample, written with every weight it adds, so it
  // is never read stale.
  std::vector<float> bone_sum_, bone_weight_, bone_add_, rotation_ref_;
  std::vector<std::uint8_t> scale_negative_;
  // Per slot × 7 colour channels (light r, g, b, a, dark r, g, b).
  std::vector<float> slot_sum_, slot_weight_, slot_add_;
  // Constraint parameters: IK (mix, softness), transform (6 mixes), path (5), physics (7) per constraint.
  std::vector<float> param_sum_, param_weight_, param_add_;
  // Deform per slot: weighted sums of offsets, additive offsets, weight and target attachment.
  std::vector<float> deform_sum_, deform_add_, deform_weight_;
  std::vector<std::int32_t> deform_target_;
  std::vector<std::uint8_t> deform_additive_;
  // Discrete properties: attachment and sequence per slot, inherit per bone, IK flags per IK.
  std::vector<Discrete> attachment_, sequence_, inherit_, ik_flags_;
  Discrete draw_order_;
  const std::int32_t* draw_order_value_ = nullptr;
  std::vector<std::uint8_t> physics_reset_;
  // What the layer's samples wrote: bones, slots, and constraints (IK, then transform, path and physics,
  // numbered in that order). A layer finishes and resets only these; the rest of the accumulators stay 0.
  TouchedSet touched_bones_, touched_slots_, touched_constraints_;
};

// Applies one timeline's value at `time` to nothing: the sampled components of a curve timeline, for
// tools and tests (values as the clip stores them, relative for bones).
void sample_timeline(const ClipData& clip, const Timeline& timeline, float time, std::span<float> out);

}  // namespace mf::skel
