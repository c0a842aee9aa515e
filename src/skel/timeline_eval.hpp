#pragma once
// Internal: finding keys and evaluating curve timelines, shared by the clip sampler's two ways of
// applying samples (weighted accumulation, and direct writes for a layer's lone full-weight sample).

#include <algorithm>
#include <cstdint>

#include "mf/skel/clip_data.hpp"

namespace mf::skel::detail {

inline constexpr int kMaxComponents = 7;

// Index of the last key at or before `t` among `count` keys, or −1 before the first. `cursor` is a
// hint from the previous evaluation: forward play finds the key in one or two comparisons.
inline std::int32_t find_key(const float* times, std::uint32_t count, float t, std::uint32_t& cursor) {
  if (t < times[0]) return -1;
  std::uint32_t c = cursor < count ? cursor : 0;
  if (times[c] <= t) {
    if (c + 1 == count || t < times[c + 1]) return static_cast<std::int32_t>(c);
    if (c + 2 == count || t < times[c + 2]) {
      cursor = c + 1;
      return static_cast<std::int32_t>(c + 1);
    }
  }
  const float* it = std::upper_bound(times, times + count, t);
  cursor = static_cast<std::uint32_t>(it - times - 1);
  return static_cast<std::int32_t>(cursor);
}

inline float curve_fraction(const ClipData& clip, std::uint32_t code, float f) {
  if (code == anim::kCurveLinear) return f;
  if (code == anim::kCurveStepped) return 0;
  return anim::evaluate(clip.beziers[code - anim::kCurveBezierBase], f);
}

// The components of a curve timeline at time `t`, into `out`; false before the first key.
inline bool evaluate_timeline(const ClipData& clip, const Timeline& tl, float t, std::uint32_t& cursor, float* out) {
  const float* times = clip.times.data() + tl.key_start;
  const std::int32_t key = find_key(times, tl.key_count, t, cursor);
  if (key < 0) return false;
  const std::size_t n = tl.components;
  const float* v0 = clip.values.data() + tl.value_start + static_cast<std::size_t>(key) * n;
  if (static_cast<std::uint32_t>(key) + 1 >= tl.key_count) {
    std::copy(v0, v0 + n, out);
    return true;
  }
  const float* v1 = v0 + n;
  const float t0 = times[key], t1 = times[key + 1];
  const float f = t1 > t0 ? (t - t0) / (t1 - t0) : 0.0f;
  const std::uint32_t* codes = clip.curves.data() + tl.curve_start + static_cast<std::size_t>(key) * tl.curved;
  for (std::size_t j = 0; j < n; ++j) {
    if (j < tl.curved) {
      out[j] = v0[j] + (v1[j] - v0[j]) * curve_fraction(clip, codes[j], f);
    } else {
      out[j] = v0[j];
    }
  }
  return true;
}

}  // namespace mf::skel::detail
