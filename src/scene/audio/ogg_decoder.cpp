// .ogg through libvorbisfile (Xiph's libvorbis and libogg): opened from memory with our own read
// callback over the bytes, decoded as float, mono copied to both channels, then resampled linearly
// to the target rate.
//
// The stream is opened without seek and tell callbacks, so libvorbisfile reads it once, forwards,
// link after link. With them, its open bisects the file for the links of a chained stream, and in
// 1.3.7 that path leaks what it allocated for a link when the link is malformed (found by
// fuzz_sound_loader: fuzz/regressions/sound_loader/vorbisfile_*.ogg) and, for a good chained file,
// starts the decode at the last link. A whole-file decode needs no seeking.
//
// The decoder used to be Debian's stb_vorbis, which crashed inside its open call on malformed files
// under fuzzing (fuzz/regressions/sound_loader/stb_vorbis_*.ogg now replay against this one).

#include <vorbis/codec.h>

#define OV_EXCLUDE_STATIC_CALLBACKS  // the stdio callbacks in the header are unused statics
#include <vorbis/vorbisfile.h>

#include <climits>
#include <cstring>

#include "mf/scene/audio/resample.hpp"
#include "mf/scene/audio/sound.hpp"
#include "sound_limits.hpp"

namespace mf::scene {

namespace {

// The bytes libvorbisfile reads through the callbacks, and where it is in them.
struct MemorySource {
  std::span<const std::uint8_t> bytes;
  std::size_t at = 0;
};

std::size_t read_bytes(void* out, std::size_t size, std::size_t count, void* source) {
  auto& s = *static_cast<MemorySource*>(source);
  if (size == 0 || count == 0) return 0;
  const std::size_t left = s.bytes.size() - s.at;
  const std::size_t items = std::min(count, left / size);
  std::memcpy(out, s.bytes.data() + s.at, items * size);
  s.at += items * size;
  return items;
}

// Whatever the open or a read reports, in words.
std::string vorbis_error_text(long code) {
  switch (code) {
    case OV_EREAD: return "a read failed";
    case OV_EFAULT: return "internal decoder error";
    case OV_EIMPL: return "uses a feature the decoder does not implement";
    case OV_EINVAL: return "invalid argument";
    case OV_ENOTVORBIS: return "not Vorbis data";
    case OV_EBADHEADER: return "invalid Vorbis header";
    case OV_EVERSION: return "unsupported Vorbis version";
    case OV_ENOTAUDIO: return "a packet that is not audio";
    case OV_EBADPACKET: return "invalid packet";
    case OV_EBADLINK: return "a damaged link of a chained stream";
    case OV_ENOSEEK: return "the stream is not seekable";
    case OV_HOLE: return "a gap in the stream (missing or damaged pages)";
    default: return "error " + std::to_string(code);
  }
}

std::string channels_text(long n) { return std::to_string(n) + (n == 1 ? " channel" : " channels"); }

// Owns an opened OggVorbis_File (ov_open_callbacks clears the struct itself when it fails).
struct VorbisFile {
  OggVorbis_File file{};
  bool open = false;
  ~VorbisFile() {
    if (open) ov_clear(&file);
  }
};

}  // namespace

Expected<Sound> decode_ogg(std::span<const std::uint8_t> bytes, const std::string& name, int rate) {
  auto fail = [&](std::string message) { return Unexpected{detail::sound_error(name, std::move(message))}; };
  if (bytes.size() > INT_MAX) return fail("is larger than 2 GiB");
  if (bytes.empty()) return fail("is empty");
  MemorySource source{bytes, 0};
  const ov_callbacks callbacks{read_bytes, nullptr, nullptr, nullptr};  // forwards only (see the top)
  VorbisFile vorbis;
  if (const int opened = ov_open_callbacks(&source, &vorbis.file, nullptr, 0, callbacks); opened != 0)
    return fail("not an Ogg Vorbis file libvorbisfile can decode: " + vorbis_error_text(opened));
  vorbis.open = true;

  const vorbis_info* first = ov_info(&vorbis.file, -1);
  if (!first) return fail("not an Ogg Vorbis file libvorbisfile can decode: no stream information");
  if (first->channels < 1 || first->channels > 2)
    return fail("has " + channels_text(first->channels) + "; mono and stereo are supported");
  if (const std::string bad = detail::check_sample_rate(first->rate); !bad.empty()) return fail(bad);
  // Kept by value: the next link of a chained stream replaces the decoder's vorbis_info.
  const int channels = first->channels;
  const long source_rate_long = first->rate;
  const int source_rate = static_cast<int>(source_rate_long);
  const auto max_frames = static_cast<std::size_t>(kMaxSoundSeconds) * static_cast<std::size_t>(source_rate);

  // The length comes from decoding, not from the granule positions the file claims.
  std::vector<float> stereo;
  // Reading forwards, libvorbisfile reports a hole (OV_HOLE) where one link of a chained stream
  // ends and the next begins, as well as where pages are missing or damaged: a hole is refused
  // unless the data after it belongs to the next link.
  int last_link = 0;
  bool after_hole = false;
  for (;;) {
    float** pcm = nullptr;
    int link = 0;
    const long n = ov_read_float(&vorbis.file, &pcm, 4096, &link);
    if (n == 0) break;  // the end of the stream
    if (n == OV_HOLE) {
      after_hole = true;
      continue;
    }
    if (n < 0) return fail("corrupt audio data: " + vorbis_error_text(n));
    if (after_hole && link == last_link) return fail("corrupt audio data: " + vorbis_error_text(OV_HOLE));
    after_hole = false;
    last_link = link;
    // A chained stream may start a link of another format; a sound keeps one.
    const vorbis_info* info = ov_info(&vorbis.file, -1);
    if (!info) return fail("corrupt audio data: a link without stream information");
    if (info->channels != channels || info->rate != source_rate_long)
      return fail("a link of the chained stream has " + channels_text(info->channels) + " at " +
                  std::to_string(info->rate) + " Hz after " + channels_text(channels) + " at " +
                  std::to_string(source_rate_long) + " Hz; a sound keeps one format");
    if (stereo.size() / 2 + static_cast<std::size_t>(n) > max_frames)
      return fail("lasts more than the " + std::to_string(kMaxSoundSeconds) + " s a sound may");
    const float* left = pcm[0];
    const float* right = pcm[channels > 1 ? 1 : 0];
    for (long i = 0; i < n; ++i) {
      stereo.push_back(left[i]);
      stereo.push_back(right[i]);
    }
  }
  if (after_hole) return fail("corrupt audio data: " + vorbis_error_text(OV_HOLE));
  if (stereo.empty()) return fail("holds no audio (truncated or empty stream)");
  auto sound = Sound::from_samples(resample_stereo_linear(stereo, source_rate, rate), rate);
  if (!sound) return fail(sound.error().message);
  return sound;
}

}  // namespace mf::scene
