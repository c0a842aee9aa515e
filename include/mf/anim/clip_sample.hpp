#pragma once
// ClipSample: the one contract between the producers of animation (code tracks, the animation graph)
// and a pose backend (the 2D skeleton now, a 3D skeleton later). A producer writes a span of samples
// each frame; the backend applies them to its pose. Nothing here knows about 2D.

#include <cstdint>
#include <span>

namespace mf::anim {

enum class ClipBlend : std::uint8_t {
  Replace,   // move the property towards the clip's value by the weight
  Additive,  // add (clip value − setup value) × weight
};

// Which bones (and the slots on them) a sample may touch. One byte per bone, non-zero = inside.
// The memory belongs to the producer and must outlive the frame's evaluation.
struct BoneMask {
  std::span<const std::uint8_t> bones;

  bool contains(int bone) const { return bones.empty() || bones[static_cast<std::size_t>(bone)] != 0; }
};

// One clip evaluated at one time with one weight.
//
// Samples are grouped by `layer`, lowest first. Within a layer, for each property, the samples whose
// clips key that property are combined as a weighted average; their weights (already multiplied by
// the entry's alpha) sum to at most 1 and the remainder keeps the pose of the layers below (the setup
// pose under layer 0). Additive samples add on top of the layer's result. Producers write a layer's
// samples oldest first (an entry mixing out before the one mixing in): scale averages the magnitudes
// (the pose below's included) and takes the sign of the newest Replace sample with weight > 0 that
// keys it, so a crossfade between scale −1 and 1 never squashes through 0.
struct ClipSample {
  int clip = -1;             // index of the clip in the skeleton data
  float time = 0;            // clip time now, in [0, length] (the producer wraps loops)
  float previous_time = 0;   // clip time at the previous evaluation; events fire in (previous_time, time]
  std::int32_t loops = 0;    // loop wraps between previous_time and time (events fire once per pass)
  bool first = false;        // first evaluation of this entry: events at exactly previous_time fire too
  float weight = 1;          // share of this sample within its layer, in [0, 1]
  int layer = 0;
  ClipBlend blend = ClipBlend::Replace;
  const BoneMask* mask = nullptr;  // nullptr: every bone

  // Thresholds on `weight`: events fire only while weight ≥ event_threshold; discrete timelines
  // (attachment, draw order, sequence, inherit, IK bend and flags) take the highest-weight sample of a
  // layer whose weight ≥ its threshold.
  float event_threshold = 0;
  float attachment_threshold = 0.5f;
  float draw_order_threshold = 0.5f;

  // Producer-owned latch of rotation arcs for a mixing pair, one float per bone, NaN when not yet
  // latched. When this sample's rotation is averaged with the layer's first sample on a bone, the
  // difference between the two is taken along the shortest arc the first time, then kept continuous
  // (never jumping by 360°), so a mix between 179° and −179° never flips halfway. The producer fills
  // the latch with NaN when the mix starts. nullptr: plain shortest arc every frame.
  float* rotation_latch = nullptr;
};

}  // namespace mf::anim
