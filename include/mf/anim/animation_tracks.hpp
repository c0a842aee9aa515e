#pragma once
// AnimationTracks: layered playback of clips with crossfade mixing and queueing, producing the
// frame's ClipSamples. Skeleton-agnostic: it knows clips only by index and length, and bones only by
// count (for the rotation latches it owns).
//
// Per frame: update(delta), then write_samples() / samples() for the pose backend, then
// drain_signals(). Nothing allocates per frame once the pool is warm; the pool, the track list and
// the mix table grow only at the calls that need more (set_clip on a new track, queueing more
// entries than the pool holds, set_mix).
//
// Weights. Track t's entries form a chain E0 (oldest, mixing out) … En (current), at most
// kMaxMixChain long. With m_k the mix fraction of E_k (mixTime / mixDuration), E_n takes m_n of the
// layer, E_(n−1) takes m_(n−1) of the rest, and so on; the oldest takes what remains. Each share is
// multiplied by the entry's alpha. So a two-entry crossfade gives m·α to the entry mixing in and
// (1 − m)·α to the one mixing out, and the weights of a layer sum to at most 1. Empty entries take
// their share without a sample, so that share keeps the pose below (the layer fades out).
//
// Layers. A sample's layer is track × kLayersPerTrack + sub-layer. An entry with hold_previous
// puts the entries it replaced into a lower sub-layer at their full share (alpha), and mixes in
// over them; without hold_previous every entry of a track is in one sub-layer. track_of_layer()
// maps a sample's layer back to its track.
//
// Rotation latches. Every entry owns bone_count floats. A sample that is not the first of its
// (sub-)layer points ClipSample::rotation_latch at its entry's latch, which pairs it with that first
// entry; the latch is filled with NaN when the entry's mix starts and again whenever its pair
// changes (older entries dropped), and is otherwise left to the sampler for the whole mix.
//
// Events. The current entry's clip events always fire (ClipSample::event_threshold = 0). A
// mixing-out entry's fire while the mix fraction of the entry that replaced it is below its
// event_threshold; the tracks decide this and write event_threshold = 0 (fire) or +inf (never: the
// sampler fires while weight ≥ event_threshold, and weights never exceed 1). Windows the sampler
// cannot express from one sample (reversed playback, a loop wrap inside an animation sub-range) are
// written as extra samples of weight 0 that carry only events: the sampler fires events for them
// but samples nothing.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "mf/anim/clip_sample.hpp"
#include "mf/anim/track_entry.hpp"

namespace mf::anim {

inline constexpr int kMaxMixChain = 4;
inline constexpr int kLayersPerTrack = kMaxMixChain;
// An entry writes its pose sample and at most two event-only samples.
inline constexpr int kMaxSamplesPerTrack = kMaxMixChain * 3;

class AnimationTracks {
 public:
  // clip_lengths: the length of each clip (index = clip); bone_count: the size of each rotation
  // latch; pool_size: entries allocated up front; signal_capacity: signals held between drains.
  AnimationTracks(std::span<const float> clip_lengths, int bone_count, int pool_size = 8,
                  int signal_capacity = 64);

  int clip_count() const { return static_cast<int>(lengths_.size()); }
  int bone_count() const { return bone_count_; }
  static constexpr int track_of_layer(int layer) { return layer / kLayersPerTrack; }

  // Plays `clip` on `track` now, mixing from the current entry over the mix duration of the pair
  // (set_mix, else default_mix). Queued entries of the track are disposed. A current entry never
  // sampled is replaced instead of mixed from. An invalid track or clip gives a null handle.
  TrackEntryHandle set_clip(int track, int clip, bool loop);
  // Queues `clip` after the track's last entry. delay > 0: seconds after that entry starts;
  // delay ≤ 0: relative to its end (its next loop end when looping), minus the new entry's mix
  // duration, so the mix finishes `−delay` seconds before that end. The delay is computed here:
  // changing the mix duration afterwards does not move it.
  TrackEntryHandle add_clip(int track, int clip, bool loop, float delay);
  // Mixes the track out to the pose below over `mix` seconds; the empty entry then ends itself.
  TrackEntryHandle set_empty(int track, float mix);
  TrackEntryHandle add_empty(int track, float mix, float delay);
  // Removes every entry of the track (or of all tracks) at once, without mixing.
  void clear_track(int track);
  void clear_tracks();

