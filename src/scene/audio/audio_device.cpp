#include "mf/scene/audio/audio_device.hpp"

namespace mf::scene {

Expected<std::unique_ptr<AudioDevice>> AudioDevice::open(AudioMixer& mixer, const AudioDeviceOptions& options) {
  auto fail = [](std::string message) {
    Error e;
    e.message = std::move(message);
    return Unexpected{std::move(e)};
  };
  if (options.buffer_frames <= 0 || options.buffer_frames > 65535)
    return fail("audio buffer of " + std::to_string(options.buffer_frames) + " frames: it must be 1 to 65535");
  if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0) return fail(std::string("cannot start SDL's audio: ") + SDL_GetError());
  std::unique_ptr<AudioDevice> device(new AudioDevice(mixer));
  SDL_AudioSpec want{};
  want.freq = mixer.sample_rate();
  want.format = AUDIO_F32SYS;
  want.channels = 2;
  want.samples = static_cast<Uint16>(options.buffer_frames);
  want.callback = &AudioDevice::callback;
  want.userdata = device.get();
  SDL_AudioSpec have{};
  // No allowed changes: SDL converts whatever the hardware wants from exactly this format and rate,
  // so the callback always receives f32 stereo at the mixer's rate.
  const char* name = options.device_name.empty() ? nullptr : options.device_name.c_str();
  device->id_ = SDL_OpenAudioDevice(name, 0, &want, &have, 0);
  if (device->id_ == 0) {
    std::string message = std::string("cannot open the audio device") + (name ? std::string(" \"") + name + "\"" : "") +
                          ": " + SDL_GetError();
    SDL_QuitSubSystem(SDL_INIT_AUDIO);
    return fail(std::move(message));
  }
  device->sample_rate_ = have.freq;
  device->buffer_frames_ = have.samples;
  SDL_PauseAudioDevice(device->id_, 0);
  return device;
}

AudioDevice::~AudioDevice() {
  if (id_ == 0) return;
  SDL_CloseAudioDevice(id_);  // waits for the callback to return
  SDL_QuitSubSystem(SDL_INIT_AUDIO);
}

void AudioDevice::set_paused(bool paused) { SDL_PauseAudioDevice(id_, paused ? 1 : 0); }

const char* AudioDevice::driver_name() {
  const char* name = SDL_GetCurrentAudioDriver();
  return name ? name : "";
}

void AudioDevice::callback(void* self, Uint8* stream, int bytes) {
  auto* device = static_cast<AudioDevice*>(self);
  const int frames = bytes / static_cast<int>(2 * sizeof(float));
  device->mixer_.mix(reinterpret_cast<float*>(stream), frames);
  device->frames_played_.fetch_add(frames, std::memory_order_acq_rel);
}

}  // namespace mf::scene
