#pragma once
// Checks the auto mesh's tests share: loops that are simple and apart, distances to loops.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "mf/core/math/vec2.hpp"

namespace mf::testing {

inline double segment_distance(Vec2d p, Vec2d a, Vec2d b) {
  const Vec2d ab = b - a;
  const double len2 = dot(ab, ab);
  const double t = len2 > 0 ? std::clamp(dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
  return length(p - lerp(a, b, t));
}

inline double distance_to_loops(const std::vector<std::vector<Vec2d>>& loops, Vec2d p) {
  double best = INFINITY;
  for (const auto& loop : loops)
    for (std::size_t i = 0; i < loop.size(); ++i) best = std::min(best, segment_distance(p, loop[i], loop[(i + 1) % loop.size()]));
  return best;
}

inline bool proper_or_touching(Vec2d a, Vec2d b, Vec2d c, Vec2d d) {
  const auto orient = [](Vec2d p, Vec2d q, Vec2d r) { return cross(q - p, r - p); };
  const double o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  const auto on = [&](Vec2d p, Vec2d q, Vec2d r) {
    return orient(p, q, r) == 0 && std::min(p.x, q.x) <= r.x && r.x <= std::max(p.x, q.x) && std::min(p.y, q.y) <= r.y &&
           r.y <= std::max(p.y, q.y);
  };
  return on(a, b, c) || on(a, b, d) || on(c, d, a) || on(c, d, b);
}

// No loop has fewer than three points, and no two edges meet except neighbours at their shared point.
inline ::testing::AssertionResult loops_are_simple_and_apart(const std::vector<std::vector<Vec2d>>& loops) {
  struct E {
    std::size_t loop, index;
    Vec2d a, b;
  };
  std::vector<E> edges;
  for (std::size_t l = 0; l < loops.size(); ++l) {
    if (loops[l].size() < 3) return ::testing::AssertionFailure() << "loop " << l << " has " << loops[l].size() << " points";
    for (std::size_t i = 0; i < loops[l].size(); ++i) edges.push_back({l, i, loops[l][i], loops[l][(i + 1) % loops[l].size()]});
  }
  for (std::size_t i = 0; i < edges.size(); ++i)
    for (std::size_t j = i + 1; j < edges.size(); ++j) {
      const E& e = edges[i];
      const E& f = edges[j];
      const std::size_t n = loops[e.loop].size();
      const bool neighbours = e.loop == f.loop && ((e.index + 1) % n == f.index || (f.index + 1) % n == e.index);
      if (neighbours) {
        if (e.a == e.b || f.a == f.b) return ::testing::AssertionFailure() << "zero-length edge in loop " << e.loop;
        continue;
      }
      if (proper_or_touching(e.a, e.b, f.a, f.b))
        return ::testing::AssertionFailure() << "edge " << e.index << " of loop " << e.loop << " meets edge " << f.index
                                             << " of loop " << f.loop << " near (" << e.a.x << ", " << e.a.y << ")";
    }
  return ::testing::AssertionSuccess();
}

}  // namespace mf::testing
