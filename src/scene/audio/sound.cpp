#include "mf/scene/audio/sound.hpp"

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>

#include "sound_limits.hpp"

namespace mf::scene {

namespace {

Unexpected fail(const std::string& name, std::string message) {
  return Unexpected{detail::sound_error(name, std::move(message))};
}

bool starts_with(std::span<const std::uint8_t> bytes, std::size_t at, const char* magic) {
  const std::size_t n = std::strlen(magic);
  return bytes.size() >= at + n && std::memcmp(bytes.data() + at, magic, n) == 0;
}

}  // namespace

Expected<Sound> Sound::from_samples(std::vector<float> samples, int rate) {
  if (samples.size() % 2 != 0)
    return fail("", "interleaved stereo needs an even number of samples, not " + std::to_string(samples.size()));
  if (rate < kMinSampleRate || rate > kMaxSampleRate)
    return fail("", "sample rate " + std::to_string(rate) + " Hz is outside " + std::to_string(kMinSampleRate) +
                        " to " + std::to_string(kMaxSampleRate) + " Hz");
  // Float files may hold NaN or infinity, which would poison every mix they are summed into.
  for (float& s : samples)
    if (!std::isfinite(s)) s = 0.0f;
  Sound sound;
  sound.samples_ = std::move(samples);
  sound.rate_ = rate;
  return sound;
}

Expected<Sound> Sound::from_mono(std::span<const float> samples, int rate) {
  std::vector<float> stereo(samples.size() * 2);
  for (std::size_t i = 0; i < samples.size(); ++i) stereo[2 * i] = stereo[2 * i + 1] = samples[i];
  return from_samples(std::move(stereo), rate);
}

Expected<Sound> decode_sound(std::span<const std::uint8_t> bytes, const std::string& name, int rate) {
  if (starts_with(bytes, 0, "RIFF") && starts_with(bytes, 8, "WAVE")) return decode_wav(bytes, name, rate);
  if (starts_with(bytes, 0, "OggS")) return decode_ogg(bytes, name, rate);
  if (bytes.empty()) return fail(name, "is empty");
  return fail(name, "not a WAV or Ogg Vorbis file (unsupported format)");
}

Expected<Sound> load_sound(const std::string& path, int rate) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(path, std::string("cannot open: ") + std::strerror(errno));
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return fail(path, "cannot read");
  return decode_sound(bytes, path, rate);
}

}  // namespace mf::scene
