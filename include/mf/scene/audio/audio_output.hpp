#pragma once
// AudioOutput: the scene's audio node. It owns the AudioMixer (and, when open_device() is called, the
// SDL2 device that plays it), and is the EventAudioService of the skeleton nodes below it: an event
// whose definition names an audio file plays on the node's EventAudioBus, at the key's volume and
// balance, as soon as the mixer's next buffer starts.
//
// Event sounds are decoded per skeleton data the first time one of its events plays (a load-time cost
// on that tick), or ahead of time with preload(); each node gets its own player of those sounds on its
// first event (EventSoundPlayer::share: nothing decoded again), so a node that leaves the tree (or is
// freed) stops its own sounds and no one else's. Audio paths are relative to the data's sound folder (set_sound_folder), else to
// the default folder. The "SFX" bus is created with the node; other buses are the host's to create
// (mixer().create_bus). A sound that cannot be decoded, or a bus that does not exist, is kept in
// errors() (each once) and that event stays silent; nothing allocates per event once warm.

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "mf/scene/audio/audio_device.hpp"
#include "mf/scene/audio/audio_mixer.hpp"
#include "mf/scene/audio/event_sound_player.hpp"
#include "mf/scene/node.hpp"
#include "mf/scene/skeleton/event_audio_service.hpp"

namespace mf::scene {

class AudioOutput : public Node, public EventAudioService {
 public:
  explicit AudioOutput(std::string name, const MixerOptions& options = {});
  ~AudioOutput() override;

  AudioMixer& mixer() { return mixer_; }
  // Opens the SDL2 audio device on the mixer (SDL's driver choice; SDL_AUDIODRIVER=disk writes a file).
  Status open_device(const AudioDeviceOptions& options = {});
  AudioDevice* device() { return device_.get(); }

  // What event audio paths are relative to: for every data, and for one data.
  void set_sound_folder(std::string folder) { folder_ = std::move(folder); }
  void set_sound_folder(const skel::SkeletonData& data, std::string folder);
  // Decodes `data`'s event sounds now; the error of the first that fails.
  Status preload(const skel::SkeletonData& data);

  // Problems met while playing (a sound that does not decode, an unknown bus), each once.
  const std::vector<std::string>& errors() const { return errors_; }
  std::uint64_t sounds_played() const { return played_; }
  // The nodes that have a player now (they played an event and are still below this node).
  std::size_t node_players() const { return node_players_.size(); }

  void play_event_sound(const Node& node, const skel::SkeletonData& data, const SkeletonEvent& event,
                        std::string_view bus) override;
  void node_left(const Node& node) override;

 private:
  struct Entry {
    std::unique_ptr<EventSoundPlayer> player;  // the decoded sounds (it plays nothing); null when loading failed
  };
  struct NodePlayer {
    const skel::SkeletonData* data = nullptr;  // what the player's sounds are of
    std::unique_ptr<EventSoundPlayer> player;
  };
  Entry& entry(const skel::SkeletonData& data);
  EventSoundPlayer* node_player(const Node& node, const skel::SkeletonData& data);
  void report(std::string message);

  AudioMixer mixer_;
  std::unique_ptr<AudioDevice> device_;
  std::string folder_ = ".";
  std::unordered_map<const skel::SkeletonData*, std::string> folders_;
  std::unordered_map<const skel::SkeletonData*, Entry> players_;
  std::unordered_map<const Node*, NodePlayer> node_players_;
  std::vector<std::string> errors_;
  std::uint64_t played_ = 0;
};

}  // namespace mf::scene
