#pragma once
// Crossfade weighting shared by AnimationTracks (track entries) and AnimationGraphPlayer (graph
// leaves), so both mix a chain with the same operations in the same order and give bit-identical
// weights.

#include <algorithm>

namespace mf::anim {

// How far an entry has mixed in: mix_time / mix_duration in [0, 1]; 1 when there is no mix (a zero,
// negative or NaN duration).
inline float crossfade_fraction(float mix_time, float mix_duration) {
  if (!(mix_duration > 0)) return 1;
  return std::clamp(mix_time / mix_duration, 0.0f, 1.0f);
}

// The shares of a crossfade chain of `count` entries, oldest first (share[0 … count−1]). Walking from
// the newest, each entry but the oldest takes its mix fraction, fraction(k), of what the newer ones
// left, and the oldest takes the rest. restart(k), asked after entry k took its share, starts a lower
// sub-layer below k where the older entries share the whole weight again (the tracks' hold previous).
template <class Fraction, class Restart>
void crossfade_shares(int count, float* share, Fraction fraction, Restart restart) {
  float rest = 1;
  for (int k = count - 1; k > 0; --k) {
    const float m = fraction(k);
    share[k] = rest * m;
    rest *= 1 - m;
    if (restart(k)) rest = 1;
  }
  if (count > 0) share[0] = rest;
}

template <class Fraction>
void crossfade_shares(int count, float* share, Fraction fraction) {
  crossfade_shares(count, share, fraction, [](int) { return false; });
}

}  // namespace mf::anim
