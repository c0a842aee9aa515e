// Constrained Delaunay triangulation of a planar domain and its Delaunay refinement.
//
// Construction: every point is inserted (Lawson) into a large enclosing triangle, then every
// constraint is recovered by flipping the edges it crosses (splitting it at any point lying exactly
// on it), then the triangles are classified by the even-odd rule from outside, toggling at loop edges.
//
// Refinement is Ruppert's algorithm as Shewchuk describes it ("Delaunay Refinement Algorithms for
// Triangular Mesh Generation", 2002): segments encroached on (a vertex inside their diametral circle)
// are split first; then the worst triangle (smallest angle, then largest area) has its circumcentre
// inserted, unless that circumcentre would encroach on segments, which are split instead. Segments
// are split at their midpoint when both ends are input points, otherwise on a concentric shell (a
// power-of-two distance from the input end), so that two segments meeting at a small angle are split
// at matching distances. Triangles whose poor angle cannot be fixed are left alone: those whose
// smallest angle lies in an input corner sharper than kSharpCorner, and those whose shortest edge
// joins two points on segments meeting at an input corner below 60°, at equal distances from it
// (Shewchuk's rule; splitting them would only cut the corner into ever smaller shells).

#include "mf/offline/mesh/triangulator.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <queue>
#include <string>

#include "mf/offline/mesh/robust_predicates.hpp"
#include "triangle_mesh.hpp"

namespace mf::offline {

namespace {

using mesh_core::CrossingError;
using mesh_core::EdgeRef;
using mesh_core::kConstrained;
using mesh_core::kNone;
using mesh_core::Triangle;
using mesh_core::TriangleMesh;

constexpr std::uint32_t kFirst = 3;              // internal index of input point 0 (0–2: enclosing triangle)
constexpr double kSharpCorner = 40;              // degrees: corners sharper than this keep their small angles
constexpr double kShellCorner = 60;              // degrees: Shewchuk's bound for the shell rule
constexpr std::size_t kDefaultPointLimit = 1u << 20;
constexpr double kPi = 3.14159265358979323846;

Unexpected fail(std::string message) { return Unexpected{Error{"", "", {}, std::move(message)}}; }

// "3 (0.5, 2)": an input point's index and place.
std::string index_text(const std::vector<Vec2d>& p, std::uint32_t i) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%u (%g, %g)", i, p[i].x, p[i].y);
  return buf;
}

std::string point_text(const std::vector<Vec2d>& p, std::uint32_t i) { return "point " + index_text(p, i); }

std::string number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

struct Constraint {
  std::uint32_t a = 0, b = 0;  // input point indices
  int loop = -1;               // the loop it belongs to, -1 for an interior edge
  std::size_t index = 0;       // its edge index in the loop, or in domain.edges
};

std::string constraint_text(const Constraint& c) {
  const std::string ends = " (points " + std::to_string(c.a) + "-" + std::to_string(c.b) + ")";
  if (c.loop >= 0) return "loop " + std::to_string(c.loop) + " edge " + std::to_string(c.index) + ends;
  return "edge " + std::to_string(c.index) + ends;
}

double angle_at(Vec2d apex, Vec2d p, Vec2d q) {
  const Vec2d u = p - apex, v = q - apex;
  return std::atan2(std::abs(cross(u, v)), dot(u, v)) * (180 / kPi);
}

double smallest_angle(Vec2d a, Vec2d b, Vec2d c) {
  return std::min({angle_at(a, b, c), angle_at(b, c, a), angle_at(c, a, b)});
}

class Refiner {
 public:
  Refiner(TriangleMesh& mesh, const std::vector<Constraint>& constraints, const RefineOptions& options, std::size_t inputs,
          std::size_t limit)
      : m_(mesh), constraints_(constraints), options_(options), inputs_(inputs), limit_(limit) {
    segment_of_.assign(m_.points.size(), kNone);
  }

