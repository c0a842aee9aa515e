// .ogg through stb_vorbis (Debian's libstb provides the implementation; the header is included as a
// header only): decoded frame by frame as float, mono copied to both channels, then resampled
// linearly to the target rate.
//
// Trust: stb_vorbis (Debian's 2022 snapshot) is not hardened against hostile files. fuzz_sound_loader
// found a setup header whose sizes overflow: with malloc, stb asks for a "negative" size, which
// fails cleanly (stb reports out of memory); with stb's own arena (stb_vorbis_alloc) the same input
// writes outside the arena, so the arena is not used. Some failed opens also leak a few KiB inside
// stb. Load .ogg files that ship with the game, not files from untrusted sources.

#include <climits>

#include "mf/scene/audio/resample.hpp"
#include "mf/scene/audio/sound.hpp"
#include "sound_limits.hpp"

#define STB_VORBIS_HEADER_ONLY
#include <stb/stb_vorbis.h>

namespace mf::scene {

namespace {

struct VorbisHandle {
  stb_vorbis* v = nullptr;
  ~VorbisHandle() {
    if (v) stb_vorbis_close(v);
  }
};

std::string vorbis_error_text(int code) {
  switch (code) {
    case VORBIS_outofmem: return "out of memory (or sizes in its setup header that overflow)";
    case VORBIS_unexpected_eof: return "truncated";
    case VORBIS_invalid_setup: return "invalid setup header";
    case VORBIS_invalid_stream: return "invalid stream";
    case VORBIS_missing_capture_pattern: return "missing Ogg capture pattern";
    case VORBIS_invalid_stream_structure_version: return "unsupported Ogg stream version";
    case VORBIS_continued_packet_flag_invalid: return "invalid continued-packet flag";
    case VORBIS_incorrect_stream_serial_number: return "wrong stream serial number";
    case VORBIS_invalid_first_page: return "invalid first page";
    case VORBIS_bad_packet_type: return "bad packet type";
    case VORBIS_cant_find_last_page: return "cannot find the last page";
    case VORBIS_seek_failed: return "seek failed";
    case VORBIS_ogg_skeleton_not_supported: return "Ogg Skeleton streams are not supported";
    case VORBIS_invalid_api_mixing:
    case VORBIS_too_many_channels:
    case VORBIS_feature_not_supported:
    case VORBIS_file_open_failure:
    case VORBIS_seek_without_length:
    default: return "error " + std::to_string(code);
  }
}

}  // namespace

Expected<Sound> decode_ogg(std::span<const std::uint8_t> bytes, const std::string& name, int rate) {
  auto fail = [&](std::string message) { return Unexpected{detail::sound_error(name, std::move(message))}; };
  if (bytes.size() > INT_MAX) return fail("is larger than 2 GiB");
  int error = 0;
  VorbisHandle handle;
  handle.v = stb_vorbis_open_memory(bytes.data(), static_cast<int>(bytes.size()), &error, nullptr);
  if (!handle.v) return fail("not an Ogg Vorbis file stb_vorbis can decode: " + vorbis_error_text(error));
  const stb_vorbis_info info = stb_vorbis_get_info(handle.v);
  if (info.channels < 1 || info.channels > 2)
    return fail("has " + std::to_string(info.channels) + " channels; mono and stereo are supported");
  const int source_rate = static_cast<int>(info.sample_rate);
  if (const std::string bad = detail::check_sound_size(0, source_rate); !bad.empty()) return fail(bad);
  const auto max_frames = static_cast<std::size_t>(kMaxSoundSeconds) * static_cast<std::size_t>(source_rate);

  std::vector<float> stereo;
  for (;;) {
    int channels = 0;
    float** output = nullptr;
    const int n = stb_vorbis_get_frame_float(handle.v, &channels, &output);
    if (n <= 0) break;
    if (channels != info.channels) return fail("changes its channel count mid-stream");
    if (stereo.size() / 2 + static_cast<std::size_t>(n) > max_frames)
      return fail("lasts more than the " + std::to_string(kMaxSoundSeconds) + " s a sound may");
    const float* left = output[0];
    const float* right = output[channels > 1 ? 1 : 0];
    for (int i = 0; i < n; ++i) {
      stereo.push_back(left[i]);
      stereo.push_back(right[i]);
    }
  }
  const int status = stb_vorbis_get_error(handle.v);
  if (status != VORBIS__no_error && status != VORBIS_unexpected_eof)
    return fail("corrupt audio data: " + vorbis_error_text(status));
  if (stereo.empty()) return fail("holds no audio (truncated or empty stream)");
  auto sound = Sound::from_samples(resample_stereo_linear(stereo, source_rate, rate), rate);
  if (!sound) return fail(sound.error().message);
  return sound;
}

}  // namespace mf::scene
