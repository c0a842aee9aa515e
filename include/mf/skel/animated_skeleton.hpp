#pragma once
// AnimatedSkeleton: a SkeletonInstance played by AnimationTracks, with bone overrides from code. One
// tick, in the proposal's order:
//   1. tracks.update(delta)            track times, queues, mixes; signals are queued, not delivered
//   2. tracks.samples()                the frame's ClipSamples
//   3. ClipSampler apply               setup pose + samples (slots, deform, attachments included);
//                                      clip events are collected, not delivered
//   4. bone overrides                  after the clips, before the constraints
//   5. update_skeleton                 world transforms and constraints in update order
//   6. events                          drain() hands the frame's clip events, then the track signals,
//                                      to the caller, after the pose is complete
// Everything is sized at construction; a tick, setting or clearing an override and draining events
// allocate nothing (the tracks' pool grows only when more entries are queued than it holds).

#include <cstdint>
#include <span>
#include <vector>

#include "mf/anim/animation_tracks.hpp"
#include "mf/skel/skeleton_instance.hpp"

namespace mf::skel {

enum class BoneOverrideSpace : std::uint8_t {
  Local,  // the values are the bone's local rotation, translation and scale
  World,  // the values are the bone's rotation, position and scale in skeleton space
};

// Bits of BoneOverride::channels.
enum BoneOverrideChannel : std::uint8_t {
  kOverrideRotation = 1,
  kOverrideTranslation = 2,
  kOverrideScale = 4,
  kOverrideAll = 7,
};

struct BoneOverride {
  BoneOverrideSpace space = BoneOverrideSpace::Local;
  float x = 0, y = 0;          // translation (local) or world position
  float rotation = 0;          // degrees, clockwise on screen
  float scale_x = 1, scale_y = 1;
  float mix = 1;               // 0: the animated pose, 1: the override's values
  std::uint8_t channels = kOverrideAll;
};

class AnimatedSkeleton {
 public:
  // The tracks know the data's clips by index and length; `pool_size` and `signal_capacity` as in
  // AnimationTracks.
  explicit AnimatedSkeleton(const SkeletonData& data, int pool_size = 8, int signal_capacity = 64);

  const SkeletonData& data() const { return instance_.data(); }
  SkeletonInstance& instance() { return instance_; }
  SkeletonPose& pose() { return instance_.pose(); }
  const SkeletonPose& pose() const { return instance_.pose(); }
  anim::AnimationTracks& tracks() { return tracks_; }
  const anim::AnimationTracks& tracks() const { return tracks_; }

  // Advances the tracks by `delta` seconds and poses the skeleton (steps 1 to 5 above).
  // context.delta is replaced by `delta` (physics steps with the tracks).
  void update(float delta, FrameContext context = {});

  // Overrides of one bone; a later set replaces the earlier one. Out-of-range bones are ignored.
  void set_bone_override(int bone, const BoneOverride& o);
  void clear_bone_override(int bone);
  void clear_bone_overrides();
  const BoneOverride* bone_override(int bone) const;

  // The last tick's clip events (valid until the next update) and the samples that fired them.
  std::span<const FiredEvent> events() const { return instance_.events(); }
  std::span<const anim::ClipSample> samples() const { return samples_; }
  // The track a fired event came from.
  int event_track(const FiredEvent& e) const {
    return anim::AnimationTracks::track_of_layer(samples_[static_cast<std::size_t>(e.sample)].layer);
  }

  // Delivers the last tick's clip events, on_event(const FiredEvent&, int track), then the track
  // signals queued since the last drain, on_signal(const anim::TrackSignal&), and clears the signals
  // (disposed entries are freed then). Call it after update(); events are delivered once.
  template <class OnEvent, class OnSignal>
  void drain(OnEvent&& on_event, OnSignal&& on_signal) {
    if (!events_drained_) {
      for (const FiredEvent& e : events()) on_event(e, event_track(e));
      events_drained_ = true;
    }
    tracks_.drain_signals(on_signal);
  }

 private:
  void apply_overrides();
  void apply_local(int bone, const BoneOverride& o);
  void apply_world(int bone, const BoneOverride& o);

  SkeletonInstance instance_;
  anim::AnimationTracks tracks_;
  std::span<const anim::ClipSample> samples_;
  std::vector<BoneOverride> overrides_;  // per bone
  std::vector<std::uint8_t> overridden_;  // per bone
  std::vector<int> chain_;                // scratch: a bone's ancestors
  int override_count_ = 0;
  bool events_drained_ = true;
};

}  // namespace mf::skel