  void run() {
    for (std::uint32_t t = 0; t < m_.triangles.size(); ++t) {
      if (!m_.triangles[t].inside) continue;
      consider(t);
      for (int i = 0; i < 3; ++i) check_segment(t, i);
    }
    for (;;) {
      if (!encroached_.empty()) {
        const auto [a, b, forced] = encroached_.front();
        encroached_.pop_front();
        const EdgeRef e = m_.find_edge(a, b);
        if (e.tri == kNone || !(m_.triangles[e.tri].flags[static_cast<std::size_t>(e.index)] & kConstrained)) continue;
        if (!forced && !is_encroached(e.tri, e.index)) continue;
        if (full()) break;
        split_segment(e);
        continue;
      }
      if (bad_.empty()) break;
      const Bad top = bad_.top();
      bad_.pop();
      const Triangle& t = m_.triangles[top.tri];
      if (t.v != top.v || !t.inside) continue;
      if (full()) break;
      split_triangle(top.tri, top.area_only);
    }
  }

 private:
  struct Bad {
    bool area_only;  // large but well shaped
    double key;      // smallest angle, or minus the area
    std::uint32_t tri;
    std::array<std::uint32_t, 3> v;
    // "Less urgent than": the priority queue pops the most urgent first.
    bool operator<(const Bad& o) const {
      if (area_only != o.area_only) return area_only && !o.area_only;
      if (key != o.key) return key > o.key;
      return v > o.v;
    }
  };

  bool full() const { return m_.points.size() - kFirst >= limit_; }

  Vec2d P(std::uint32_t v) const { return m_.points[v]; }
  bool is_input(std::uint32_t v) const { return v >= kFirst && v < kFirst + inputs_; }

  bool is_encroached(std::uint32_t t, int i) const {
    const Triangle& T = m_.triangles[t];
    const Vec2d a = P(T.v[static_cast<std::size_t>((i + 1) % 3)]), b = P(T.v[static_cast<std::size_t>((i + 2) % 3)]);
    auto encroaches = [&](std::uint32_t x) { return dot(a - P(x), b - P(x)) < 0; };
    if (T.inside && encroaches(T.v[static_cast<std::size_t>(i)])) return true;
    const std::uint32_t u = T.n[static_cast<std::size_t>(i)];
    return u != kNone && m_.triangles[u].inside && encroaches(m_.apex_across(t, i));
  }

  void check_segment(std::uint32_t t, int i) {
    const Triangle& T = m_.triangles[t];
    if (!(T.flags[static_cast<std::size_t>(i)] & kConstrained)) return;
    if (is_encroached(t, i))
      encroached_.push_back({T.v[static_cast<std::size_t>((i + 1) % 3)], T.v[static_cast<std::size_t>((i + 2) % 3)], 0});
  }

  void consider(std::uint32_t t) {
    const Triangle& T = m_.triangles[t];
    if (!T.inside) return;
    const Vec2d a = P(T.v[0]), b = P(T.v[1]), c = P(T.v[2]);
    const double angle = smallest_angle(a, b, c);
    const double area = orient2d(a, b, c) / 2;
    const bool too_large = options_.max_area > 0 && area > options_.max_area;
    if (angle < options_.min_angle) {
      if (!too_large && unfixable(t)) return;
      bad_.push(Bad{false, angle, t, T.v});
    } else if (too_large) {
      bad_.push(Bad{true, -area, t, T.v});
    }
  }

  // The input corner at vertex w that holds triangle t: the angle between the constrained edges
  // reached by turning around w from t both ways (360 when w has none).
  double corner_at(std::uint32_t t, std::uint32_t w) const {
    double total = 0;
    for (int dir = 0; dir < 2; ++dir) {
      std::uint32_t cur = t;
      for (std::size_t guard = 0; guard < m_.triangles.size(); ++guard) {
        const Triangle& T = m_.triangles[cur];
        int k = 0;
        while (T.v[static_cast<std::size_t>(k)] != w) ++k;
        const std::uint32_t p = T.v[static_cast<std::size_t>((k + 1) % 3)], q = T.v[static_cast<std::size_t>((k + 2) % 3)];
        if (dir == 0 || cur != t) total += angle_at(P(w), P(p), P(q));
        // Counter-clockwise: across w–q (opposite p); clockwise: across w–p (opposite q).
        const int e = dir == 0 ? (k + 1) % 3 : (k + 2) % 3;
        if (T.flags[static_cast<std::size_t>(e)] & kConstrained) break;
        cur = T.n[static_cast<std::size_t>(e)];
        if (cur == t || cur == kNone) return 360;
      }
    }
    return total;
  }

