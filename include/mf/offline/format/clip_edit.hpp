#pragma once
// Small, exact edits of a clip for tools (`mfe skel key`): the file stays canonical afterwards.

#include <optional>
#include <span>
#include <string_view>

#include "mf/core/expected.hpp"
#include "mf/offline/format/clip_model.hpp"

namespace mf::offline {

// Keys closer than this (seconds) are the same key.
inline constexpr float kKeyTimeEpsilon = 1e-4f;

// The CSS `ease` curve, which `mfe skel key --curve ease` means.
inline constexpr Curve kEaseCurve = Curve::bezier(0.25f, 0.1f, 0.25f, 1);

// Adds a key to a bone's numeric timeline (created when missing), or replaces the values of the key
// within kKeyTimeEpsilon of `t` (its time stays). `values` has the timeline's component count and is
// relative to the setup pose, as all bone keys are.
//
// Curves, segment by segment (a segment runs from one key to the next):
// - `curve` given: it shapes the segment that starts at this key, for every component. A key that is
//   the last of its timeline starts no segment, so there `curve` shapes the segment that ends at it
//   (keying in time order with `ease` everywhere thus eases every segment). A lone key ignores it.
// - no `curve`, replacing a key: every segment keeps its curve.
// - no `curve`, a new key inside a segment: both halves keep the segment's curve type. A bezier is
//   split exactly (de Casteljau at the parameter whose x is the key's time fraction) and each half
//   renormalised, so a key whose values are the ones the clip had at `t` leaves the motion unchanged.
//   Where a half has no value change (its y span is zero) its y control values are set to its x
//   control values, since any y shape is flat there. An exact half of a curve whose x control values
//   sit at opposite ends (such as [1, y, 0, y]) can need an x control value outside [0, 1]; that value
//   is clamped to [0, 1], keeping the curve valid at the cost of a slight change in timing.
// - no `curve`, a new key before the first or after the last: the new segment is linear.
// With `curve` and a new key inside a segment, the earlier half is the exact split of the old curve
// and the later half is `curve`.
//
// Fails, leaving `clip` unchanged, when `kind` is not a bone timeline, the value count is wrong, a
// value or `t` is not finite, `t` is negative or past the clip's length, or `curve` is a bezier with
// an x control value outside [0, 1]. The timelines stay sorted (sort_timelines).
Status set_bone_key(ClipSource& clip, std::string_view bone, CurveKind kind, float t, std::span<const float> values,
                    std::optional<Curve> curve);

}  // namespace mf::offline
