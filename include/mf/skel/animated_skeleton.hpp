#pragma once
// AnimatedSkeleton: a SkeletonInstance played by AnimationTracks (and optionally an animation graph),
// with bone overrides from code. One tick, in the proposal's order:
//   1. graph.update(delta)             when a graph player is attached: parameters → states, mixes
//      tracks.update(delta)            track times, queues, mixes; signals are queued, not delivered
//   2. samples                         the graph's ClipSamples first (layers 0 … g − 1), then the
//                                      tracks' above them (their layers offset by g = the graph's
//                                      layer_count()), so code tracks layer over the graph
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

#include "mf/anim/animation_graph_player.hpp"
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

// Binds an animation graph to this data's clips and bones (for an AnimationGraphPlayer). Not for the
// frame loop: it allocates.
Expected<anim::GraphBinding> bind_graph(const anim::AnimationGraph& graph, const SkeletonData& data);

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

  // Plays `graph` under the tracks from the next update (nullptr detaches). Not owned: it must be
  // bound to this data (bind_graph above) and outlive its use here. Its parameters, queries and
  // signals stay the caller's: drain its signals from the player itself.
  void set_graph(anim::AnimationGraphPlayer* graph);
  anim::AnimationGraphPlayer* graph() const { return graph_; }

  // Advances the graph and the tracks by `delta` seconds and poses the skeleton (steps 1 to 5 above).
  // context.delta is replaced by `delta` (physics steps with the tracks).
  void update(float delta, FrameContext context = {});
  // Step 1 and the events of step 6 alone: the graph and the tracks advance and the clip events of
  // that time fire (drain() delivers them), but the pose keeps the last update's values. For a
  // skeleton that is not drawn (off screen) whose time and events must go on.
  void advance_time(float delta);

  // Overrides of one bone; a later set replaces the earlier one. Out-of-range bones are ignored.
  void set_bone_override(int bone, const BoneOverride& o);
  void clear_bone_override(int bone);
  void clear_bone_overrides();
  const BoneOverride* bone_override(int bone) const;

  // The last tick's clip events (valid until the next update) and the samples that fired them.
  std::span<const FiredEvent> events() const { return instance_.events(); }
  std::span<const anim::ClipSample> samples() const { return samples_; }
  // The track a fired event came from; −1 for an event of the graph (its graph layer is the
  // sample's layer).
  int event_track(const FiredEvent& e) const {
    const int layer = samples_[static_cast<std::size_t>(e.sample)].layer;
    return layer < graph_layers_ ? -1 : anim::AnimationTracks::track_of_layer(layer - graph_layers_);
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
  // Step 1 and the samples of step 2.
  void advance(float delta);
  void apply_overrides();
  void apply_local(int bone, const BoneOverride& o);
  void apply_world(int bone, const BoneOverride& o);

  SkeletonInstance instance_;
  anim::AnimationTracks tracks_;
  anim::AnimationGraphPlayer* graph_ = nullptr;
  int graph_layers_ = 0;                      // the graph's layer count, while one is attached
  std::vector<anim::ClipSample> combined_;    // graph samples, then the tracks' (grows with the tracks)
  std::span<const anim::ClipSample> samples_;
  std::vector<BoneOverride> overrides_;  // per bone
  std::vector<std::uint8_t> overridden_;  // per bone
  std::vector<int> chain_;                // scratch: a bone's ancestors
  int override_count_ = 0;
  bool events_drained_ = true;
};

}  // namespace mf::skel