  bool unfixable(std::uint32_t t) const {
    const Triangle& T = m_.triangles[t];
    // The vertex with the smallest angle and the shortest edge (opposite it).
    int k = 0;
    double best = 1e300;
    for (int i = 0; i < 3; ++i) {
      const double a = angle_at(P(T.v[static_cast<std::size_t>(i)]), P(T.v[static_cast<std::size_t>((i + 1) % 3)]),
                                P(T.v[static_cast<std::size_t>((i + 2) % 3)]));
      if (a < best) best = a, k = i;
    }
    const std::uint32_t w = T.v[static_cast<std::size_t>(k)];
    if (is_input(w) && corner_at(t, w) < kSharpCorner) return true;
    const std::uint32_t p = T.v[static_cast<std::size_t>((k + 1) % 3)], q = T.v[static_cast<std::size_t>((k + 2) % 3)];
    const std::uint32_t sp = segment_of_[p], sq = segment_of_[q];
    if (sp == kNone || sq == kNone || sp == sq) return false;
    const Constraint& cp = constraints_[sp];
    const Constraint& cq = constraints_[sq];
    std::uint32_t apex = kNone;
    for (std::uint32_t x : {cp.a, cp.b})
      if (x == cq.a || x == cq.b) apex = x;
    if (apex == kNone) return false;
    const Vec2d o = P(apex + kFirst);
    const double dp = length(P(p) - o), dq = length(P(q) - o);
    if (dp > 1.001 * dq || dp < 0.999 * dq) return false;
    return angle_at(o, P(p), P(q)) < kShellCorner;
  }

  void touch(std::uint32_t v) {
    for (std::uint32_t t : m_.ring(v)) {
      consider(t);
      for (int i = 0; i < 3; ++i) check_segment(t, i);
    }
  }

  // Where a segment is split: its midpoint when both ends are input points (or neither is),
  // otherwise a concentric shell around the input end, a power of two near half the length away.
  Vec2d split_point(std::uint32_t a, std::uint32_t b) const {
    const Vec2d A = P(a), B = P(b);
    double s = 0.5;
    const bool input_a = is_input(a), input_b = is_input(b);
    if (input_a != input_b) {
      const double len = length(B - A);
      const double shell = std::exp2(std::round(std::log2(len / 2)));
      s = input_a ? shell / len : 1 - shell / len;
    }
    return A + (B - A) * s;
  }

  bool splittable(std::uint32_t a, std::uint32_t b) const {
    const Vec2d p = split_point(a, b);
    return p != P(a) && p != P(b);
  }

  void split_segment(EdgeRef e) {
    const Triangle& T = m_.triangles[e.tri];
    const std::uint32_t a = T.v[static_cast<std::size_t>((e.index + 1) % 3)], b = T.v[static_cast<std::size_t>((e.index + 2) % 3)];
    const std::uint32_t id = m_.constraint_of(a, b);
    const Vec2d A = P(a), B = P(b);
    const Vec2d p = split_point(a, b);
    if (p == A || p == B) return;  // too short to split in doubles
    const std::uint32_t v = m_.insert(p, {e.tri, e.index, kNone});
    segment_of_.resize(m_.points.size(), kNone);
    segment_of_[v] = id;
    touch(v);
  }

