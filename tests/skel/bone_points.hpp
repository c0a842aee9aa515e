#pragma once
// World points of posed bones, in double, for tests that measure where bones ended up.

#include <cstddef>

#include "mf/core/math/vec2.hpp"
#include "mf/skel/skeleton_pose.hpp"

namespace mf::skel::test {

// A bone's world origin.
inline Vec2d origin(const SkeletonPose& p, int b) {
  const auto i = static_cast<std::size_t>(b);
  return {p.world_x[i], p.world_y[i]};
}

// The tip of a bone: its world origin plus its X axis times its length.
inline Vec2d tip(const SkeletonPose& p, int b) {
  const auto i = static_cast<std::size_t>(b);
  const double len = p.data().bones.length[i];
  return {p.world_x[i] + p.a[i] * len, p.world_y[i] + p.c[i] * len};
}

inline double distance(Vec2d u, Vec2d v) { return hypot_length(u - v); }

}  // namespace mf::skel::test
