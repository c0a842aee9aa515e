// Ear clipping, then Hertel–Mehlhorn, in doubles on the cleaned polygon. Polygons here are hitboxes
// of a few dozen points, built once at load time: the quadratic and cubic loops are deliberate, for
// code that is easy to check.

#include "mf/scene/physics2d/convex_pieces.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace mf::scene {
namespace {

using P = Vec2d;

std::string fmt_point(Vec2 p) {
  char text[64];
  std::snprintf(text, sizeof text, "(%g, %g)", static_cast<double>(p.x), static_cast<double>(p.y));
  return text;
}

std::string fmt_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

Unexpected fail(std::string message) { return Unexpected{Error{.message = std::move(message)}}; }

double orient(P a, P b, P c) { return cross(b - a, c - a); }

// Distance of b from the line through a and c (from a when a and c coincide).
double line_distance(P a, P b, P c) {
  const P ac = c - a;
  const double l = length(ac);
  if (l == 0) return length(b - a);
  return std::abs(cross(ac, b - a)) / l;
}

double segment_distance(P p, P a, P b) {
  const P ab = b - a;
  const double l2 = dot(ab, ab);
  const double t = l2 > 0 ? std::clamp(dot(p - a, ab) / l2, 0.0, 1.0) : 0.0;
  return length(p - (a + ab * t));
}

// Whether segments ab and cd cross or come within `eps` of each other.
bool segments_meet(P a, P b, P c, P d, double eps) {
  const double d1 = orient(c, d, a), d2 = orient(c, d, b), d3 = orient(a, b, c), d4 = orient(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return segment_distance(a, c, d) <= eps || segment_distance(b, c, d) <= eps || segment_distance(c, a, b) <= eps ||
         segment_distance(d, a, b) <= eps;
}

struct Polygon {
  std::vector<P> pts;
  std::vector<int> input_index;  // each cleaned point's index in the input
  double eps = 0;                // a millionth of the polygon's size
};

// Removes one duplicate or collinear point; false when there is none.
bool remove_one_redundant_point(Polygon& poly) {
  const std::size_t n = poly.pts.size();
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t next = (i + 1) % n;
    if (length(poly.pts[next] - poly.pts[i]) <= poly.eps) {
      poly.pts.erase(poly.pts.begin() + static_cast<std::ptrdiff_t>(next));
      poly.input_index.erase(poly.input_index.begin() + static_cast<std::ptrdiff_t>(next));
      return true;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    const P a = poly.pts[(i + n - 1) % n], b = poly.pts[i], c = poly.pts[(i + 1) % n];
    if (line_distance(a, b, c) <= poly.eps) {
      poly.pts.erase(poly.pts.begin() + static_cast<std::ptrdiff_t>(i));
      poly.input_index.erase(poly.input_index.begin() + static_cast<std::ptrdiff_t>(i));
      return true;
    }
  }
  return false;
}

std::string edge_name(const Polygon& poly, std::size_t i) {
  const std::size_t n = poly.pts.size();
  return "the edge from vertex " + std::to_string(poly.input_index[i]) + " to vertex " +
         std::to_string(poly.input_index[(i + 1) % n]);
}

Status check_simple(const Polygon& poly) {
  const std::size_t n = poly.pts.size();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;  // adjacent through the closing edge
      if (segments_meet(poly.pts[i], poly.pts[(i + 1) % n], poly.pts[j], poly.pts[(j + 1) % n], poly.eps)) {
        return fail("polygon is not simple: " + edge_name(poly, i) + " meets " + edge_name(poly, j));
      }
    }
  }
  return {};
}

