#include "mf/skel/sequence.hpp"

#include <cmath>

namespace mf::skel {

namespace {

// Frames stepped after `elapsed` seconds. A small bias keeps a time that lands exactly on a frame
// boundary (0.3 s at 0.1 s per frame) on the later frame despite float rounding.
std::int64_t frames_elapsed(float delay, float elapsed) {
  if (!(delay > 0) || !(elapsed > 0)) return 0;
  const double steps = std::floor(static_cast<double>(elapsed) / static_cast<double>(delay) + 1e-4);
  // Clamp so a huge elapsed time cannot overflow the integer arithmetic below.
  return steps > 1e15 ? static_cast<std::int64_t>(1e15) : static_cast<std::int64_t>(steps);
}

std::int64_t wrap(std::int64_t v, std::int64_t n) {
  const std::int64_t r = v % n;
  return r < 0 ? r + n : r;
}

// Position p in a ping-pong cycle of `count` frames (period 2·count − 2) → frame.
std::int64_t bounce(std::int64_t p, std::int64_t count) {
  const std::int64_t period = 2 * count - 2;
  return p < count ? p : period - p;
}

}  // namespace

std::int32_t sequence_frame(SequenceMode mode, std::int32_t start, float delay, float elapsed, std::int32_t count) {
  if (count <= 1) return 0;
  const std::int64_t n = count;
  const std::int64_t s = start < 0 ? 0 : (start >= count ? n - 1 : start);
  const std::int64_t f = frames_elapsed(delay, elapsed);
  std::int64_t frame = s;
  switch (mode) {
    case SequenceMode::Hold:
      break;
    case SequenceMode::Once:
      frame = s + f < n - 1 ? s + f : n - 1;
      break;
    case SequenceMode::Loop:
      frame = wrap(s + f, n);
      break;
    case SequenceMode::PingPong:
      // The cycle 0 … n−1 … 1 visits the start frame first on its rising half.
      frame = bounce(wrap(s + f, 2 * n - 2), n);
      break;
    case SequenceMode::OnceReverse:
      frame = s - f > 0 ? s - f : 0;
      break;
    case SequenceMode::LoopReverse:
      frame = wrap(s - f, n);
      break;
    case SequenceMode::PingPongReverse:
      // Same cycle, entered on its falling half at the start frame (position 2n−2−s).
      frame = bounce(wrap(2 * n - 2 - s + f, 2 * n - 2), n);
      break;
  }
  return static_cast<std::int32_t>(frame);
}

}  // namespace mf::skel