  // The entry behind a handle, or nullptr when the handle is stale (the entry was disposed).
  TrackEntry* entry(TrackEntryHandle handle);
  const TrackEntry* entry(TrackEntryHandle handle) const;
  // The track's current entry (null handle when the track is empty).
  TrackEntryHandle current(int track) const;
  // The entry queued after `handle` (null handle when none, or when `handle` is stale): from
  // current(track), the track's queue in order.
  TrackEntryHandle queued_after(TrackEntryHandle handle) const;
  // The entry `handle` replaced that is still mixing out under it (null handle when none, or when
  // `handle` is stale): from current(track), the track's crossfade chain, newest to oldest.
  TrackEntryHandle mixing_from(TrackEntryHandle handle) const;
  int track_count() const { return static_cast<int>(tracks_.size()); }

  float default_mix() const { return default_mix_; }
  void set_default_mix(float seconds) { default_mix_ = seconds; }
  // Mix duration from clip `from` to clip `to`; the table is sorted once per call, looked up by
  // binary search.
  void set_mix(int from, int to, float duration);
  float mix(int from, int to) const;

  float time_scale() const { return time_scale_; }
  void set_time_scale(float v) { time_scale_ = v; }

  // Advances every track by `delta` seconds (× time_scale): track times, delays, queued entries
  // moving in (at most one per track per call), mixes; entries fully mixed out are ended and
  // disposed. Entries disposed before this call are freed first, so read entries from the signals
  // before the next update.
  void update(float delta);

  // The frame's samples, grouped by layer, lowest first; the number of samples written (at most
  // out.size(); max_samples() always fits). Marks the sampled window as consumed: the next call
  // starts its event windows where this one stopped.
  std::size_t write_samples(std::span<ClipSample> out);
  // The same into storage owned by the tracks (valid until the next call).
  std::span<const ClipSample> samples();
  std::size_t max_samples() const { return tracks_.size() * kMaxSamplesPerTrack; }

  // Signals queued since the last clear, in order.
  std::span<const TrackSignal> signals() const { return signals_; }
  // Signals that did not fit the buffer since the last clear.
  std::size_t dropped_signals() const { return dropped_signals_; }
  // Forgets the signals and frees the disposed entries (their handles become stale).
  void clear_signals();
  // Calls f(const TrackSignal&) for each signal (entries still readable), then clear_signals().
  template <class F>
  void drain_signals(F&& f) {
    for (const TrackSignal& s : signals_) f(s);
    clear_signals();
  }

  // Pool statistics, for tests and tools.
  std::size_t pool_capacity() const { return pool_.size(); }
  std::size_t pool_in_use() const { return pool_.size() - free_.size(); }

  // The rotation latch of an entry (bone_count floats), for tests and tools; empty when stale.
  std::span<const float> rotation_latch(TrackEntryHandle handle) const;

 private:
  static constexpr std::uint32_t kNone = TrackEntry::kNone;

  struct Track {
    std::uint32_t current = kNone;
  };

  TrackEntry& at(std::uint32_t i) { return pool_[i]; }
  const TrackEntry& at(std::uint32_t i) const { return pool_[i]; }
  TrackEntryHandle handle_of(std::uint32_t i) const { return {i, pool_[i].generation_}; }
  float length_of(int clip) const;

  Track& ensure_track(int track);
  std::uint32_t acquire(int track, int clip, bool loop);
  void signal(TrackSignalKind kind, std::uint32_t i);
  void dispose(std::uint32_t i);              // Disposed signal, freed at clear_signals()
  void end_and_dispose(std::uint32_t i);      // Ended + Disposed
  void dispose_queue(std::uint32_t first);    // queued entries never started: Disposed only
  void end_mixing_chain(std::uint32_t from);  // Ended + Disposed for an entry and everything it mixes from
  void set_current(int track, std::uint32_t i, bool replace_unsampled);
  void reset_latch(std::uint32_t i);
  float* latch(std::uint32_t i) { return latches_.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(bone_count_); }
  void advance(std::uint32_t i, float delta);  // track time + Completed signals
  void free_disposed();
  std::uint32_t last_of(const Track& t) const;
  TrackEntryHandle queue(int track, std::uint32_t i, float delay);
  std::size_t write_track(const Track& t, int track, std::span<ClipSample> out);

  std::vector<float> lengths_;
  int bone_count_;
  std::vector<TrackEntry> pool_;
  std::vector<std::uint32_t> free_;
  std::vector<std::uint32_t> pending_free_;
  std::vector<float> latches_;  // bone_count_ floats per pool entry
  std::vector<Track> tracks_;
  struct MixPair {
    int from;
    int to;
    float duration;
  };
  std::vector<MixPair> mixes_;  // sorted by (from, to)
  float default_mix_ = 0;
  float time_scale_ = 1;
  std::vector<TrackSignal> signals_;
  std::size_t signal_capacity_;
  std::size_t dropped_signals_ = 0;
  std::vector<ClipSample> sample_buffer_;
};

}  // namespace mf::anim
