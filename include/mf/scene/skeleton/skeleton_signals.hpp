#pragma once
// SkeletonSignals<N>: the signals a skeleton node of type N has (Skeleton2D, SkeletonSprite3D), and
// how they are emitted: deferred to the tree's next delivery point while a tick runs, at once
// otherwise (an advance() from game code outside a tick).

#include "mf/scene/node.hpp"
#include "mf/scene/scene_tree.hpp"
#include "mf/scene/signal.hpp"
#include "mf/scene/skeleton/skeleton_event.hpp"

namespace mf::scene {

template <class N>
class SkeletonSignals {
 public:
  Signal<N*, SkeletonEvent> animation_event;
  Signal<N*, TrackEvent> track_started;
  Signal<N*, TrackEvent> track_interrupted;
  Signal<N*, TrackEvent> track_ended;
  Signal<N*, TrackEvent> track_completed;
  Signal<N*, TrackEvent> track_disposed;
  Signal<N*> pose_updated;

 protected:
  ~SkeletonSignals() = default;

  void emit_event_signal(N* node, const SkeletonEvent& event) { emit(node, animation_event, event); }
  void emit_track_signal(N* node, const TrackEvent& event) {
    switch (event.kind) {
      case anim::TrackSignalKind::Started: emit(node, track_started, event); break;
      case anim::TrackSignalKind::Interrupted: emit(node, track_interrupted, event); break;
      case anim::TrackSignalKind::Ended: emit(node, track_ended, event); break;
      case anim::TrackSignalKind::Completed: emit(node, track_completed, event); break;
      case anim::TrackSignalKind::Disposed: emit(node, track_disposed, event); break;
    }
  }
  void emit_pose_signal(N* node) {
    SceneTree* t = static_cast<Node*>(node)->tree();
    if (t && t->in_tick()) pose_updated.emit_deferred(*t, node);
    else pose_updated.emit(node);
  }

 private:
  template <class... Args>
  static void emit(N* node, Signal<N*, Args...>& signal, const Args&... args) {
    SceneTree* t = static_cast<Node*>(node)->tree();
    if (t && t->in_tick()) signal.emit_deferred(*t, node, args...);
    else signal.emit(node, args...);
  }
};

}  // namespace mf::scene