  void split_triangle(std::uint32_t t, bool area_only) {
    const Triangle& T = m_.triangles[t];
    const Vec2d a = P(T.v[0]), b = P(T.v[1]), c = P(T.v[2]);
    const Vec2d ab = b - a, ac = c - a;
    const double d = 2 * cross(ab, ac);
    if (!(d > 0)) return;
    const double ab2 = dot(ab, ab), ac2 = dot(ac, ac);
    const Vec2d centre = a + Vec2d{(ac.y * ab2 - ab.y * ac2) / d, (ab.x * ac2 - ac.x * ab2) / d};
    if (!std::isfinite(centre.x) || !std::isfinite(centre.y)) return;
    // The cavity: triangles whose circumcircle holds the centre, reached without crossing a segment.
    std::vector<std::uint32_t> cavity = {t};
    std::vector<std::array<std::uint32_t, 2>> encroached;
    std::vector<std::uint8_t>& mark = scratch_;
    mark.resize(m_.triangles.size(), 0);
    mark[t] = 1;
    for (std::size_t k = 0; k < cavity.size(); ++k) {
      const Triangle& C = m_.triangles[cavity[k]];
      for (int i = 0; i < 3; ++i) {
        const auto I = static_cast<std::size_t>(i);
        if (C.flags[I] & kConstrained) {
          const std::uint32_t x = C.v[static_cast<std::size_t>((i + 1) % 3)], y = C.v[static_cast<std::size_t>((i + 2) % 3)];
          if (dot(P(x) - centre, P(y) - centre) < 0) encroached.push_back({x, y});
          continue;
        }
        const std::uint32_t u = C.n[I];
        if (u == kNone || mark[u]) continue;
        const Triangle& U = m_.triangles[u];
        if (in_circle(P(U.v[0]), P(U.v[1]), P(U.v[2]), centre) > 0) {
          mark[u] = 1;
          cavity.push_back(u);
        }
      }
    }
    for (std::uint32_t u : cavity) mark[u] = 0;
    if (!encroached.empty()) {
      // Split the segments first; the triangle comes back if it is still bad afterwards. Segments too
      // short to split in doubles leave the triangle as it is.
      bool any = false;
      for (const auto& s : encroached)
        if (splittable(s[0], s[1])) {
          encroached_.push_front({s[0], s[1], 1});
          any = true;
        }
      if (!any) return;
      const Triangle& again = m_.triangles[t];
      const double angle = smallest_angle(P(again.v[0]), P(again.v[1]), P(again.v[2]));
      bad_.push(Bad{area_only, area_only ? -orient2d(P(again.v[0]), P(again.v[1]), P(again.v[2])) / 2 : angle, t, again.v});
      return;
    }
    for (std::uint32_t u : cavity) {
      const Triangle& U = m_.triangles[u];
      int zeros = 0, zero_edge = -1;
      bool outside = false;
      for (int i = 0; i < 3 && !outside; ++i) {
        const double o = orient2d(P(U.v[static_cast<std::size_t>((i + 1) % 3)]), P(U.v[static_cast<std::size_t>((i + 2) % 3)]), centre);
        if (o < 0) outside = true;
        if (o == 0) ++zeros, zero_edge = i;
      }
      if (outside || zeros >= 2) continue;
      const std::uint32_t v = m_.insert(centre, {u, zeros == 1 ? zero_edge : -1, kNone});
      segment_of_.resize(m_.points.size(), kNone);
      touch(v);
      return;
    }
    // The centre is hidden from the triangle (rounding next to a segment): leave the triangle.
  }

  TriangleMesh& m_;
  const std::vector<Constraint>& constraints_;
  const RefineOptions& options_;
  std::size_t inputs_;
  std::size_t limit_;
  std::vector<std::uint32_t> segment_of_;  // the constraint a refinement point was put on
  // Segments to split: (a, b, forced); forced when a rejected circumcentre encroached on it, else
  // split only if a vertex still encroaches on it.
  std::deque<std::array<std::uint32_t, 3>> encroached_;
  std::priority_queue<Bad> bad_;
  std::vector<std::uint8_t> scratch_;
};

}  // namespace

