// Delaunay triangulation of a point set on the constrained triangulator's core (triangle_mesh.hpp):
// Lawson insertion with exact predicates, then the convex hull (computed by monotone chain, collinear
// hull points kept) recovered as a loop of constraints so that only the hull's triangles remain. The
// orientation and in-circle tests are exact (robust_predicates.hpp), so cocircular and collinear sets
// need no tolerance: an edge is flipped only when the opposite point is strictly inside the circle.

#include "mf/offline/mesh/delaunay.hpp"

#include "triangle_mesh.hpp"

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

  // The convex hull, counter-clockwise from order[0], by Andrew's monotone chain: popping only on
  // a clockwise turn keeps the points on hull edges as hull vertices.
  std::vector<std::uint32_t> hull;
  for (int pass = 0; pass < 2; ++pass) {
    const std::size_t base = hull.size();
    for (std::size_t j = 0; j < n; ++j) {
      const std::uint32_t q = pass == 0 ? order[j] : order[n - 1 - j];
      while (hull.size() >= base + 2 && orient2d(p[hull[hull.size() - 2]], p[hull.back()], p[q]) < 0) hull.pop_back();
      hull.push_back(q);
    }
    hull.pop_back();  // each chain's last point starts the other
  }

  // The shared triangulation core: every point inserted with exact in-circle flips, the hull made
  // a loop of constrained edges, and only the triangles inside it kept. With constraints only on
  // the convex hull, the constrained Delaunay triangulation is the Delaunay triangulation.
  Vec2d lo = p[0], hi = p[0];
  for (const Vec2d& q : p) lo = {std::min(lo.x, q.x), std::min(lo.y, q.y)}, hi = {std::max(hi.x, q.x), std::max(hi.y, q.y)};
  mesh_core::TriangleMesh mesh(lo, hi);
  constexpr std::uint32_t kFirst = 3;  // the enclosing triangle's vertices come first
  std::uint32_t last = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const mesh_core::TriangleMesh::Location where = mesh.locate(p[i], last);
    if (where.tri == mesh_core::kNone || where.vertex != mesh_core::kNone)
      return fail("point " + point_text(p, static_cast<std::uint32_t>(i)) + " could not be inserted");
    mesh.insert(p[i], where);
    last = mesh.vertex_triangle.back();
  }
  try {
    for (std::size_t j = 0; j < hull.size(); ++j)
      mesh.insert_constraint(hull[j] + kFirst, hull[(j + 1) % hull.size()] + kFirst, static_cast<std::uint32_t>(j), true);
  } catch (const mesh_core::CrossingError&) {
    return fail("the convex hull could not be recovered");  // cannot happen with exact predicates
  }
  mesh.classify();
  std::vector<Tri> tris;
  for (const mesh_core::Triangle& t : mesh.triangles)
    if (t.inside) tris.push_back({t.v[0] - kFirst, t.v[1] - kFirst, t.v[2] - kFirst});

  Triangulation out;
  for (Tri t : tris) {
    std::rotate(t.begin(), std::min_element(t.begin(), t.end()), t.end());
    out.triangles.push_back(t);
  }
  std::sort(out.triangles.begin(), out.triangles.end());
  for (std::size_t j = 0; j < hull.size(); ++j) out.hull.push_back({hull[j], hull[(j + 1) % hull.size()]});
  return out;
}

}  // namespace mf::offline
