#include "mf/scene/audio/event_sound_player.hpp"

#include <filesystem>
#include <utility>

namespace mf::scene {

Status ensure_event_bus(AudioMixer& mixer, std::string_view bus, float volume) {
  if (mixer.has_bus(bus)) return {};
  return mixer.create_bus(bus, volume);
}

Expected<EventSoundPlayer> EventSoundPlayer::load(const skel::SkeletonData& data, const std::string& folder,
                                                  AudioMixer& mixer) {
  auto decoded = std::make_shared<Sounds>();
  decoded->event_sound.assign(data.events.size(), -1);
  std::vector<std::string> paths;  // the audio path of each decoded sound, as the events write it
  for (std::size_t i = 0; i < data.events.size(); ++i) {
    const skel::EventData& event = data.events[i];
    if (event.audio.empty()) continue;
    std::size_t index = 0;
    while (index < paths.size() && paths[index] != event.audio) ++index;
    if (index == paths.size()) {
      const std::filesystem::path relative(event.audio);
      const std::string file = (std::filesystem::path(folder) / relative).string();
      if (relative.is_absolute()) {
        Error e;
        e.file = file;
        e.message = "event \"" + event.name + "\": the audio path \"" + event.audio +
                    "\" is absolute; it must be relative to the rig's folder";
        return Unexpected{std::move(e)};
      }
      auto sound = load_sound(file, mixer.sample_rate());
      if (!sound) {
        Error e = sound.error();
        e.file = file;
        e.message = "event \"" + event.name + "\": " + e.message;
        return Unexpected{std::move(e)};
      }
      paths.push_back(event.audio);
      decoded->sounds.push_back(std::move(*sound));
    }
    decoded->event_sound[i] = static_cast<std::int32_t>(index);
  }
  return EventSoundPlayer(&mixer, std::move(decoded));
}

EventSoundPlayer::EventSoundPlayer(AudioMixer* mixer, std::shared_ptr<const Sounds> sounds)
    : mixer_(mixer), sounds_(std::move(sounds)), started_(mixer ? static_cast<std::size_t>(mixer->max_voices()) : 0, VoiceId{}) {}

// A moved-from player has no mixer: its share plays nothing either.
EventSoundPlayer EventSoundPlayer::share() const { return EventSoundPlayer(mixer_, sounds_); }

EventSoundPlayer::EventSoundPlayer(EventSoundPlayer&& other) noexcept
    : mixer_(std::exchange(other.mixer_, nullptr)),
      sounds_(std::move(other.sounds_)),
      started_(std::move(other.started_)) {}

EventSoundPlayer& EventSoundPlayer::operator=(EventSoundPlayer&& other) noexcept {
  if (this != &other) {
    stop_all();
    mixer_ = std::exchange(other.mixer_, nullptr);
    sounds_ = std::move(other.sounds_);
    started_ = std::move(other.started_);
  }
  return *this;
}

EventSoundPlayer::~EventSoundPlayer() { stop_all(); }

void EventSoundPlayer::stop_all() {
  if (!mixer_) return;
  // A stale id (the voice ended, its slot maybe reused by another sound) is ignored by stop().
  for (VoiceId& voice : started_) {
    mixer_->stop(voice);
    voice = VoiceId{};
  }
}

const Sound* EventSoundPlayer::sound(int event) const {
  if (!sounds_ || event < 0 || static_cast<std::size_t>(event) >= sounds_->event_sound.size()) return nullptr;
  const std::int32_t index = sounds_->event_sound[static_cast<std::size_t>(event)];
  return index < 0 ? nullptr : &sounds_->sounds[static_cast<std::size_t>(index)];
}

Expected<VoiceId> EventSoundPlayer::play(const skel::FiredEvent& event, std::string_view bus, std::int64_t start_frame) {
  const std::size_t events = sounds_ ? sounds_->event_sound.size() : 0;
  if (event.event < 0 || static_cast<std::size_t>(event.event) >= events) {
    Error e;
    e.message = "cannot play event " + std::to_string(event.event) + ": the skeleton has " + std::to_string(events) + " events";
    return Unexpected{std::move(e)};
  }
  const Sound* s = sound(event.event);
  if (!s || !mixer_) return VoiceId{};
  auto voice = mixer_->play(*s, {.bus = bus, .volume = event.volume, .pan = event.balance, .start_frame = start_frame});
  if (voice && voice->slot < started_.size()) started_[voice->slot] = *voice;
  return voice;
}

}  // namespace mf::scene
