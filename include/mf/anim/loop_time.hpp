#pragma once
// Where a looping clip is after playing for some time: the one rule every producer of clip samples
// (tracks, the graph player, loop_sample, the CLI) shares. A pass covers (k·d, (k+1)·d]: playing
// exactly to the end of a pass shows the end pose (the last keys), and only time past the end wraps
// to the start. Time 0 is the start. Negative time (played backwards from the start) mirrors the rule:
// a pass covers [k·d, (k+1)·d), so reaching −d backwards shows the start.

#include <cstdint>

namespace mf::anim {

struct LoopPosition {
  float time = 0;          // in [0, duration]
  std::int32_t wraps = 0;  // k above: how many times playback has gone from the end back to the start
                           // (negative before time 0), capped at ±1e9
};

// `elapsed` seconds (or any unit) into a loop of `duration`. A duration ≤ 0 gives time 0, no wraps.
LoopPosition loop_position(float elapsed, float duration);

}  // namespace mf::anim
