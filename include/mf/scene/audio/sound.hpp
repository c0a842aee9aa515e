#pragma once
// Sound: decoded PCM ready for the mixer: float32 stereo, interleaved (L R L R ...), at one sample
// rate (the mixer's). Everything is decoded and converted when the sound is loaded, so starting it
// later costs no decoding and no allocation.
//
//   auto hit = load_sound("sounds/hit.ogg");            // 48000 Hz unless told otherwise
//   if (!hit) log(hit.error().to_string());             // "sounds/hit.ogg: not a WAV or Ogg Vorbis file"
//
// .wav files go through SDL (SDL_LoadWAV: PCM 8/16/32-bit, float, ADPCM; SDL converts the format and
// the channels), .ogg files through libvorbisfile (mono or stereo; chained files whose links share
// one format). Both are then resampled linearly to the requested rate (resample.hpp).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mf/core/expected.hpp"

namespace mf::scene {

inline constexpr int kDefaultSampleRate = 48000;
// Rates a sound may have, in the file or as the target.
inline constexpr int kMinSampleRate = 1000;
inline constexpr int kMaxSampleRate = 384000;
// The longest sound a loader accepts, in seconds at the target rate (a guard against headers that
// promise hours of audio; 10 minutes of 48 kHz stereo float is 220 MiB).
inline constexpr int kMaxSoundSeconds = 600;

class Sound {
 public:
  Sound() = default;

  // A sound made in code: `samples` interleaved stereo at `rate`; NaN and infinite samples become 0
  // (every loader goes through here). Errors: an odd sample count, a rate outside
  // [kMinSampleRate, kMaxSampleRate].
  static Expected<Sound> from_samples(std::vector<float> samples, int rate = kDefaultSampleRate);
  // The same from mono samples (each copied to both channels).
  static Expected<Sound> from_mono(std::span<const float> samples, int rate = kDefaultSampleRate);

  int sample_rate() const { return rate_; }
  std::size_t frames() const { return samples_.size() / 2; }
  double seconds() const { return static_cast<double>(frames()) / rate_; }
  // Interleaved stereo: frame i is samples()[2i] (left), samples()[2i + 1] (right).
  std::span<const float> samples() const { return samples_; }

 private:
  std::vector<float> samples_;
  int rate_ = kDefaultSampleRate;
};

// Reads and decodes a .wav or .ogg file (told apart by their first bytes, not by the name) into a
// Sound at `rate`. Errors name the file: missing or unreadable, unsupported format, truncated or
// corrupt data, too many channels, too long.
Expected<Sound> load_sound(const std::string& path, int rate = kDefaultSampleRate);

// The same from bytes in memory; `name` is the file the errors name.
Expected<Sound> decode_sound(std::span<const std::uint8_t> bytes, const std::string& name,
                             int rate = kDefaultSampleRate);
// One decoder each, whatever the bytes start with (the fuzz target calls both on every input).
Expected<Sound> decode_wav(std::span<const std::uint8_t> bytes, const std::string& name,
                           int rate = kDefaultSampleRate);
Expected<Sound> decode_ogg(std::span<const std::uint8_t> bytes, const std::string& name,
                           int rate = kDefaultSampleRate);

}  // namespace mf::scene
