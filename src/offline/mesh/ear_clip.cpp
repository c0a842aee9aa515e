// Ear clipping, the classic way (Eberly, "Triangulation by Ear Clipping"): loops are nested by the
// even-odd rule (a loop inside an odd number of others is a hole of the innermost one around it),
// each hole is joined to its outline by a bridge from its rightmost point to a point of the outline
// it sees, and the resulting simple polygon loses one ear at a time, the first one found going round.

#include <algorithm>
#include <cmath>
#include <string>

#include "mf/offline/mesh/robust_predicates.hpp"
#include "mf/offline/mesh/triangulator.hpp"

namespace mf::offline {

namespace {

using Loop = std::vector<std::uint32_t>;

Unexpected fail(std::string message) { return Unexpected{Error{"", "", {}, std::move(message)}}; }

double signed_area(const std::vector<Vec2d>& p, const Loop& loop) {
  double a = 0;
  for (std::size_t i = 0; i < loop.size(); ++i) a += cross(p[loop[i]], p[loop[(i + 1) % loop.size()]]);
  return a / 2;
}

// Even-odd point in polygon (points on the boundary count either way).
bool contains(const std::vector<Vec2d>& p, const Loop& loop, Vec2d q) {
  bool in = false;
  for (std::size_t i = 0, j = loop.size() - 1; i < loop.size(); j = i++) {
    const Vec2d a = p[loop[i]], b = p[loop[j]];
    if ((a.y > q.y) != (b.y > q.y) && q.x < (b.x - a.x) * (q.y - a.y) / (b.y - a.y) + a.x) in = !in;
  }
  return in;
}

// Joins a clockwise hole into the counter-clockwise polygon through a bridge from the hole's
// rightmost point M to a polygon point visible from it.
void bridge(const std::vector<Vec2d>& p, Loop& poly, const Loop& hole) {
  std::size_t mi = 0;
  for (std::size_t i = 1; i < hole.size(); ++i)
    if (p[hole[i]].x > p[hole[mi]].x || (p[hole[i]].x == p[hole[mi]].x && p[hole[i]].y < p[hole[mi]].y)) mi = i;
  const Vec2d m = p[hole[mi]];
  // The nearest polygon edge the ray from M to +x meets, and its endpoint with the larger x.
  double best_x = INFINITY;
  std::size_t vis = poly.size();
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const std::size_t j = (i + 1) % poly.size();
    const Vec2d a = p[poly[i]], b = p[poly[j]];
    // Half-open in y, so a vertex on the ray counts for one of its two edges. M is inside the
    // polygon, so the nearest edge met is one where the ray leaves it.
    if ((a.y > m.y) == (b.y > m.y)) continue;
    const double x = a.x + (m.y - a.y) * (b.x - a.x) / (b.y - a.y);
    if (x < m.x || x >= best_x) continue;
    best_x = x;
    vis = a.y == m.y ? i : b.y == m.y ? j : (a.x > b.x ? i : j);
  }
  if (vis == poly.size()) vis = 0;
  if (best_x != INFINITY) {
    // A reflex polygon vertex inside the triangle (M, I, P) hides P: take the one nearest in angle.
    const Vec2d i_pt{best_x, m.y};
    const Vec2d pv = p[poly[vis]];
    double best_angle = INFINITY, best_dist = INFINITY;
    for (std::size_t k = 0; k < poly.size(); ++k) {
      if (k == vis) continue;
      const Vec2d r = p[poly[k]];
      const Vec2d prev = p[poly[(k + poly.size() - 1) % poly.size()]], next = p[poly[(k + 1) % poly.size()]];
      if (orient2d(prev, r, next) > 0) continue;  // convex
      const double o1 = orient2d(m, i_pt, r), o2 = orient2d(i_pt, pv, r), o3 = orient2d(pv, m, r);
      const bool inside = (o1 >= 0 && o2 >= 0 && o3 >= 0) || (o1 <= 0 && o2 <= 0 && o3 <= 0);
      if (!inside || r.x < m.x) continue;
      const double angle = std::atan2(std::abs(r.y - m.y), r.x - m.x), dist = length(r - m);
      if (angle < best_angle || (angle == best_angle && dist < best_dist)) best_angle = angle, best_dist = dist, vis = k;
    }
  }
  Loop joined(poly.begin(), poly.begin() + static_cast<std::ptrdiff_t>(vis) + 1);
  for (std::size_t k = 0; k <= hole.size(); ++k) joined.push_back(hole[(mi + k) % hole.size()]);
  joined.insert(joined.end(), poly.begin() + static_cast<std::ptrdiff_t>(vis), poly.end());
  poly = std::move(joined);
}

// Clips ears off a counter-clockwise polygon (repeated indices allowed where bridges run).
Status clip(const std::vector<Vec2d>& p, const Loop& poly, std::vector<std::array<std::uint32_t, 3>>& out) {
  const std::size_t n = poly.size();
  std::vector<std::size_t> prev(n), next(n);
  for (std::size_t i = 0; i < n; ++i) prev[i] = (i + n - 1) % n, next[i] = (i + 1) % n;
  std::size_t left = n, i = 0, misses = 0;
  auto is_ear = [&](std::size_t v) {
    const std::uint32_t a = poly[prev[v]], b = poly[v], c = poly[next[v]];
    if (orient2d(p[a], p[b], p[c]) <= 0) return false;
    for (std::size_t k = next[next[v]]; k != prev[v]; k = next[k]) {
      const std::uint32_t x = poly[k];
      if (x == a || x == b || x == c) continue;
      if (orient2d(p[poly[prev[k]]], p[x], p[poly[next[k]]]) > 0) continue;  // only reflex points can be inside
      if (orient2d(p[a], p[b], p[x]) >= 0 && orient2d(p[b], p[c], p[x]) >= 0 && orient2d(p[c], p[a], p[x]) >= 0) return false;
    }
    return true;
  };
  auto remove = [&](std::size_t v) {
    next[prev[v]] = next[v];
    prev[next[v]] = prev[v];
    i = next[v];
    --left;
    misses = 0;
  };
  while (left > 3) {
    if (is_ear(i)) {
      out.push_back({poly[prev[i]], poly[i], poly[next[i]]});
      remove(i);
      continue;
    }
    i = next[i];
    if (++misses < left) continue;
    // A whole round without an ear (rounding in a nearly degenerate polygon): take any convex
    // corner, else drop a straight one.
    bool done = false;
    for (std::size_t k = 0, v = i; k < left && !done; ++k, v = next[v])
      if (orient2d(p[poly[prev[v]]], p[poly[v]], p[poly[next[v]]]) > 0) {
        out.push_back({poly[prev[v]], poly[v], poly[next[v]]});
        remove(v);
        done = true;
      }
    for (std::size_t k = 0, v = i; k < left && !done; ++k, v = next[v])
      if (orient2d(p[poly[prev[v]]], p[poly[v]], p[poly[next[v]]]) == 0) {
        remove(v);
        done = true;
      }
    if (!done) return fail("ear clipping found no ear: the loops cross");
  }
  if (orient2d(p[poly[prev[i]]], p[poly[i]], p[poly[next[i]]]) > 0) out.push_back({poly[prev[i]], poly[i], poly[next[i]]});
  return {};
}

}  // namespace

