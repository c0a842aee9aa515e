#include "mf/skel/clipping.hpp"

#include <algorithm>
#include <cmath>

#include "mf/core/math/vec2.hpp"

namespace mf::skel {
namespace {

// Geometry runs in double (Vec2d): the clip polygon is in skeleton-space pixels, where float cross
// products of long edges lose the precision the convexity tests need.

// Twice the signed area of (o, a, b).
double cross(Vec2d o, Vec2d a, Vec2d b) { return mf::cross(a - o, b - o); }

}  // namespace

PolygonClipper::PolygonClipper(std::size_t max_polygon_vertices)
    : capacity_(std::max<std::size_t>(3, max_polygon_vertices)) {
  const std::size_t n = capacity_;
  points_.reserve(2 * n);
  ring_.reserve(n);
  piece_vertices_.assign(n * (n - 2), 0);  // at most n − 2 triangles, each growing to at most n vertices
  piece_length_.assign(n - 2, 0);
  diagonals_.reserve(2 * (n - 3));
  merged_.assign(n, 0);
  pieces_.reserve(2 * 3 * (n - 2));
  piece_offsets_.reserve(n - 1);
  // Sutherland–Hodgman adds at most one vertex per clip edge to a convex input; the doubled room also
  // holds what rounding on a nearly degenerate piece could add, and pushes never pass it.
  work_a_.resize(2 * (n + 3));
  work_b_.resize(2 * (n + 3));
}

std::span<const float> PolygonClipper::piece(std::size_t i) const {
  const std::uint32_t begin = piece_offsets_[i], end = piece_offsets_[i + 1];
  return std::span<const float>(pieces_).subspan(2 * begin, 2 * (end - begin));
}

bool PolygonClipper::set_polygon(std::span<const float> xy) {
  points_.clear();
  pieces_.clear();
  piece_offsets_.clear();
  max_piece_vertices_ = 0;
  const std::size_t n = xy.size() / 2;
  if (n < 3 || n > capacity_) return false;

  float min_x = xy[0], max_x = xy[0], min_y = xy[1], max_y = xy[1];
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(xy[2 * i]) || !std::isfinite(xy[2 * i + 1])) return false;
    min_x = std::min(min_x, xy[2 * i]);
    max_x = std::max(max_x, xy[2 * i]);
    min_y = std::min(min_y, xy[2 * i + 1]);
    max_y = std::max(max_y, xy[2 * i + 1]);
  }
  const double extent = std::max<double>(max_x - min_x, max_y - min_y);
  if (!(extent > 0)) return false;
  const double same = 1e-9 * extent;  // positions closer than this are one vertex

  auto pt = [&](std::size_t i) { return Vec2d{points_[2 * i], points_[2 * i + 1]}; };
  auto count = [&] { return points_.size() / 2; };
  for (std::size_t i = 0; i < n; ++i) {
    const float x = xy[2 * i], y = xy[2 * i + 1];
    if (count() > 0) {
      const Vec2d last = pt(count() - 1);
      if (std::abs(last.x - x) <= same && std::abs(last.y - y) <= same) continue;
    }
    points_.push_back(x);
    points_.push_back(y);
  }
  while (count() > 1 && std::abs(pt(0).x - pt(count() - 1).x) <= same && std::abs(pt(0).y - pt(count() - 1).y) <= same) {
    points_.resize(points_.size() - 2);
  }

  // Collinear vertices (including zero-width spikes) add nothing to the area; dropping them keeps the
  // ear clipper away from zero-area ears.
  for (bool removed = true; removed;) {
    removed = false;
    for (std::size_t i = 0; i < count() && count() >= 3;) {
      const Vec2d p = pt((i + count() - 1) % count()), c = pt(i), q = pt((i + 1) % count());
      const double l1 = std::hypot(c.x - p.x, c.y - p.y), l2 = std::hypot(q.x - c.x, q.y - c.y);
      if (std::abs(cross(p, c, q)) <= 1e-9 * l1 * l2) {
        const auto at = points_.begin() + static_cast<std::ptrdiff_t>(2 * i);
        points_.erase(at, at + 2);
        removed = true;
      } else {
        ++i;
      }
    }
  }
  if (count() < 3) {
    points_.clear();
    return false;
  }

  double area2 = 0;
  for (std::size_t i = 0; i < count(); ++i) area2 += cross(Vec2d{0, 0}, pt(i), pt((i + 1) % count()));
  if (std::abs(area2) <= 1e-12 * extent * extent) {
    points_.clear();
    return false;
  }
  if (area2 < 0) {
    // Reverse the vertex order so every piece comes out counter-clockwise.
    for (std::size_t i = 0, j = count() - 1; i < j; ++i, --j) {
      std::swap(points_[2 * i], points_[2 * j]);
      std::swap(points_[2 * i + 1], points_[2 * j + 1]);
    }
  }
  return decompose();
}

