// Blend-space weights: linear between 1D neighbours, barycentric in 2D triangles, nearest hull edge
// outside the 2D hull. Pure functions of the member positions and the point; allocate nothing.

#include <algorithm>
#include <cmath>
#include <limits>

#include "mf/anim/animation_graph_player.hpp"
#include "mf/core/math/vec2.hpp"

namespace mf::anim {

void blend_weights_1d(std::span<const BlendMember> members, float x, std::span<float> weights) {
  const std::size_t n = std::min(members.size(), weights.size());
  std::fill(weights.begin(), weights.end(), 0.0f);
  if (n == 0) return;
  if (!(x > members[0].x)) {  // at or before the first (NaN too)
    weights[0] = 1;
    return;
  }
  for (std::size_t i = 1; i < n; ++i) {
    const float x0 = members[i - 1].x, x1 = members[i].x;
    if (x > x1) continue;
    if (x == x1) {  // exactly at a member: the first of equal positions takes all
      std::size_t first = i;
      while (first > 0 && members[first - 1].x == x1) --first;
      weights[first] = 1;
      return;
    }
    const float f = (x - x0) / (x1 - x0);  // x0 < x < x1, so x1 > x0
    weights[i - 1] = 1 - f;
    weights[i] = f;
    return;
  }
  weights[n - 1] = 1;
}

namespace {

Vec2d at(std::span<const BlendMember> m, std::uint32_t i) { return {m[i].x, m[i].y}; }

// Barycentric coordinates of p in triangle (a, b, c); false when the triangle is degenerate.
bool barycentric(Vec2d a, Vec2d b, Vec2d c, Vec2d p, double out[3]) {
  const double det = (b.y - c.y) * (a.x - c.x) + (c.x - b.x) * (a.y - c.y);
  if (!(std::abs(det) > 0)) return false;
  out[0] = ((b.y - c.y) * (p.x - c.x) + (c.x - b.x) * (p.y - c.y)) / det;
  out[1] = ((c.y - a.y) * (p.x - c.x) + (a.x - c.x) * (p.y - c.y)) / det;
  out[2] = 1 - out[0] - out[1];
  return true;
}

}  // namespace

void blend_weights_2d(std::span<const BlendMember> members, std::span<const Triangle> triangles,
                      std::span<const HullEdge> hull, float x, float y, std::span<float> weights) {
  const std::size_t n = std::min(members.size(), weights.size());
  std::fill(weights.begin(), weights.end(), 0.0f);
  if (n == 0) return;
  if (!std::isfinite(x) || !std::isfinite(y)) {
    weights[0] = 1;
    return;
  }
  const Vec2d p{x, y};

  // The triangle p is deepest inside (largest smallest coordinate): on a shared edge either
  // neighbour gives the same weights, and rounding never leaves a gap between triangles.
  double best[3] = {0, 0, 0};
  double best_min = -std::numeric_limits<double>::infinity();
  const Triangle* best_tri = nullptr;
  for (const Triangle& t : triangles) {
    if (t.a >= n || t.b >= n || t.c >= n) continue;
    double w[3];
    if (!barycentric(at(members, t.a), at(members, t.b), at(members, t.c), p, w)) continue;
    const double lowest = std::min({w[0], w[1], w[2]});
    if (lowest > best_min) {
      best_min = lowest;
      std::copy(w, w + 3, best);
      best_tri = &t;
    }
  }
  constexpr double kInside = -1e-9;  // tolerance for points on the hull
  if (best_tri && best_min >= kInside) {
    double w[3] = {std::max(best[0], 0.0), std::max(best[1], 0.0), std::max(best[2], 0.0)};
    const double sum = w[0] + w[1] + w[2];
    weights[best_tri->a] += static_cast<float>(w[0] / sum);
    weights[best_tri->b] += static_cast<float>(w[1] / sum);
    weights[best_tri->c] += static_cast<float>(w[2] / sum);
    return;
  }

  // Outside: the nearest point on the hull, weighting the edge's two ends.
  double best_d2 = std::numeric_limits<double>::infinity(), best_t = 0;
  const HullEdge* best_edge = nullptr;
  for (const HullEdge& e : hull) {
    if (e.a >= n || e.b >= n) continue;
    const Vec2d a = at(members, e.a), b = at(members, e.b);
    const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
    const double t = len2 > 0 ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0.0, 1.0) : 0.0;
    const double qx = a.x + t * dx - p.x, qy = a.y + t * dy - p.y, d2 = qx * qx + qy * qy;
    if (d2 < best_d2) {
      best_d2 = d2;
      best_t = t;
      best_edge = &e;
    }
  }
  if (best_edge) {
    if (best_edge->a == best_edge->b) {
      weights[best_edge->a] = 1;
      return;
    }
    weights[best_edge->a] = static_cast<float>(1 - best_t);
    weights[best_edge->b] = static_cast<float>(best_t);
    return;
  }

  // No triangulation at all: the nearest member.
  std::size_t nearest = 0;
  double nearest_d2 = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < n; ++i) {
    const double dx = members[i].x - p.x, dy = members[i].y - p.y, d2 = dx * dx + dy * dy;
    if (d2 < nearest_d2) {
      nearest_d2 = d2;
      nearest = i;
    }
  }
  weights[nearest] = 1;
}

}  // namespace mf::anim
