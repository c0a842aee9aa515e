// Fuzzes the sound loaders: every input goes to the WAV decoder (SDL_LoadWAV_RW over
// SDL_RWFromConstMem, then SDL's conversion) and to the Ogg Vorbis decoder (libvorbisfile over memory through our callbacks),
// whatever its first bytes. Beyond "no crash": an accepted sound is at the requested rate, whole
// stereo frames, finite samples (a float WAV's NaN and infinity are zeroed), within the length limit; a refused one has a message naming the file.

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "mf/scene/audio/sound.hpp"

namespace {

void check(const mf::Expected<mf::scene::Sound>& sound) {
  using namespace mf::scene;
  if (!sound.ok()) {
    if (sound.error().file != "fuzz.snd" || sound.error().message.empty()) std::abort();
    return;
  }
  if (sound->sample_rate() != 22050 || sound->samples().size() % 2 != 0) std::abort();
  if (sound->frames() > static_cast<std::size_t>(kMaxSoundSeconds) * 22050 + 1) std::abort();
  for (float s : sound->samples())
    if (!std::isfinite(s)) std::abort();  // non-finite samples of float files are zeroed at load
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  // A lower target rate than the usual 48000 keeps big accepted inputs cheap.
  check(mf::scene::decode_wav(bytes, "fuzz.snd", 22050));
  check(mf::scene::decode_ogg(bytes, "fuzz.snd", 22050));
  return 0;
}