Expected<ConstrainedTriangulation> triangulate_domain(const PlanarDomain& domain, const RefineOptions& options) {
  const std::vector<Vec2d>& pts = domain.points;
  const std::size_t n = pts.size();
  if (n > (1u << 24)) return fail("too many points (" + std::to_string(n) + ")");
  if (!(options.min_angle >= 0 && options.min_angle <= 30))
    return fail("min_angle " + number(options.min_angle) + " is outside 0 to 30 degrees");
  if (!(options.max_area >= 0) || !std::isfinite(options.max_area))
    return fail("max_area " + number(options.max_area) + " is negative or not finite");
  if (options.max_points < 0) return fail("max_points " + std::to_string(options.max_points) + " is negative");
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(pts[i].x) || !std::isfinite(pts[i].y))
      return fail(point_text(pts, static_cast<std::uint32_t>(i)) + " is not finite");
  {
    std::vector<std::uint32_t> order(n);
    for (std::uint32_t i = 0; i < n; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      if (pts[a].x != pts[b].x) return pts[a].x < pts[b].x;
      if (pts[a].y != pts[b].y) return pts[a].y < pts[b].y;
      return a < b;
    });
    for (std::size_t i = 1; i < n; ++i)
      if (pts[order[i - 1]] == pts[order[i]])
        return fail("points " + index_text(pts, order[i - 1]) + " and " + index_text(pts, order[i]) + " are at the same place");
  }
  if (domain.loops.empty()) return fail("the domain is empty: it has no loops");

  std::vector<Constraint> constraints;
  for (std::size_t l = 0; l < domain.loops.size(); ++l) {
    const auto& loop = domain.loops[l];
    const std::string name = "loop " + std::to_string(l);
    if (loop.size() < 3) return fail(name + " has " + std::to_string(loop.size()) + " points; a loop needs at least 3");
    std::vector<std::uint32_t> sorted = loop;
    for (std::uint32_t v : loop)
      if (v >= n) return fail(name + " refers to point " + std::to_string(v) + ", but there are " + std::to_string(n) + " points");
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t k = 1; k < sorted.size(); ++k)
      if (sorted[k] == sorted[k - 1]) return fail(name + " visits point " + std::to_string(sorted[k]) + " twice");
    for (std::size_t k = 0; k < loop.size(); ++k)
      constraints.push_back({loop[k], loop[(k + 1) % loop.size()], static_cast<int>(l), k});
  }
  for (std::size_t k = 0; k < domain.edges.size(); ++k) {
    const auto [a, b] = domain.edges[k];
    const std::string name = "edge " + std::to_string(k);
    if (a >= n || b >= n)
      return fail(name + " refers to point " + std::to_string(std::max(a, b)) + ", but there are " + std::to_string(n) + " points");
    if (a == b) return fail(name + " joins point " + std::to_string(a) + " to itself");
    constraints.push_back({a, b, -1, k});
  }

  Vec2d lo = pts.empty() ? Vec2d{} : pts[0], hi = lo;
  for (const Vec2d& p : pts) lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)}, hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
  TriangleMesh mesh(lo, hi);
  std::uint32_t last = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const TriangleMesh::Location where = mesh.locate(pts[i], last);
    if (where.tri == kNone || where.vertex != kNone) return fail(point_text(pts, static_cast<std::uint32_t>(i)) + " could not be inserted");
    mesh.insert(pts[i], where);
    last = mesh.vertex_triangle.back();
  }
  for (std::uint32_t id = 0; id < constraints.size(); ++id) {
    const Constraint& c = constraints[id];
    try {
      mesh.insert_constraint(c.a + kFirst, c.b + kFirst, id, c.loop >= 0);
    } catch (const CrossingError& e) {
      if (e.second == kNone) return fail(constraint_text(c) + " crosses or overlaps another constraint");
      return fail(constraint_text(c) + " crosses " + constraint_text(constraints[e.second]));
    }
  }
  mesh.classify();

  // Every input point must end up in the domain, every interior edge inside it.
  std::vector<std::uint8_t> used(mesh.points.size(), 0);
  bool any = false;
  for (const Triangle& t : mesh.triangles)
    if (t.inside) {
      any = true;
      for (std::uint32_t v : t.v) used[v] = 1;
    }
  if (!any) return fail("the domain is empty: its loops enclose no area");
  for (std::uint32_t i = 0; i < n; ++i)
    if (!used[i + kFirst]) return fail(point_text(pts, i) + " lies outside the domain");
  for (std::uint32_t id = 0; id < constraints.size(); ++id) {
    const Constraint& c = constraints[id];
    if (c.loop >= 0) continue;
    // Check the first piece of the edge (it may have been split at points on it).
    bool inside = false;
    for (std::uint32_t t : mesh.ring(c.a + kFirst)) {
      const Triangle& T = mesh.triangles[t];
      for (int i = 0; i < 3; ++i)
        if ((T.flags[static_cast<std::size_t>(i)] & kConstrained) && T.inside &&
            mesh.constraint_of(T.v[static_cast<std::size_t>((i + 1) % 3)], T.v[static_cast<std::size_t>((i + 2) % 3)]) == id)
          inside = true;
    }
    if (!inside) return fail(constraint_text(c) + " lies outside the domain");
  }

  if (options.refine) {
    const std::size_t limit = options.max_points > 0 ? static_cast<std::size_t>(options.max_points) : kDefaultPointLimit;
    Refiner refiner(mesh, constraints, options, n, std::max(limit, n));
    refiner.run();
  }

  ConstrainedTriangulation out;
  out.points.assign(mesh.points.begin() + kFirst, mesh.points.end());
  for (const Triangle& t : mesh.triangles) {
    if (!t.inside) continue;
    std::array<std::uint32_t, 3> v = {t.v[0] - kFirst, t.v[1] - kFirst, t.v[2] - kFirst};
    std::rotate(v.begin(), std::min_element(v.begin(), v.end()), v.end());
    out.triangles.push_back(v);
  }
  std::sort(out.triangles.begin(), out.triangles.end());
  // Constrained edges grouped by the constraint they came from, in input order, each oriented and
  // ordered from the constraint's first point to its second.
  std::vector<std::vector<std::array<std::uint32_t, 2>>> pieces(constraints.size());
  for (std::uint32_t ti = 0; ti < mesh.triangles.size(); ++ti) {
    const Triangle& t = mesh.triangles[ti];
    for (int i = 0; i < 3; ++i) {
      const auto I = static_cast<std::size_t>(i);
      if (!(t.flags[I] & kConstrained)) continue;
      const std::uint32_t a = t.v[static_cast<std::size_t>((i + 1) % 3)], b = t.v[static_cast<std::size_t>((i + 2) % 3)];
      const std::uint32_t u = t.n[I];
      // Each edge once: from the inside triangle, or from the lower-numbered one when both are.
      const bool other_inside = u != kNone && mesh.triangles[u].inside;
      if (!t.inside || (other_inside && u < ti)) continue;
      const std::uint32_t id = mesh.constraint_of(a, b);
      if (id == kNone) continue;
      pieces[id].push_back({a, b});
    }
  }
  for (std::uint32_t id = 0; id < constraints.size(); ++id) {
    const Vec2d A = mesh.points[constraints[id].a + kFirst], B = mesh.points[constraints[id].b + kFirst];
    auto& list = pieces[id];
    for (auto& e : list)
      if (dot(mesh.points[e[1]] - mesh.points[e[0]], B - A) < 0) std::swap(e[0], e[1]);
    std::sort(list.begin(), list.end(), [&](const auto& x, const auto& y) {
      return dot(mesh.points[x[0]] - A, B - A) < dot(mesh.points[y[0]] - A, B - A);
    });
    for (const auto& e : list) out.constrained.push_back({e[0] - kFirst, e[1] - kFirst});
  }
  return out;
}

AngleHistogram min_angle_histogram(std::span<const Vec2d> points, std::span<const std::array<std::uint32_t, 3>> triangles,
                                   double bin_degrees) {
  AngleHistogram h;
  h.bin_degrees = std::isfinite(bin_degrees) ? std::clamp(bin_degrees, 0.01, 60.0) : 5;
  const auto bins = static_cast<std::size_t>(std::floor(60 / h.bin_degrees)) + 1;
  h.counts.assign(bins, 0);
  h.smallest = triangles.empty() ? 0 : 60;
  for (const auto& t : triangles) {
    // Rounded to 1e-9° first, so an equilateral triangle's 59.99999999999999° counts as 60°.
    const double angle = std::round(smallest_angle(points[t[0]], points[t[1]], points[t[2]]) * 1e9) / 1e9;
    h.smallest = std::min(h.smallest, angle);
    const auto bin = std::min(bins - 1, static_cast<std::size_t>(std::max(0.0, std::floor(angle / h.bin_degrees))));
    ++h.counts[bin];
  }
  return h;
}

}  // namespace mf::offline
