#pragma once
// AudioMixer: voices (sounds playing) summed through named buses into interleaved stereo float.
//
//   AudioMixer mixer({.sample_rate = 48000, .max_voices = 64});
//   auto sfx = mixer.create_bus("SFX", 0.8f);                    // routes to "Master"
//   auto voice = mixer.play(hit, {.bus = "SFX", .volume = 0.5f, .pan = -0.3f});
//   ...  the audio callback (AudioDevice) calls mixer.mix(out, frames)
//
// Per output frame: Σ over voices of sample × voice volume × pan gain × bus gain × master gain,
// clamped to [−1, 1]. A bus's gain is its volume, or 0 when muted; "Master" is a bus like the
// others (volume, mute) that every other bus routes to. Pan is constant-power: with
// θ = (pan + 1) · π/4, the left gain is cos θ and the right sin θ (pan −1: left only, 0: both at
// √½, +1: right only); on a stereo sound it weighs each channel (a balance).
//
// The clock: mix() advances frames_mixed() by the frames it renders. PlayOptions::start_frame places
// a sound's first frame on that clock, exactly to the sample; a frame already mixed means "as soon
// as possible" (the first frame of the next mix).
//
// Nothing allocates after construction: the voices are a fixed pool (max_voices), the buses a fixed
// table (max_buses); play() with every voice busy is an error, not an allocation.
//
// Threads: play, stop, the bus setters and the queries come from one game thread; mix() from the
// audio callback. One std::mutex guards the state: mix() holds it while it renders one buffer (a
// few microseconds for a few hundred frames), the others for a few hundred nanoseconds. A Sound must
// outlive every voice playing it: destroy or replace sounds only after stopping their voices and
// after a mix() has run since (or with the device closed).

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/scene/audio/sound.hpp"

namespace mf::scene {

// A voice: its slot in the pool and the slot's generation, so an id of a voice that ended and whose
// slot was reused is stale (stop() ignores it, is_playing() says false). The default id is never a
// voice.
struct VoiceId {
  std::uint32_t slot = 0;
  std::uint32_t generation = 0;  // 0: no voice
  friend bool operator==(const VoiceId&, const VoiceId&) = default;
};

struct PlayOptions {
  std::string_view bus = "Master";
  float volume = 1.0f;          // linear gain, ≥ 0 (negative, NaN and infinite: 0)
  float pan = 0.0f;             // −1 (left) … +1 (right); clamped (NaN: 0)
  std::int64_t start_frame = 0; // the mixer frame at which the sound's first frame sounds
};

struct MixerOptions {
  int sample_rate = kDefaultSampleRate;
  int max_voices = 64;
  int max_buses = 16;  // "Master" included
};

class AudioMixer {
 public:
  explicit AudioMixer(const MixerOptions& options = {});
  AudioMixer(const AudioMixer&) = delete;
  AudioMixer& operator=(const AudioMixer&) = delete;

  int sample_rate() const { return sample_rate_; }
  int max_voices() const { return static_cast<int>(voices_.size()); }

  // A bus routed to "Master". Errors: an empty or taken name, a full table, a negative volume.
  Status create_bus(std::string_view name, float volume = 1.0f);
  bool has_bus(std::string_view name) const;
  // Errors name the unknown bus; a negative volume is an error.
  Status set_bus_volume(std::string_view name, float volume);
  Status set_bus_mute(std::string_view name, bool muted);

  // Starts `sound` (which must be at the mixer's rate and outlive the voice). Errors: an unknown bus,
  // a sound at another rate, every voice busy. An empty sound plays and ends at once.
  Expected<VoiceId> play(const Sound& sound, const PlayOptions& options = {});
  // Ends a voice now (before the next mixed frame); a stale or default id does nothing.
  void stop(VoiceId voice);
  void stop_all();
  bool is_playing(VoiceId voice) const;
  int active_voices() const;
  // Frames rendered by mix() so far: the mixer's clock.
  std::int64_t frames_mixed() const;

  // Renders `frames` frames of interleaved stereo into out[0 .. 2·frames). Voices that reach the end
  // of their sound end here and free their slot. Called from the audio thread.
  void mix(float* out, int frames);

 private:
  struct Bus {
    std::string name;
    float volume = 1.0f;
    bool muted = false;
  };
  struct Voice {
    const Sound* sound = nullptr;  // null: the slot is free
    std::uint32_t generation = 0;
    int bus = 0;
    float gain_left = 0.0f, gain_right = 0.0f;  // volume × pan gains
    std::int64_t start = 0;  // mixer frame of the sound's frame 0
  };

  int find_bus(std::string_view name) const;  // −1 when there is none

  mutable std::mutex mutex_;
  int sample_rate_;
  std::vector<Bus> buses_;  // [0] is "Master"; capacity max_buses
  std::size_t max_buses_;
  std::vector<Voice> voices_;
  std::uint32_t next_generation_ = 1;
  std::int64_t clock_ = 0;
};

}  // namespace mf::scene
