#include "mf/scene/audio/audio_output.hpp"

#include <algorithm>
#include <utility>

namespace mf::scene {

AudioOutput::AudioOutput(std::string name, const MixerOptions& options) : Node(std::move(name)), mixer_(options) {
  (void)ensure_event_bus(mixer_);  // a fresh mixer has room for it
}

AudioOutput::~AudioOutput() {
  device_.reset();        // the callback stops reading the mixer first
  node_players_.clear();  // then the players stop their voices
  players_.clear();
}

Status AudioOutput::open_device(const AudioDeviceOptions& options) {
  auto device = AudioDevice::open(mixer_, options);
  if (!device) return Unexpected{Error{{}, {}, {}, path() + ": " + device.error().to_string()}};
  device_ = std::move(*device);
  return {};
}

void AudioOutput::set_sound_folder(const skel::SkeletonData& data, std::string folder) { folders_[&data] = std::move(folder); }

AudioOutput::Entry& AudioOutput::entry(const skel::SkeletonData& data) {
  auto found = players_.find(&data);
  if (found != players_.end()) return found->second;
  Entry& e = players_[&data];
  const auto folder = folders_.find(&data);
  auto player = EventSoundPlayer::load(data, folder != folders_.end() ? folder->second : folder_, mixer_);
  if (player) e.player = std::make_unique<EventSoundPlayer>(std::move(*player));
  else report(path() + ": skeleton data \"" + data.name + "\": " + player.error().to_string());
  return e;
}

Status AudioOutput::preload(const skel::SkeletonData& data) {
  players_.erase(&data);
  if (!entry(data).player) return Unexpected{Error{{}, {}, {}, errors_.back()}};
  return {};
}

void AudioOutput::report(std::string message) {
  if (std::find(errors_.begin(), errors_.end(), message) == errors_.end()) errors_.push_back(std::move(message));
}

EventSoundPlayer* AudioOutput::node_player(const Node& node, const skel::SkeletonData& data) {
  auto found = node_players_.find(&node);
  if (found != node_players_.end() && found->second.data == &data) return found->second.player.get();
  // First event of the node, or the node shows other data now (the old player goes, stopping its sounds).
  EventSoundPlayer* sounds = entry(data).player.get();
  if (!sounds) return nullptr;
  NodePlayer& p = node_players_[&node];
  p.data = &data;
  p.player = std::make_unique<EventSoundPlayer>(sounds->share());
  return p.player.get();
}

void AudioOutput::node_left(const Node& node) { node_players_.erase(&node); }

void AudioOutput::play_event_sound(const Node& node, const skel::SkeletonData& data, const SkeletonEvent& event,
                                   std::string_view bus) {
  EventSoundPlayer* player = node_player(node, data);
  if (!player) return;
  skel::FiredEvent fired{};
  fired.event = event.event;
  fired.clip = event.clip;
  fired.time = event.time;
  fired.int_value = event.int_value;
  fired.float_value = event.float_value;
  fired.string_value = event.string_value;
  fired.volume = event.volume;
  fired.balance = event.balance;
  auto voice = player->play(fired, bus);
  if (voice) ++played_;
  else report(path() + ": event \"" + *event.name + "\" on bus \"" + std::string(bus) + "\": " + voice.error().to_string());
}

}  // namespace mf::scene
