#pragma once
// Keeping playback across a reload: the state of a player made from the old data, moved onto a new
// player made from the new data, by name (clip indices, bone indices, parameter and state indices may
// all differ between the two builds).
//
// carry_playback (AnimatedSkeleton → AnimatedSkeleton):
// - Tracks: for every track, the current entry, the entries still mixing out under it and the
//   queued entries keep their order and every setting (track time, loop, time scale, alpha, mix
//   duration and mix time, blend, thresholds, hold-previous, reverse, played range, delay, track
//   end). A range that ended at the old clip's end ends at the new clip's end. Empty entries carry
//   over as they are. Bone masks (caller-owned, by bone index) stay when the bones are the same
//   names in the same order, and are dropped otherwise (CarryReport::dropped_masks).
// - An entry whose clip the new data lacks is dropped. For the current entry, the entries mixing
//   out under it go too, and the first surviving queued entry becomes current at once (at track time
//   0); a dropped queued entry's successor takes its place in the queue, its delay now counting from
//   the entry before it.
// - The tracks' default mix, time scale and mix table (by clip name) carry over.
// - Carried entries are sampled once while they are rebuilt, so they count as shown: a crossfade
//   mixes on instead of restarting, and clip events resume at the carried times without firing again
//   for the time already played. The signals the rebuild queues are cleared: drain the old
//   skeleton's signals and events before carrying, they are not moved.
// - Bone overrides carry over by bone name.
// Not carried: the pose itself (the next update poses the skeleton), physics constraint state (it
// starts again from the setup pose) and skins, which the host applies to the new pose by name.
//
// carry_graph (AnimationGraphPlayer → AnimationGraphPlayer):
// - Parameters by name (converted to the new parameter's type; a set trigger stays set).
// - Each layer (by name) goes to its current state by the names of its path through nested machines;
//   when the whole path exists its normalised time carries too, else the deepest state that exists
//   starts from its beginning. Crossfades in progress and travel are not carried.

#include <string>
#include <utility>
#include <vector>

#include "mf/anim/animation_graph_player.hpp"
#include "mf/anim/track_entry.hpp"
#include "mf/skel/animated_skeleton.hpp"

namespace mf::live_reload {

enum class DropReason : std::uint8_t {
  ClipMissing,     // the new data has no clip of that name
  CurrentDropped,  // it was mixing out under a current entry whose clip is missing
};

struct DroppedEntry {
  int track = 0;
  std::string clip;  // the clip's name ("" for an empty entry)
  DropReason reason = DropReason::ClipMissing;
};

struct CarryReport {
  std::vector<DroppedEntry> dropped_entries;
  // Old handle → new handle of every carried entry, so code holding handles can follow.
  std::vector<std::pair<anim::TrackEntryHandle, anim::TrackEntryHandle>> handles;
  std::vector<std::string> dropped_overrides;  // bones the new data lacks
  bool dropped_masks = false;                  // entries had bone masks and the bones changed
  // carry_graph:
  std::vector<std::string> dropped_params;     // parameters the new graph lacks
  std::vector<std::string> dropped_states;     // "layer: state/inner state" paths the new graph lacks (in part)

  // The new handle of an old one; a null handle when it was not carried.
  anim::TrackEntryHandle handle(anim::TrackEntryHandle old) const;
};

// Moves `from`'s tracks and bone overrides onto `to` (a skeleton made from the new data; its tracks
// are cleared first). Not for the frame loop: it allocates.
CarryReport carry_playback(const skel::AnimatedSkeleton& from, skel::AnimatedSkeleton& to);

// Moves `from`'s parameters and current states onto `to` (a player of the new graph). Its findings
// are added to `report`. The signals `to` queued while it was set up are drained and dropped.
void carry_graph(const anim::AnimationGraphPlayer& from, anim::AnimationGraphPlayer& to, CarryReport& report);

}  // namespace mf::live_reload
