// .wav through SDL: SDL_LoadWAV_RW parses the file (PCM, float, ADPCM, ...) and SDL_AudioCVT turns
// it into float32 stereo at the file's own rate; the linear resampler does the rate, as for .ogg.

#include <SDL2/SDL.h>

#include <climits>
#include <cstring>

#include "mf/scene/audio/resample.hpp"
#include "mf/scene/audio/sound.hpp"
#include "sound_limits.hpp"

namespace mf::scene {

namespace {

// SDL_LoadWAV allocates each chunk at the size its header claims before reading it, so a 60-byte
// file claiming a 4 GiB data chunk allocates 4 GiB (found by fuzz_sound_loader). Walk the chunks
// first and refuse any that claims more bytes than follow it.
std::string check_chunk_sizes(std::span<const std::uint8_t> bytes) {
  auto u32 = [&](std::size_t at) {
    return static_cast<std::uint32_t>(bytes[at]) | static_cast<std::uint32_t>(bytes[at + 1]) << 8 |
           static_cast<std::uint32_t>(bytes[at + 2]) << 16 | static_cast<std::uint32_t>(bytes[at + 3]) << 24;
  };
  std::size_t at = 12;  // after "RIFF", the RIFF size and "WAVE"
  while (at + 8 <= bytes.size()) {
    const std::uint32_t size = u32(at + 4);
    const std::size_t left = bytes.size() - at - 8;
    if (size > left) {
      const std::string id(reinterpret_cast<const char*>(bytes.data() + at), 4);
      std::string printable;
      for (char c : id) printable += (c >= 32 && c < 127) ? c : '?';
      return "truncated: chunk \"" + printable + "\" claims " + std::to_string(size) + " bytes but " +
             std::to_string(left) + " follow it";
    }
    at += 8 + size + (size & 1u);  // chunks are padded to even sizes
  }
  return {};
}

struct WavBuffer {
  Uint8* data = nullptr;
  ~WavBuffer() { SDL_FreeWAV(data); }
};

}  // namespace

Expected<Sound> decode_wav(std::span<const std::uint8_t> bytes, const std::string& name, int rate) {
  auto fail = [&](std::string message) { return Unexpected{detail::sound_error(name, std::move(message))}; };
  if (bytes.size() > INT_MAX) return fail("is larger than 2 GiB");
  // SDL also reads files that lack the RIFF header; refusing them keeps the chunk walk above true.
  if (bytes.size() < 12 || std::memcmp(bytes.data(), "RIFF", 4) != 0 || std::memcmp(bytes.data() + 8, "WAVE", 4) != 0)
    return fail("not a WAV file (no RIFF/WAVE header)");
  if (const std::string bad = check_chunk_sizes(bytes); !bad.empty()) return fail(bad);
  SDL_RWops* rw = SDL_RWFromConstMem(bytes.data(), static_cast<int>(bytes.size()));
  if (!rw) return fail(std::string("cannot read: ") + SDL_GetError());
  SDL_AudioSpec spec{};
  WavBuffer wav;
  Uint32 length = 0;
  if (!SDL_LoadWAV_RW(rw, 1, &spec, &wav.data, &length))
    return fail(std::string("not a WAV file SDL can decode (truncated, corrupt or an unsupported encoding): ") +
                SDL_GetError());
  if (spec.channels == 0) return fail("has no channels");
  const int frame_bytes = SDL_AUDIO_BITSIZE(spec.format) / 8 * spec.channels;
  if (frame_bytes <= 0) return fail("has an unsupported sample format");
  const std::size_t frames = length / static_cast<Uint32>(frame_bytes);
  if (const std::string bad = detail::check_sound_size(frames, spec.freq); !bad.empty()) return fail(bad);

  SDL_AudioCVT cvt;
  if (SDL_BuildAudioCVT(&cvt, spec.format, spec.channels, spec.freq, AUDIO_F32SYS, 2, spec.freq) < 0)
    return fail(std::string("cannot convert its samples: ") + SDL_GetError());
  const std::size_t in_bytes = frames * static_cast<std::size_t>(frame_bytes);
  const std::size_t buffer_bytes = in_bytes * static_cast<std::size_t>(cvt.len_mult > 0 ? cvt.len_mult : 1);
  if (buffer_bytes > INT_MAX) return fail("is too long to convert");
  std::vector<Uint8> buffer(buffer_bytes + 16);
  if (in_bytes > 0) std::memcpy(buffer.data(), wav.data, in_bytes);
  cvt.buf = buffer.data();
  cvt.len = static_cast<int>(in_bytes);
  if (cvt.needed && SDL_ConvertAudio(&cvt) < 0) return fail(std::string("cannot convert its samples: ") + SDL_GetError());
  const std::size_t out_bytes = cvt.needed ? static_cast<std::size_t>(cvt.len_cvt) : in_bytes;

  std::vector<float> stereo(out_bytes / sizeof(float) / 2 * 2);
  if (!stereo.empty()) std::memcpy(stereo.data(), buffer.data(), stereo.size() * sizeof(float));
  auto sound = Sound::from_samples(resample_stereo_linear(stereo, spec.freq, rate), rate);
  if (!sound) return fail(sound.error().message);
  return sound;
}

}  // namespace mf::scene
