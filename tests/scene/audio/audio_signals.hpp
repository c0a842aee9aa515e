#pragma once
// Helpers for the audio tests: tones, WAV bytes written in the test, and measurements.

#include <cmath>
#include <cstdint>
#include <numbers>
#include <span>
#include <string>
#include <vector>

namespace mf::testing {

// The bytes of a 16-bit PCM WAV file holding `samples`, interleaved: samples[frame * channels + channel].
inline std::string wav_bytes_s16(const std::vector<float>& samples, int channels, int rate) {
  std::string out;
  auto u32 = [&](std::uint32_t v) { for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(v >> (8 * i))); };
  auto u16 = [&](std::uint16_t v) { for (int i = 0; i < 2; ++i) out.push_back(static_cast<char>(v >> (8 * i))); };
  const auto data_bytes = static_cast<std::uint32_t>(samples.size() * 2);
  out += "RIFF";
  u32(36 + data_bytes);
  out += "WAVEfmt ";
  u32(16);
  u16(1);  // PCM
  u16(static_cast<std::uint16_t>(channels));
  u32(static_cast<std::uint32_t>(rate));
  u32(static_cast<std::uint32_t>(rate * channels * 2));
  u16(static_cast<std::uint16_t>(channels * 2));
  u16(16);
  out += "data";
  u32(data_bytes);
  for (float s : samples) u16(static_cast<std::uint16_t>(static_cast<std::int16_t>(std::lround(s * 32767.0f))));
  return out;
}

inline std::vector<float> sine(double frequency, int rate, int frames, float amplitude = 0.5f) {
  std::vector<float> out(static_cast<std::size_t>(frames));
  for (int i = 0; i < frames; ++i)
    out[static_cast<std::size_t>(i)] = amplitude * static_cast<float>(std::sin(2 * std::numbers::pi * frequency * i / rate));
  return out;
}

// The frequency of a tone in one channel of interleaved stereo, from its rising zero crossings
// between the first and the last (whole periods, so the estimate is exact for a clean sine).
inline double tone_frequency(std::span<const float> stereo, int channel, int rate) {
  long first = -1, last = -1, count = 0;
  const long frames = static_cast<long>(stereo.size() / 2);
  for (long i = 1; i < frames; ++i) {
    const float a = stereo[static_cast<std::size_t>(2 * (i - 1) + channel)];
    const float b = stereo[static_cast<std::size_t>(2 * i + channel)];
    if (a < 0 && b >= 0) {
      if (first < 0) first = i;
      last = i;
      ++count;
    }
  }
  if (count < 2) return 0;
  return static_cast<double>(count - 1) * rate / static_cast<double>(last - first);
}

}  // namespace mf::testing
