#pragma once
// What Skeleton2D's signals carry: a clip event that fired, and a track entry's lifecycle step.

#include <cstdint>
#include <string>

#include "mf/anim/track_entry.hpp"

namespace mf::scene {

// A clip event of the last tick. The strings belong to the skeleton data (interned at load), so the
// struct copies without allocating; they stay valid while the node keeps that data.
struct SkeletonEvent {
  int event = -1;                           // index into SkeletonData::events
  const std::string* name = nullptr;        // the event's name; never null in an emitted event
  int int_value = 0;
  float float_value = 0;
  const std::string* string_value = nullptr;  // the key's string or the definition's default; never null
  float volume = 1, balance = 0;            // of the key (audio)
  int clip = -1;
  float time = 0;                           // the key's time in its clip, seconds
  int track = -1;                           // the track that played it; −1 for the graph
};

// A track entry's step (anim::TrackSignal with a name for the clip).
struct TrackEvent {
  anim::TrackSignalKind kind = anim::TrackSignalKind::Started;
  int track = -1;
  int clip = -1;                            // −1 for an empty entry
  anim::TrackEntryHandle entry;             // stale once Disposed has been delivered
};

}  // namespace mf::scene
