#pragma once
// Small, exact edits of a clip for tools (`mfe skel key`): the file stays canonical afterwards.

#include <optional>
#include <span>
#include <string_view>

#include "mf/core/expected.hpp"
#include "mf/offline/clip_model.hpp"

namespace mf::offline {

// Keys closer than this (seconds) are the same key.
inline constexpr float kKeyTimeEpsilon = 1e-4f;

// Adds a key to a bone's numeric timeline (created when missing), or replaces the values of the key at
// time `t`. `values` has the timeline's component count (relative to the setup pose, as all bone keys).
// `curve` sets the interpolation of the segment that starts at this key; without it, a new key inside a
// segment keeps that segment's curve on both halves, and an existing key keeps its curve.
Status set_bone_key(Clip& clip, std::string_view bone, CurveKind kind, float t, std::span<const float> values,
                    std::optional<Curve> curve);

}  // namespace mf::offline
