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

// An empty message when a sound of `frames` frames at `from` Hz is within the limits (its length in
// seconds does not change with resampling).
inline std::string check_sound_size(std::size_t frames, int from) {
  if (from < kMinSampleRate || from > kMaxSampleRate)
    return "sample rate " + std::to_string(from) + " Hz is outside " + std::to_string(kMinSampleRate) + " to " +
           std::to_string(kMaxSampleRate) + " Hz";
  const double seconds = static_cast<double>(frames) / from;
  if (seconds > kMaxSoundSeconds)
    return "lasts " + std::to_string(static_cast<long long>(seconds)) + " s, more than the " +
           std::to_string(kMaxSoundSeconds) + " s a sound may";
  return {};
}

}  // namespace mf::scene::detail
