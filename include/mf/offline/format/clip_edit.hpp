#pragma once
// Small, exact edits of a clip for tools (`mfe skel key`): the file stays canonical afterwards.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
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

// The general form of set_bone_key for any numeric timeline (bone, slot colour, constraint, physics),
// setting only the components in the bit mask `components` of the key at `t`. It checks nothing:
// callers validate names, times, values and curves first (clip_key_edit.hpp does).
//
// - `values` has the layout's component count; only the masked components are read.
// - `curves` is empty (no curve given) or has one curve per interpolated component (layout.curved);
//   only the masked ones are read. They follow set_bone_key's rules per component.
// - A new key inside the timeline takes, for every keyed component not in the mask, the value the
//   timeline has at `t` (its segment's curve evaluated; a stepped component keeps the earlier key's),
//   with the segment split as set_bone_key splits it, so the motion of those components is unchanged.
// - A component of an ik, transform or path timeline that was not keyed before becomes keyed: every
//   other key takes `fill` for it (the constraint's setup value), and its curves are linear.
// Returns true when a key was added, false when the key at `t` was changed.
bool set_curve_key(ClipSource& clip, CurveKind kind, std::string_view target, std::uint32_t components, float t,
                   std::span<const float> values, std::span<const Curve> curves, std::span<const float> fill);

// Which segment of a key set_key_curve shapes.
enum class KeySegment : std::uint8_t {
  After,       // the segment that starts at the key (none for the timeline's last key)
  BeforeLast,  // the segment that ends at the key, when it is the timeline's last key (none otherwise)
};

// Sets the curves of the masked interpolated components of one segment of the key within
// kKeyTimeEpsilon of `t`. `curves` has one curve per interpolated component. Returns false when the
// timeline has no such key or the key has no such segment.
bool set_key_curve(ClipSource& clip, CurveKind kind, std::string_view target, std::uint32_t components, float t,
                   std::span<const Curve> curves, KeySegment segment);

// Removes the key within kKeyTimeEpsilon of `t` from a numeric timeline (every component of it: the
// components share their times). The segment that ran into the removed key and the one that left it
// become one segment with the curve of the earlier one. A timeline left without keys is removed.
// Returns the keys left, or nullopt when the timeline has no key at `t`.
std::optional<std::size_t> remove_curve_key(ClipSource& clip, CurveKind kind, std::string_view target, float t);

// Why `curve` cannot shape a segment (a bezier control value that is not finite, or an x control
// value outside [0, 1]); empty when it can.
std::string curve_problem(const Curve& curve);

// The value of component `component` of a numeric timeline at time `t`: constant before the first and
// after the last key; interpolated along the segment's curve (stepped components hold the earlier key).
float curve_value_at(const CurveTimeline& timeline, int component, float t);

}  // namespace mf::offline
