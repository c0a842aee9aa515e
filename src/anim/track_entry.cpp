#include "mf/anim/track_entry.hpp"

#include <algorithm>
#include <cmath>

#include "crossfade.hpp"
#include "mf/anim/loop_time.hpp"

namespace mf::anim {

float TrackEntry::mix_fraction() const {
  return crossfade_fraction(mix_time_, mix_duration_);
}

float TrackEntry::range_start() const { return std::clamp(animation_start_, 0.0f, length_); }

float TrackEntry::range_end() const { return std::clamp(animation_end_, range_start(), length_); }

float TrackEntry::clip_time(float track_time, std::int32_t* loops) const {
  const float start = range_start(), end = range_end();
  const float duration = end - start;
  const float t = std::max(track_time, 0.0f);
  float forward;
  std::int32_t passes = 0;
  if (loop_ && duration > 0) {
    const LoopPosition at = loop_position(t, duration);
    forward = start + at.time;
    passes = at.wraps;
  } else {
    forward = std::min(start + t, end);
  }
  if (loops) *loops = passes;
  return reverse_ ? start + end - forward : forward;
}

void TrackEntry::reset(int clip, int track, bool loop, float length) {
  const std::uint32_t generation = generation_;
  *this = TrackEntry{};
  generation_ = generation;
  clip_ = clip;
  track_ = track;
  loop_ = loop;
  length_ = length;
  animation_end_ = length;
  in_use_ = true;
}

}  // namespace mf::anim