// Ear clipping of a counter-clockwise simple polygon. An ear's triangle must hold no other point of
// the remaining polygon, boundary included (so no diagonal runs through a point); if rounding leaves
// no such ear, a second pass accepts points on the boundary. Nearly straight corners of the remaining
// polygon are cut off without a triangle (their area is below eps × the polygon's size).
Expected<std::vector<std::vector<int>>> triangulate(const Polygon& poly) {
  std::vector<int> ring(poly.pts.size());
  for (std::size_t i = 0; i < ring.size(); ++i) ring[i] = static_cast<int>(i);
  std::vector<std::vector<int>> triangles;
  const auto& pts = poly.pts;

  auto inside = [&](P a, P b, P c, P p, double margin) {
    auto side = [&](P u, P v) { return orient(u, v, p) / length(v - u); };
    return side(a, b) >= margin && side(b, c) >= margin && side(c, a) >= margin;
  };

  while (ring.size() > 3) {
    const std::size_t m = ring.size();
    bool clipped = false;
    for (int pass = 0; pass < 2 && !clipped; ++pass) {
      const double margin = pass == 0 ? -poly.eps : poly.eps;
      for (std::size_t k = 0; k < m && !clipped; ++k) {
        const int ia = ring[(k + m - 1) % m], ib = ring[k], ic = ring[(k + 1) % m];
        const P a = pts[static_cast<std::size_t>(ia)], b = pts[static_cast<std::size_t>(ib)],
                c = pts[static_cast<std::size_t>(ic)];
        if (line_distance(a, b, c) <= poly.eps) {
          ring.erase(ring.begin() + static_cast<std::ptrdiff_t>(k));
          clipped = true;
          break;
        }
        if (orient(a, b, c) <= 0) continue;
        bool empty = true;
        for (int ir : ring) {
          if (ir == ia || ir == ib || ir == ic) continue;
          if (inside(a, b, c, pts[static_cast<std::size_t>(ir)], margin)) {
            empty = false;
            break;
          }
        }
        if (!empty) continue;
        triangles.push_back({ia, ib, ic});
        ring.erase(ring.begin() + static_cast<std::ptrdiff_t>(k));
        clipped = true;
      }
    }
    if (!clipped) {
      return fail("polygon could not be triangulated: no ear is left among " + std::to_string(m) +
                  " points (is it nearly self-touching near vertex " +
                  std::to_string(poly.input_index[static_cast<std::size_t>(ring[0])]) + "?)");
    }
  }
  const P a = pts[static_cast<std::size_t>(ring[0])], b = pts[static_cast<std::size_t>(ring[1])],
          c = pts[static_cast<std::size_t>(ring[2])];
  if (line_distance(a, b, c) > poly.eps && orient(a, b, c) > 0) triangles.push_back(ring);
  return triangles;
}

// Corners of a piece that are not straight (collinear points are not corners); -1 if it is not convex.
int corner_count(const Polygon& poly, const std::vector<int>& piece) {
  const std::size_t n = piece.size();
  int corners = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const P a = poly.pts[static_cast<std::size_t>(piece[(i + n - 1) % n])];
    const P b = poly.pts[static_cast<std::size_t>(piece[i])];
    const P c = poly.pts[static_cast<std::size_t>(piece[(i + 1) % n])];
    if (line_distance(a, b, c) <= poly.eps) continue;
    if (orient(a, b, c) < 0) return -1;
    ++corners;
  }
  return corners;
}

// The piece made of p and q across their shared edge, or an empty vector when they share none.
std::vector<int> merge_across_shared_edge(const std::vector<int>& p, const std::vector<int>& q) {
  const std::size_t np = p.size(), nq = q.size();
  for (std::size_t pa = 0; pa < np; ++pa) {
    const int a = p[pa], b = p[(pa + 1) % np];
    for (std::size_t qb = 0; qb < nq; ++qb) {
      if (q[qb] != b || q[(qb + 1) % nq] != a) continue;
      std::vector<int> merged;
      merged.reserve(np + nq - 2);
      for (std::size_t k = 0; k < np; ++k) merged.push_back(p[(pa + 1 + k) % np]);      // b … a
      for (std::size_t k = 0; k + 2 < nq; ++k) merged.push_back(q[(qb + 2 + k) % nq]);  // after a … before b
      return merged;
    }
  }
  return {};
}

// Hertel–Mehlhorn: drop a diagonal whenever the merged piece stays convex with at most max corners.
std::vector<std::vector<int>> merge_pieces(const Polygon& poly, std::vector<std::vector<int>> pieces, int max_corners) {
  std::vector<bool> alive(pieces.size(), true);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      if (!alive[i]) continue;
      for (std::size_t j = i + 1; j < pieces.size(); ++j) {
        if (!alive[j]) continue;
        std::vector<int> merged = merge_across_shared_edge(pieces[i], pieces[j]);
        if (merged.empty()) continue;
        const int corners = corner_count(poly, merged);
        if (corners < 0 || corners > max_corners) continue;
        pieces[i] = std::move(merged);
        alive[j] = false;
        changed = true;
      }
    }
  }
  std::vector<std::vector<int>> kept;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (alive[i]) kept.push_back(std::move(pieces[i]));
  }
  return kept;
}

void remove_straight_points(std::vector<P>& piece, double eps) {
  for (std::size_t i = 0; i < piece.size() && piece.size() > 3;) {
    const std::size_t n = piece.size();
    if (line_distance(piece[(i + n - 1) % n], piece[i], piece[(i + 1) % n]) <= eps) {
      piece.erase(piece.begin() + static_cast<std::ptrdiff_t>(i));
      i = 0;
    } else {
      ++i;
    }
  }
}

double area_of(const std::vector<P>& piece) {
  double a2 = 0;
  for (std::size_t i = 0; i < piece.size(); ++i) a2 += cross(piece[i], piece[(i + 1) % piece.size()]);
  return a2 / 2;
}

}  // namespace

double signed_area2(std::span<const Vec2> polygon) {
  double a2 = 0;
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    const Vec2 p = polygon[i], q = polygon[(i + 1) % polygon.size()];
    a2 += static_cast<double>(p.x) * q.y - static_cast<double>(q.x) * p.y;
  }
  return a2;
}

