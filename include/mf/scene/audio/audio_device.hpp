#pragma once
// AudioDevice: an SDL2 audio output whose callback renders an AudioMixer.
//
//   AudioMixer mixer;
//   auto device = AudioDevice::open(mixer, {.buffer_frames = 512});
//   ... mixer.play(...) from the game thread; SDL's audio thread calls mixer.mix ...
//
// The device is float32 stereo at the mixer's rate; SDL converts to what the hardware wants. It
// starts playing when opened; destroying it closes the device (the callback has returned by then)
// and releases SDL's audio subsystem. The mixer must outlive the device.
//
// Headless: SDL_AUDIODRIVER=dummy discards the samples; SDL_AUDIODRIVER=disk with
// SDL_DISKAUDIOFILE=<path> writes the raw samples (f32, interleaved, native endianness) to a file,
// which the tests read back. Set them before the first open (SDL reads them when its audio starts).

#include <SDL2/SDL.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "mf/core/expected.hpp"
#include "mf/scene/audio/audio_mixer.hpp"

namespace mf::scene {

struct AudioDeviceOptions {
  int buffer_frames = 512;   // frames per callback (SDL may round it); latency = buffer / rate
  std::string device_name;   // empty: the default output
};

class AudioDevice {
 public:
  // Starts SDL's audio subsystem and opens the device. Errors say why SDL refused (no driver, no
  // device, a format it cannot give).
  static Expected<std::unique_ptr<AudioDevice>> open(AudioMixer& mixer, const AudioDeviceOptions& options = {});
  ~AudioDevice();
  AudioDevice(const AudioDevice&) = delete;
  AudioDevice& operator=(const AudioDevice&) = delete;

  // The audio clock: frames handed to SDL so far (written by the callback, read from any thread).
  std::int64_t frames_played() const { return frames_played_.load(std::memory_order_acquire); }
  int sample_rate() const { return sample_rate_; }
  int buffer_frames() const { return buffer_frames_; }  // what SDL granted
  void set_paused(bool paused);
  // The driver SDL chose ("pulseaudio", "alsa", "disk", "dummy", ...).
  static const char* driver_name();

 private:
  explicit AudioDevice(AudioMixer& mixer) : mixer_(mixer) {}
  static void callback(void* self, Uint8* stream, int bytes);

  AudioMixer& mixer_;
  SDL_AudioDeviceID id_ = 0;
  int sample_rate_ = 0;
  int buffer_frames_ = 0;
  std::atomic<std::int64_t> frames_played_{0};
};

}  // namespace mf::scene
