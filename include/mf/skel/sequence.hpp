#pragma once
// Image sequences: which frame a sequence attachment shows.

#include <cstdint>

#include "mf/skel/clip_data.hpp"

namespace mf::skel {

// The frame shown `elapsed` seconds after a sequence key with this mode, start index and delay (seconds
// per frame), for a sequence of `count` frames. Hold shows the start frame; Once stops at the last
// frame; Loop wraps; PingPong goes back and forth without repeating the end frames (0 1 2 1 0 1 …);
// the Reverse modes run from the start frame downwards (OnceReverse stops at frame 0, LoopReverse wraps
// to the last frame, PingPongReverse bounces at frame 0). A delay ≤ 0 or an elapsed time ≤ 0 holds the
// start frame; a start outside [0, count) is clamped into it; a count ≤ 1 always gives frame 0.
std::int32_t sequence_frame(SequenceMode mode, std::int32_t start, float delay, float elapsed, std::int32_t count);

}  // namespace mf::skel
