#pragma once
// EventAudioService: what plays the sounds of skeleton events. A skeleton node (Skeleton2D,
// SkeletonSprite3D) looks for the nearest ancestor that is one when it enters the tree, and hands it
// every fired event whose definition names an audio file, with the node's EventAudioBus. The
// scene's audio node (AudioOutput, mf_scene_audio) is the implementation; without one above it, a
// skeleton's events are silent (their signals still fire).

#include <string_view>

#include "mf/scene/node.hpp"
#include "mf/scene/skeleton/skeleton_event.hpp"
#include "mf/skel/skeleton_data.hpp"

namespace mf::scene {

class EventAudioService {
 public:
  // `event` fired on `node`, which shows `data`; its definition has an audio path. Called inside the
  // node's tick: it must not allocate once warm, nor fail loudly (errors are the service's to keep).
  virtual void play_event_sound(const Node& node, const skel::SkeletonData& data, const SkeletonEvent& event,
                                std::string_view bus) = 0;
  // `node` leaves the service (it exits the tree or moves under another one): what it still plays
  // stops, and what the service keeps for it goes.
  virtual void node_left(const Node& node) = 0;

  // The nearest ancestor of `node` that is an EventAudioService, or nullptr.
  static EventAudioService* find(const Node& node) {
    for (Node* n = node.parent(); n; n = n->parent())
      if (auto* service = dynamic_cast<EventAudioService*>(n)) return service;
    return nullptr;
  }

 protected:
  ~EventAudioService() = default;
};

}  // namespace mf::scene