Expected<std::vector<std::array<std::uint32_t, 3>>> ear_clip_domain(const PlanarDomain& domain) {
  const std::vector<Vec2d>& p = domain.points;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!std::isfinite(p[i].x) || !std::isfinite(p[i].y)) return fail("point " + std::to_string(i) + " is not finite");
  if (domain.loops.empty()) return fail("the domain is empty: it has no loops");
  std::vector<double> area(domain.loops.size());
  for (std::size_t l = 0; l < domain.loops.size(); ++l) {
    const Loop& loop = domain.loops[l];
    const std::string name = "loop " + std::to_string(l);
    if (loop.size() < 3) return fail(name + " has " + std::to_string(loop.size()) + " points; a loop needs at least 3");
    for (std::uint32_t v : loop)
      if (v >= p.size()) return fail(name + " refers to point " + std::to_string(v) + ", but there are " + std::to_string(p.size()) + " points");
    area[l] = signed_area(p, loop);
    if (area[l] == 0) return fail(name + " encloses no area");
  }
  // Depth: how many other loops hold the loop (tested at its first point).
  const std::size_t count = domain.loops.size();
  std::vector<int> depth(count, 0);
  std::vector<std::size_t> parent(count, count);
  for (std::size_t l = 0; l < count; ++l)
    for (std::size_t o = 0; o < count; ++o)
      if (o != l && contains(p, domain.loops[o], p[domain.loops[l][0]])) ++depth[l];
  for (std::size_t l = 0; l < count; ++l) {
    if (depth[l] % 2 == 0) continue;
    for (std::size_t o = 0; o < count; ++o)
      if (o != l && depth[o] == depth[l] - 1 && contains(p, domain.loops[o], p[domain.loops[l][0]])) parent[l] = o;
  }
  std::vector<std::array<std::uint32_t, 3>> out;
  for (std::size_t l = 0; l < count; ++l) {
    if (depth[l] % 2 != 0) continue;
    Loop poly = domain.loops[l];
    if (area[l] < 0) std::reverse(poly.begin(), poly.end());
    std::vector<std::pair<double, Loop>> holes;
    for (std::size_t h = 0; h < count; ++h) {
      if (parent[h] != l) continue;
      Loop hole = domain.loops[h];
      if (area[h] > 0) std::reverse(hole.begin(), hole.end());
      double max_x = -INFINITY;
      for (std::uint32_t v : hole) max_x = std::max(max_x, p[v].x);
      holes.push_back({max_x, std::move(hole)});
    }
    std::stable_sort(holes.begin(), holes.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [x, hole] : holes) bridge(p, poly, hole);
    if (Status s = clip(p, poly, out); !s) return Unexpected{s.error()};
  }
  return out;
}

}  // namespace mf::offline