bool PolygonClipper::decompose() {
  const std::size_t n = points_.size() / 2;
  const std::size_t cap = capacity_;
  auto pt = [&](std::uint32_t i) { return Vec2d{points_[2 * i], points_[2 * i + 1]}; };
  double extent = 0;
  for (std::size_t i = 1; i < n; ++i)
    extent = std::max({extent, std::abs(pt(static_cast<std::uint32_t>(i)).x - pt(0).x),
                       std::abs(pt(static_cast<std::uint32_t>(i)).y - pt(0).y)});
  const double eps = 1e-12 * extent * extent;

  // ---- ear clipping: triangles as pieces, and the diagonal each clipped ear leaves behind ----
  ring_.clear();
  for (std::uint32_t i = 0; i < n; ++i) ring_.push_back(i);
  diagonals_.clear();
  std::size_t pieces = 0;
  auto emit = [&](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    if (cross(pt(a), pt(b), pt(c)) <= eps) return;  // zero area: nothing to cover
    std::uint32_t* v = &piece_vertices_[pieces * cap];
    v[0] = a;
    v[1] = b;
    v[2] = c;
    piece_length_[pieces++] = 3;
  };
  std::size_t start = 0;
  while (ring_.size() > 3) {
    const std::size_t m = ring_.size();
    std::size_t ear = m;
    for (std::size_t step = 0; step < m && ear == m; ++step) {
      const std::size_t k = (start + step) % m;
      const std::uint32_t ip = ring_[(k + m - 1) % m], ic = ring_[k], iq = ring_[(k + 1) % m];
      const Vec2d p = pt(ip), c = pt(ic), q = pt(iq);
      if (cross(p, c, q) <= eps) continue;  // reflex or flat: not an ear
      bool blocked = false;
      for (std::size_t j = 0; j < m && !blocked; ++j) {
        const std::uint32_t ir = ring_[j];
        if (ir == ip || ir == ic || ir == iq) continue;
        const std::uint32_t rp = ring_[(j + m - 1) % m], rq = ring_[(j + 1) % m];
        const Vec2d r = pt(ir);
        if (cross(pt(rp), r, pt(rq)) > eps) continue;  // only reflex vertices can lie inside an ear
        if ((r.x == p.x && r.y == p.y) || (r.x == c.x && r.y == c.y) || (r.x == q.x && r.y == q.y)) continue;
        blocked = cross(p, c, r) >= -eps && cross(c, q, r) >= -eps && cross(q, p, r) >= -eps;
      }
      if (!blocked) ear = k;
    }
    if (ear == m) {
      // No clean ear (a self-touching or self-intersecting outline): take the most convex vertex so
      // the loop always ends; the pieces may then overlap or miss slivers of such an outline.
      double best = -1e300;
      for (std::size_t k = 0; k < m; ++k) {
        const double turn = cross(pt(ring_[(k + m - 1) % m]), pt(ring_[k]), pt(ring_[(k + 1) % m]));
        if (turn > best) {
          best = turn;
          ear = k;
        }
      }
    }
    const std::uint32_t ip = ring_[(ear + m - 1) % m], ic = ring_[ear], iq = ring_[(ear + 1) % m];
    emit(ip, ic, iq);
    diagonals_.push_back(ip);
    diagonals_.push_back(iq);
    ring_.erase(ring_.begin() + static_cast<std::ptrdiff_t>(ear));
    start = ear % ring_.size();  // continue near the last ear: it keeps the search short
  }
  emit(ring_[0], ring_[1], ring_[2]);

  // ---- Hertel–Mehlhorn: drop each diagonal whose two pieces stay convex without it ----
  auto find_edge = [&](std::uint32_t from, std::uint32_t to, std::size_t& piece, std::size_t& at) {
    for (std::size_t p = 0; p < pieces; ++p) {
      const std::uint32_t len = piece_length_[p];
      const std::uint32_t* v = &piece_vertices_[p * cap];
      for (std::uint32_t j = 0; j < len; ++j) {
        if (v[j] == from && v[(j + 1) % len] == to) {
          piece = p;
          at = j;
          return true;
        }
      }
    }
    return false;
  };
  for (std::size_t d = 0; d + 1 < diagonals_.size(); d += 2) {
    const std::uint32_t u = diagonals_[d], w = diagonals_[d + 1];
    std::size_t pa = 0, ja = 0, pb = 0, jb = 0;
    if (!find_edge(u, w, pa, ja) || !find_edge(w, u, pb, jb) || pa == pb) continue;
    const std::uint32_t la = piece_length_[pa], lb = piece_length_[pb];
    const std::uint32_t* a = &piece_vertices_[pa * cap];
    const std::uint32_t* b = &piece_vertices_[pb * cap];
    // A runs u → w → rest of A → u; B runs w → u → rest of B → w. Without the diagonal:
    // w, rest of A, u, rest of B.
    const std::uint32_t a_next = a[(ja + 2) % la], a_prev = a[(ja + la - 1) % la];
    const std::uint32_t b_next = b[(jb + 2) % lb], b_prev = b[(jb + lb - 1) % lb];
    if (cross(pt(a_prev), pt(u), pt(b_next)) < -eps || cross(pt(b_prev), pt(w), pt(a_next)) < -eps) continue;
    std::size_t len = 0;
    merged_[len++] = w;
    for (std::uint32_t j = 2; j < la; ++j) merged_[len++] = a[(ja + j) % la];
    merged_[len++] = u;
    for (std::uint32_t j = 2; j < lb; ++j) merged_[len++] = b[(jb + j) % lb];
    std::copy_n(merged_.begin(), len, piece_vertices_.begin() + static_cast<std::ptrdiff_t>(pa * cap));
    piece_length_[pa] = static_cast<std::uint32_t>(len);
    piece_length_[pb] = 0;
  }

  piece_offsets_.push_back(0);
  for (std::size_t p = 0; p < pieces; ++p) {
    const std::uint32_t len = piece_length_[p];
    if (len == 0) continue;
    for (std::uint32_t j = 0; j < len; ++j) {
      const std::uint32_t v = piece_vertices_[p * cap + j];
      pieces_.push_back(points_[2 * v]);
      pieces_.push_back(points_[2 * v + 1]);
    }
    piece_offsets_.push_back(static_cast<std::uint32_t>(pieces_.size() / 2));
    max_piece_vertices_ = std::max<std::size_t>(max_piece_vertices_, len);
  }
  if (piece_offsets_.size() == 1) {
    piece_offsets_.clear();
    return false;
  }
  return true;
}

