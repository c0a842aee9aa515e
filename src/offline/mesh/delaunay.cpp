// Delaunay triangulation by sweep hull and Lawson flips. Sweeping the points in x-then-y order means
// every new point lies strictly outside the hull built so far, so joining it to the hull edges it sees
// always gives a valid triangulation, collinear runs included; the flips then make it Delaunay. The
// orientation and in-circle tests are exact (robust_predicates.hpp), so cocircular and collinear sets
// need no tolerance: an edge is flipped only when the opposite point is strictly inside the circle.

#include "mf/offline/mesh/delaunay.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <utility>

namespace mf::offline {

namespace {

using Tri = std::array<std::uint32_t, 3>;

std::string point_text(std::span<const Vec2d> p, std::uint32_t i) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%u (%g, %g)", i, p[i].x, p[i].y);
  return buf;
}

Unexpected fail(std::string message) { return Unexpected{Error{"", "", {}, std::move(message)}}; }

// Flips edges that are not locally Delaunay until none is left. Each flip removes one illegal edge
// and Lawson's argument bounds the number of flips by O(n²); the cap is a guard, never reached with
// exact predicates.
void make_delaunay(std::span<const Vec2d> p, std::vector<Tri>& tris) {
  const std::size_t cap = 16 * p.size() * p.size() + 64;
  for (std::size_t flips = 0; flips < cap; ++flips) {
    // edge (low, high) -> (triangle, corner opposite the edge)
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::pair<std::size_t, int>>> edges;
    for (std::size_t t = 0; t < tris.size(); ++t)
      for (int k = 0; k < 3; ++k) {
        const std::uint32_t a = tris[t][static_cast<std::size_t>(k)], b = tris[t][static_cast<std::size_t>((k + 1) % 3)];
        edges[{std::min(a, b), std::max(a, b)}].push_back({t, (k + 2) % 3});
      }
    bool flipped = false;
    for (const auto& [edge, sides] : edges) {
      if (sides.size() != 2) continue;
      const Tri& t1 = tris[sides[0].first];
      const Tri& t2 = tris[sides[1].first];
      const std::uint32_t c = t1[static_cast<std::size_t>(sides[0].second)];
      const std::uint32_t d = t2[static_cast<std::size_t>(sides[1].second)];
      // t1 = (a, b, c) counter-clockwise with the shared edge a→b.
      const std::uint32_t a = t1[static_cast<std::size_t>((sides[0].second + 1) % 3)];
      const std::uint32_t b = t1[static_cast<std::size_t>((sides[0].second + 2) % 3)];
      if (in_circle(p[a], p[b], p[c], p[d]) <= 0) continue;
      // The quad a, d, b, c is convex (d is inside c's circumcircle): swap the diagonal for c–d.
      tris[sides[0].first] = {a, d, c};
      tris[sides[1].first] = {d, b, c};
      flipped = true;
      break;
    }
    if (!flipped) return;
  }
}

}  // namespace

Expected<Triangulation> delaunay_triangulate(std::span<const Vec2d> p) {
  const std::size_t n = p.size();
  if (n < 3) return fail("a triangulation needs at least 3 points, found " + std::to_string(n));
  if (n > (1u << 24)) return fail("too many points (" + std::to_string(n) + ")");
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(p[i].x) || !std::isfinite(p[i].y))
      return fail("point " + point_text(p, static_cast<std::uint32_t>(i)) + " is not finite");

  // Points closer than this (relative to the extent of the set) count as one: a blend space's samples
  // that close are a mistake, whatever the arithmetic could resolve.
  double min_x = p[0].x, max_x = p[0].x, min_y = p[0].y, max_y = p[0].y;
  for (const Vec2d& q : p) {
    min_x = std::min(min_x, q.x), max_x = std::max(max_x, q.x);
    min_y = std::min(min_y, q.y), max_y = std::max(max_y, q.y);
  }
  const double extent = std::max({max_x - min_x, max_y - min_y, 1e-300});
  const double same_eps = 1e-9 * extent;

  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return p[a].x != p[b].x ? p[a].x < p[b].x : p[a].y < p[b].y;
  });
  for (std::size_t i = 1; i < n; ++i) {
    const Vec2d a = p[order[i - 1]], b = p[order[i]];
    if (std::abs(a.x - b.x) <= same_eps && std::abs(a.y - b.y) <= same_eps) {
      const std::uint32_t lo = std::min(order[i - 1], order[i]), hi = std::max(order[i - 1], order[i]);
      return fail("points " + point_text(p, lo) + " and " + point_text(p, hi) + " are at the same place");
    }
  }
  // The first point (in sweep order) off the line through the first two.
  std::size_t k = 2;
  while (k < n && orient2d(p[order[0]], p[order[1]], p[order[k]]) == 0) ++k;
  if (k == n) return fail("all " + std::to_string(n) + " points lie on one line; a triangulation needs area");

  // Seed: the collinear run order[0 … k) fanned to order[k].
  std::vector<Tri> tris;
  std::vector<std::uint32_t> hull;  // counter-clockwise
  const std::uint32_t apex = order[k];
  const bool left = orient2d(p[order[0]], p[order[1]], p[apex]) > 0;
  for (std::size_t i = 0; i + 1 < k; ++i)
    tris.push_back(left ? Tri{order[i], order[i + 1], apex} : Tri{order[i + 1], order[i], apex});
  if (left) {
    hull.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k));
    hull.push_back(apex);
  } else {
    hull.push_back(order[0]);
    hull.push_back(apex);
    for (std::size_t i = k - 1; i >= 1; --i) hull.push_back(order[i]);
  }

  std::vector<bool> visible;
  for (std::size_t i = k + 1; i < n; ++i) {
    const std::uint32_t q = order[i];
    const std::size_t m = hull.size();
    visible.assign(m, false);
    bool any = false;
    for (std::size_t e = 0; e < m; ++e) {
      visible[e] = orient2d(p[hull[e]], p[hull[(e + 1) % m]], p[q]) < 0;
      any = any || visible[e];
    }
    if (!any) return fail("point " + point_text(p, q) + " lies on the hull of the points before it");
    std::size_t s = 0;
    while (!(visible[s] && !visible[(s + m - 1) % m])) ++s;
    std::size_t e = s;
    while (visible[(e + 1) % m]) e = (e + 1) % m;
    for (std::size_t j = s;; j = (j + 1) % m) {
      tris.push_back({hull[(j + 1) % m], hull[j], q});
      if (j == e) break;
    }
    // New hull: from the vertex after the seen chain around to its start, then q.
    std::vector<std::uint32_t> next;
    for (std::size_t j = (e + 1) % m;; j = (j + 1) % m) {
      next.push_back(hull[j]);
      if (j == s) break;
    }
    next.push_back(q);
    hull = std::move(next);
  }

  make_delaunay(p, tris);

  Triangulation out;
  for (Tri t : tris) {
    std::rotate(t.begin(), std::min_element(t.begin(), t.end()), t.end());
    out.triangles.push_back(t);
  }
  std::sort(out.triangles.begin(), out.triangles.end());
  const auto start = std::find(hull.begin(), hull.end(), order[0]);
  std::rotate(hull.begin(), start, hull.end());
  for (std::size_t j = 0; j < hull.size(); ++j) out.hull.push_back({hull[j], hull[(j + 1) % hull.size()]});
  return out;
}

}  // namespace mf::offline
