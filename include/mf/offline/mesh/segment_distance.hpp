#pragma once
// The distance from a point to a line segment, shared by the outline steps of the auto mesh.

#include <cmath>

#include "mf/core/math/vec2.hpp"

namespace mf::offline {

// The distance from p to the segment a–b. For a point beside the segment it is the cross product
// over the length, so a point exactly on the segment (with coordinates that make the cross product
// exact, such as whole or half pixels) is at distance 0 exactly.
inline double segment_distance(Vec2d p, Vec2d a, Vec2d b) {
  const Vec2d ab = b - a;
  const double len2 = dot(ab, ab);
  const double along = dot(p - a, ab);
  if (len2 <= 0 || along <= 0) return length(p - a);
  if (along >= len2) return length(p - b);
  return std::fabs(cross(ab, p - a)) / std::sqrt(len2);
}

}  // namespace mf::offline