std::span<const ClippedVertex> PolygonClipper::clip_triangle(std::size_t i, const float* a, const float* b,
                                                             const float* c) {
  const std::span<const float> poly = piece(i);
  const std::size_t edges = poly.size() / 2;
  const std::size_t room = work_a_.size();
  ClippedVertex* in = work_a_.data();
  ClippedVertex* out = work_b_.data();
  in[0] = {a[0], a[1], 1, 0, 0};
  in[1] = {b[0], b[1], 0, 1, 0};
  in[2] = {c[0], c[1], 0, 0, 1};
  std::size_t count = 3;

  for (std::size_t e = 0; e < edges && count >= 3; ++e) {
    const Vec2d e0{poly[2 * e], poly[2 * e + 1]};
    const Vec2d e1{poly[2 * ((e + 1) % edges)], poly[2 * ((e + 1) % edges) + 1]};
    // Signed distance (scaled) of a vertex from the edge's line: ≥ 0 inside (left of a CCW edge).
    auto side = [&](const ClippedVertex& v) { return cross(e0, e1, Vec2d{v.x, v.y}); };
    std::size_t produced = 0;
    const ClippedVertex* prev = &in[count - 1];
    double dp = side(*prev);
    for (std::size_t j = 0; j < count; ++j) {
      const ClippedVertex& cur = in[j];
      const double dc = side(cur);
      // An intersection only where the sign strictly changes: a vertex on the line is kept once.
      if (((dp < 0 && dc > 0) || (dp > 0 && dc < 0)) && produced < room) {
        const double t = dp / (dp - dc);
        auto lerp = [t](float from, float to) { return static_cast<float>(from + (to - from) * t); };
        out[produced++] = {lerp(prev->x, cur.x), lerp(prev->y, cur.y), lerp(prev->wa, cur.wa), lerp(prev->wb, cur.wb),
                           lerp(prev->wc, cur.wc)};
      }
      if (dc >= 0 && produced < room) out[produced++] = cur;
      prev = &cur;
      dp = dc;
    }
    std::swap(in, out);
    count = produced;
  }
  if (count < 3) return {};

  // Outputs without area (the triangle only touches the piece) draw nothing.
  double area2 = 0, tri2 = cross(Vec2d{a[0], a[1]}, Vec2d{b[0], b[1]}, Vec2d{c[0], c[1]});
  for (std::size_t j = 0; j < count; ++j)
    area2 += cross(Vec2d{0, 0}, Vec2d{in[j].x, in[j].y}, Vec2d{in[(j + 1) % count].x, in[(j + 1) % count].y});
  if (!(std::abs(area2) > 1e-9 * std::abs(tri2))) return {};
  return std::span<const ClippedVertex>(in, count);
}

}  // namespace mf::skel
