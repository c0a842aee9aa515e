#pragma once
// Checks every decoder shares before it converts: the source rate and the decoded length.

#include <cstddef>
#include <string>

#include "mf/core/error.hpp"
#include "mf/scene/audio/sound.hpp"

namespace mf::scene::detail {

inline Error sound_error(const std::string& name, std::string message) {
  Error e;
  e.file = name;
  e.message = std::move(message);
  return e;
}

// An empty message when `rate` (Hz, as a file states it) is within the limits.
inline std::string check_sample_rate(long long rate) {
  if (rate < kMinSampleRate || rate > kMaxSampleRate)
    return "sample rate " + std::to_string(rate) + " Hz is outside " + std::to_string(kMinSampleRate) + " to " +
           std::to_string(kMaxSampleRate) + " Hz";
  return {};
}

// An empty message when a sound of `frames` frames at `from` Hz is within the limits (its length in
// seconds does not change with resampling).
inline std::string check_sound_size(std::size_t frames, int from) {
  if (std::string bad = check_sample_rate(from); !bad.empty()) return bad;
  const double seconds = static_cast<double>(frames) / from;
  if (seconds > kMaxSoundSeconds)
    return "lasts " + std::to_string(static_cast<long long>(seconds)) + " s, more than the " +
           std::to_string(kMaxSoundSeconds) + " s a sound may";
  return {};
}

}  // namespace mf::scene::detail
