#pragma once
// TrackEntry: one clip playing (or queued, or mixing out) on a track of AnimationTracks. Entries live
// in the tracks' pool; code holds a TrackEntryHandle (pool index + generation) and resolves it with
// AnimationTracks::entry(), which returns nullptr once the entry has been disposed and freed.

#include <cstdint>
#include <limits>

#include "mf/anim/clip_sample.hpp"

namespace mf::anim {

struct TrackEntryHandle {
  std::uint32_t index = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t generation = 0;

  bool is_null() const { return index == std::numeric_limits<std::uint32_t>::max(); }
  friend bool operator==(const TrackEntryHandle&, const TrackEntryHandle&) = default;
};

// The clip index of an empty entry (set_empty / add_empty): it samples nothing, so the layer fades
// towards the pose below while it mixes in.
inline constexpr int kEmptyClip = -1;

class TrackEntry {
 public:
  int clip() const { return clip_; }
  int track() const { return track_; }
  bool is_empty() const { return clip_ == kEmptyClip; }
  std::uint32_t generation() const { return generation_; }

  bool loop() const { return loop_; }
  void set_loop(bool v) { loop_ = v; }

  // Seconds this entry has played (scaled by its own and the global time scale). Settable to seek.
  float track_time() const { return track_time_; }
  void set_track_time(float v) { track_time_ = v; }
  float time_scale() const { return time_scale_; }
  void set_time_scale(float v) { time_scale_ = v; }

  // Share of the layer this entry takes once fully mixed in, in [0, 1].
  float alpha() const { return alpha_; }
  void set_alpha(float v) { alpha_ = v; }

  // Seconds (of global-scaled time) over which this entry mixes in from the entry it replaced.
  float mix_duration() const { return mix_duration_; }
  void set_mix_duration(float v) { mix_duration_ = v; }
  float mix_time() const { return mix_time_; }
  // Seconds of the mix done so far; settable to move a crossfade (or restore one, as live reload does).
  void set_mix_time(float v) { mix_time_ = v; }
  // mix_time / mix_duration clamped to [0, 1]; 1 when the duration is 0.
  float mix_fraction() const;

  ClipBlend blend() const { return blend_; }
  void set_blend(ClipBlend v) { blend_ = v; }

  // While this entry mixes out, its clip events fire as long as the mix fraction of the entry that
  // replaced it is below this threshold. The current entry always fires its events.
  float event_threshold() const { return event_threshold_; }
  void set_event_threshold(float v) { event_threshold_ = v; }
  // Copied to ClipSample: discrete timelines of this entry apply only while its sample weight is at
  // least these (see ClipSample).
  float attachment_threshold() const { return attachment_threshold_; }
  void set_attachment_threshold(float v) { attachment_threshold_ = v; }
  float draw_order_threshold() const { return draw_order_threshold_; }
  void set_draw_order_threshold(float v) { draw_order_threshold_ = v; }

  // The entry this one replaced keeps its full share while this one mixes in over it (no dip
  // towards the pose below for properties only the previous clip keys).
  bool hold_previous() const { return hold_previous_; }
  void set_hold_previous(bool v) { hold_previous_ = v; }

  // Plays the clip (or the [animation_start, animation_end] range) backwards.
  bool reverse() const { return reverse_; }
  void set_reverse(bool v) { reverse_ = v; }

  // The played range of the clip, in clip seconds; a loop wraps within it. Set to [0, length] by
  // set_clip / add_clip; sampling clamps it into [0, length].
  float animation_start() const { return animation_start_; }
  float animation_end() const { return animation_end_; }
  void set_animation_start(float v) { animation_start_ = v; }
  void set_animation_end(float v) { animation_end_ = v; }
  // The range as played: start clamped to [0, length], end to [start, length].
  float range_start() const;
  float range_end() const;

  // Bones this entry may touch; nullptr means all. The mask must outlive the entry.
  const BoneMask* mask() const { return mask_; }
  void set_mask(const BoneMask* v) { mask_ = v; }

  // Queued: seconds of the previous entry's track time after its start at which this entry becomes
  // current. Current: seconds (scaled) still to wait before the track time starts advancing.
  float delay() const { return delay_; }
  void set_delay(float v) { delay_ = v; }

  // Track time at which the entry ends by itself (empty entries end once mixed in); +inf otherwise.
  float track_end() const { return track_end_; }
  void set_track_end(float v) { track_end_ = v; }

  // Clip time at a track time: wrapped into the range when looping (loop_time.hpp: a track time of
  // exactly k passes shows the range's end, only time past it wraps), clamped otherwise, mirrored
  // when reversed. `loops` receives the number of wraps back to the range's start.
  float clip_time(float track_time, std::int32_t* loops = nullptr) const;

 private:
  friend class AnimationTracks;

  void reset(int clip, int track, bool loop, float length);

  int clip_ = kEmptyClip;
  int track_ = 0;
  bool loop_ = false;
  float track_time_ = 0;
  float track_last_ = 0;  // track time at the last sampling (the event window starts here)
  float track_end_ = std::numeric_limits<float>::infinity();
  float time_scale_ = 1;
  float alpha_ = 1;
  float mix_duration_ = 0;
  float mix_time_ = 0;
  ClipBlend blend_ = ClipBlend::Replace;
  float event_threshold_ = 0.5f;
  float attachment_threshold_ = 0.5f;
  float draw_order_threshold_ = 0.5f;
  bool hold_previous_ = false;
  bool reverse_ = false;
  float animation_start_ = 0;
  float animation_end_ = 0;
  float length_ = 0;  // the clip's length
  const BoneMask* mask_ = nullptr;
  float delay_ = 0;

  // Pool bookkeeping (indices into the pool, kNone when absent).
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t generation_ = 0;
  std::uint32_t next_ = kNone;         // queued after this one
  std::uint32_t mixing_from_ = kNone;  // the entry this one replaced, still mixing out
  std::uint32_t latch_reference_ = kNone;  // first entry of the layer when the latch was last valid
  bool in_use_ = false;
  bool disposed_ = false;  // signalled, freed when the signals are cleared
  bool sampled_ = false;   // evaluated at least once (ClipSample::first)
};

enum class TrackSignalKind : std::uint8_t {
  Started,      // became the current entry of its track
  Interrupted,  // another entry replaced it; it may keep mixing out
  Ended,        // removed from the track (mixed out, cleared or ended by itself)
  Completed,    // reached the end of its range (once per loop pass)
  Disposed,     // returned to the pool once the signals are cleared; never use the handle after
};

struct TrackSignal {
  TrackSignalKind kind;
  int track;
  int clip;
  TrackEntryHandle entry;
};

}  // namespace mf::anim