Expected<std::vector<std::vector<Vec2>>> convex_pieces(std::span<const Vec2> polygon, int max_vertices) {
  return convex_pieces(polygon, ConvexPiecesOptions{.max_vertices = max_vertices});
}

Expected<std::vector<std::vector<Vec2>>> convex_pieces(std::span<const Vec2> polygon, const ConvexPiecesOptions& options,
                                                       std::vector<std::string>* notes) {
  if (options.max_vertices < 3) {
    return fail("convex pieces need at least 3 vertices each, not " + std::to_string(options.max_vertices));
  }
  if (polygon.size() < 3) {
    return fail("a polygon needs at least 3 points, this one has " + std::to_string(polygon.size()));
  }
  Polygon poly;
  double lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY, hi_y = -INFINITY;
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    const Vec2 v = polygon[i];
    if (!std::isfinite(v.x) || !std::isfinite(v.y)) {
      return fail("polygon vertex " + std::to_string(i) + " is not finite: " + fmt_point(v));
    }
    poly.pts.push_back({v.x, v.y});
    poly.input_index.push_back(static_cast<int>(i));
    lo_x = std::min<double>(lo_x, v.x), hi_x = std::max<double>(hi_x, v.x);
    lo_y = std::min<double>(lo_y, v.y), hi_y = std::max<double>(hi_y, v.y);
  }
  const double size = std::max(hi_x - lo_x, hi_y - lo_y);
  poly.eps = size * 1e-6;

  while (poly.pts.size() >= 3 && remove_one_redundant_point(poly)) {
  }
  if (poly.pts.size() < 3) {
    return fail("polygon of " + std::to_string(polygon.size()) +
                " points is degenerate: it has zero area (fewer than 3 points remain once duplicate and "
                "collinear points are removed)");
  }
  if (Status simple = check_simple(poly); !simple) return Unexpected{simple.error()};

  double a2 = 0;
  for (std::size_t i = 0; i < poly.pts.size(); ++i) a2 += cross(poly.pts[i], poly.pts[(i + 1) % poly.pts.size()]);
  if (std::abs(a2) / 2 <= poly.eps * size) {
    return fail("polygon of " + std::to_string(polygon.size()) + " points is degenerate: its area is " +
                fmt_number(std::abs(a2) / 2));
  }
  if (a2 < 0) {
    std::reverse(poly.pts.begin(), poly.pts.end());
    std::reverse(poly.input_index.begin(), poly.input_index.end());
  }

  auto triangles = triangulate(poly);
  if (!triangles) return Unexpected{triangles.error()};
  const std::vector<std::vector<int>> pieces = merge_pieces(poly, std::move(*triangles), options.max_vertices);

  std::vector<std::vector<Vec2>> out;
  out.reserve(pieces.size());
  const double min_distance = options.min_vertex_distance;
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    std::vector<P> piece;
    for (int index : pieces[p]) piece.push_back(poly.pts[static_cast<std::size_t>(index)]);
    remove_straight_points(piece, poly.eps);

    // Weld: keep a point only when it is far enough from the last kept one (and the last from the first).
    std::vector<P> welded;
    for (const P v : piece) {
      if (!welded.empty() && length(v - welded.back()) < min_distance) {
        if (notes) {
          notes->push_back("piece " + std::to_string(p) + ": point " + fmt_point({float(v.x), float(v.y)}) +
                           " welded away: " + fmt_number(length(v - welded.back())) +
                           " from the previous point, closer than " + fmt_number(min_distance));
        }
        continue;
      }
      welded.push_back(v);
    }
    while (welded.size() > 1 && length(welded.back() - welded.front()) < min_distance) {
      if (notes) {
        notes->push_back("piece " + std::to_string(p) + ": point " +
                         fmt_point({float(welded.back().x), float(welded.back().y)}) + " welded away: " +
                         fmt_number(length(welded.back() - welded.front())) + " from the first point, closer than " +
                         fmt_number(min_distance));
      }
      welded.pop_back();
    }
    if (welded.size() >= 3) remove_straight_points(welded, poly.eps);
    const double area = welded.size() >= 3 ? area_of(welded) : 0.0;
    if (welded.size() < 3 || area <= 0 || area < options.min_area) {
      if (notes) {
        notes->push_back("piece " + std::to_string(p) + " dropped: " +
                         (welded.size() < 3 ? std::to_string(welded.size()) + " points are left after welding"
                                            : "its area " + fmt_number(area) + " is below " +
                                                  fmt_number(options.min_area)));
      }
      continue;
    }
    std::vector<Vec2>& result = out.emplace_back();
    result.reserve(welded.size());
    for (const P v : welded) result.push_back({static_cast<float>(v.x), static_cast<float>(v.y)});
  }
  return out;
}

}  // namespace mf::scene
