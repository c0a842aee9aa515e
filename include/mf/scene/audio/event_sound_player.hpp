#pragma once
// EventSoundPlayer: the sounds of a skeleton's events (EventData::audio), decoded when the player is
// made and played on an AudioMixer when the events fire.
//
//   AudioMixer mixer;
//   ensure_event_bus(mixer);                                             // "SFX", if missing
//   auto sounds = EventSoundPlayer::load(data, "rigs/hero", mixer);      // hero.mskel's folder
//   if (!sounds) log(sounds.error().to_string());  // "rigs/hero/audio/step.wav: event "footstep": cannot open: ..."
//   ...
//   skeleton.update(dt);
//   for (const skel::FiredEvent& e : skeleton.events()) sounds->play(e);
//
// Loading decodes every distinct audio path the data's events name, once, at the mixer's rate
// (load_sound: resampled linearly); events sharing a path share the sound. play() starts the event's
// sound with the fired key's volume as the voice's volume and its balance as the pan, and allocates
// nothing; an event without audio plays nothing.
//
// Buses: event sounds go to the bus named "SFX" (kEventSoundBus) unless play() is given another.
// The mixer has only "Master" at first; the host creates the bus (ensure_event_bus does it when it
// is missing), or play() is an error naming the bus.
//
// Sharing: the decoded sounds are immutable and shared; share() makes another player of the same
// sounds with voices of its own (one player per node, one decode per rig).
//
// Lifetime: the mixer must outlive the player. Destroying the player stops the voices it started
// (the mixer then no longer reads its sounds), so it may go while the device plays.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/scene/audio/audio_mixer.hpp"
#include "mf/scene/audio/sound.hpp"
#include "mf/skel/clip_sampler.hpp"
#include "mf/skel/skeleton_data.hpp"

namespace mf::scene {

// The bus event sounds play on by default.
inline constexpr std::string_view kEventSoundBus = "SFX";

// Creates `bus` (routed to "Master", at `volume`) unless the mixer has it already; an existing bus
// is left as it is. Errors as AudioMixer::create_bus (a full bus table).
Status ensure_event_bus(AudioMixer& mixer, std::string_view bus = kEventSoundBus, float volume = 1.0f);

class EventSoundPlayer {
 public:
  // Decodes the sound of every event of `data` that names one; `folder` is what the audio paths are
  // relative to (the folder of the rig's .mskel). Errors name the sound's file and the event: a path
  // that is absolute, a missing, unreadable or undecodable file (load_sound's message).
  static Expected<EventSoundPlayer> load(const skel::SkeletonData& data, const std::string& folder, AudioMixer& mixer);

  // Another player of the same decoded sounds (nothing is decoded again), on the same mixer, with
  // voices of its own: stop_all() and its destruction stop only what it started.
  EventSoundPlayer share() const;

  EventSoundPlayer(EventSoundPlayer&& other) noexcept;
  EventSoundPlayer& operator=(EventSoundPlayer&& other) noexcept;
  EventSoundPlayer(const EventSoundPlayer&) = delete;
  EventSoundPlayer& operator=(const EventSoundPlayer&) = delete;
  ~EventSoundPlayer();

  // Plays the sound of `event`'s event on `bus`, at volume event.volume and pan event.balance, its
  // first frame at mixer frame `start_frame` (0, or any frame already mixed: the first frame of the
  // next mix). Returns the voice, or the default VoiceId (no voice) when the event has no audio.
  // Errors: an event index outside the data's events, the mixer's (no such bus, every voice busy).
  // Allocates nothing unless it fails.
  Expected<VoiceId> play(const skel::FiredEvent& event, std::string_view bus = kEventSoundBus,
                         std::int64_t start_frame = 0);

  // The decoded sound of event `event` (an index into the data's events); nullptr without audio.
  const Sound* sound(int event) const;
  // Distinct sounds decoded.
  std::size_t sound_count() const { return sounds_ ? sounds_->sounds.size() : 0; }
  // Stops every voice this player started that still plays.
  void stop_all();

 private:
  struct Sounds {
    std::vector<Sound> sounds;              // one per distinct path
    std::vector<std::int32_t> event_sound;  // per event: index into sounds, −1 without audio
  };
  EventSoundPlayer(AudioMixer* mixer, std::shared_ptr<const Sounds> sounds);

  AudioMixer* mixer_;                     // null once moved from
  std::shared_ptr<const Sounds> sounds_;  // shared by the players share() made
  std::vector<VoiceId> started_;          // per mixer voice slot: the last voice started there
};

}  // namespace mf::scene
