// Douglas–Peucker with a one-sided tolerance, then a repair loop that puts traced points back where
// the simplified loops cross each other or leave a point that must stay inside outside.

#include "mf/offline/mesh/outline_simplify.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "mf/offline/mesh/segment_distance.hpp"

namespace mf::offline {
namespace {

// Points that exceed a tolerance by less than this are within it (rounding in the distances).
constexpr double kSlack = 1e-9;

// How far `p` lies beyond what the edge a→b may pass it by: the region is on the edge's right on
// screen (cross > 0 in pixel coordinates), so a point on that side has the edge outside it.
double excess(Vec2d p, Vec2d a, Vec2d b, OutlineTolerance tolerance) {
  const bool region_side = cross(b - a, p - a) > 0;
  const bool on_border = (tolerance.frame.x > 0 || tolerance.frame.y > 0) &&
                         (p.x == 0 || p.y == 0 || p.x == tolerance.frame.x || p.y == tolerance.frame.y);
  return segment_distance(p, a, b) - (region_side ? tolerance.outward : on_border ? 0.0 : tolerance.inward);
}

// The traced points strictly between kept points `from` and `to` of a loop of n points (to may wrap).
template <class F>
void for_between(std::size_t from, std::size_t to, std::size_t n, F&& f) {
  for (std::size_t k = (from + 1) % n; k != to; k = (k + 1) % n) f(k);
}

double orient(Vec2d a, Vec2d b, Vec2d c) { return cross(b - a, c - a); }

bool on_segment(Vec2d a, Vec2d b, Vec2d p) {
  return orient(a, b, p) == 0 && std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) &&
         std::min(a.y, b.y) <= p.y && p.y <= std::max(a.y, b.y);
}

bool segments_meet(Vec2d a, Vec2d b, Vec2d c, Vec2d d) {
  const double o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
  return on_segment(a, b, c) || on_segment(a, b, d) || on_segment(c, d, a) || on_segment(c, d, b);
}

struct EdgeRef {
  std::size_t loop = 0, index = 0;  // the edge from kept[loop][index] to the next kept point
  Vec2d a, b;
};

class Repair {
 public:
  Repair(const std::vector<std::vector<Vec2d>>& loops, std::vector<std::vector<std::size_t>> kept,
         std::span<const Vec2d> keep_inside)
      : loops_(loops), kept_(std::move(kept)), points_(keep_inside.begin(), keep_inside.end()) {
    std::sort(points_.begin(), points_.end(), [](Vec2d p, Vec2d q) { return p.y < q.y || (p.y == q.y && p.x < q.x); });
  }

  std::vector<std::vector<Vec2d>> run() {
    while (true) {
      collect_edges();
      std::vector<std::uint8_t> flagged(edges_.size(), 0);
      flag_crossings(flagged);
      flag_uncovered(flagged);
      if (std::find(flagged.begin(), flagged.end(), 1) == flagged.end()) break;
      if (!restore(flagged)) {
        // Nothing flagged could take a point back: give every edge its farthest point back.
        std::fill(flagged.begin(), flagged.end(), 1);
        if (!restore(flagged)) break;  // every traced point is back: the traced loops are valid
      }
    }
    std::vector<std::vector<Vec2d>> out(kept_.size());
    for (std::size_t l = 0; l < kept_.size(); ++l)
      for (std::size_t k : kept_[l]) out[l].push_back(loops_[l][k]);
    return out;
  }

 private:
  void collect_edges() {
    edges_.clear();
    for (std::size_t l = 0; l < kept_.size(); ++l) {
      const std::vector<std::size_t>& kept = kept_[l];
      for (std::size_t i = 0; i < kept.size(); ++i)
        edges_.push_back({l, i, loops_[l][kept[i]], loops_[l][kept[(i + 1) % kept.size()]]});
    }
  }

  bool adjacent(const EdgeRef& e, const EdgeRef& f) const {
    if (e.loop != f.loop) return false;
    const std::size_t n = kept_[e.loop].size();
    return (e.index + 1) % n == f.index || (f.index + 1) % n == e.index;
  }

  void flag_crossings(std::vector<std::uint8_t>& flagged) const {
    std::vector<std::size_t> order(edges_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    const auto min_x = [&](std::size_t i) { return std::min(edges_[i].a.x, edges_[i].b.x); };
    std::sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return min_x(i) < min_x(j); });
    for (std::size_t oi = 0; oi < order.size(); ++oi) {
      const EdgeRef& e = edges_[order[oi]];
      const double max_x = std::max(e.a.x, e.b.x);
      for (std::size_t oj = oi + 1; oj < order.size() && min_x(order[oj]) <= max_x; ++oj) {
        const EdgeRef& f = edges_[order[oj]];
        bool bad = false;
        if (adjacent(e, f)) {
          // Neighbours share a point; they are bad only when one folds back onto the other.
          const bool e_first = (e.index + 1) % kept_[e.loop].size() == f.index;
          const EdgeRef& first = e_first ? e : f;
          const EdgeRef& second = e_first ? f : e;
          bad = kept_[e.loop].size() > 2 && (on_segment(first.a, first.b, second.b) || on_segment(second.a, second.b, first.a));
        } else {
          bad = segments_meet(e.a, e.b, f.a, f.b);
        }
        if (bad) flagged[order[oi]] = flagged[order[oj]] = 1;
      }
    }
  }

  // Points that must stay inside, tested a row at a time against the edges' crossings of that row.
  void flag_uncovered(std::vector<std::uint8_t>& flagged) const {
    std::vector<double> xs;
    for (std::size_t start = 0; start < points_.size();) {
      const double y = points_[start].y;
      std::size_t end = start;
      while (end < points_.size() && points_[end].y == y) ++end;
      xs.clear();
      for (const EdgeRef& e : edges_) {
        if ((e.a.y <= y && y < e.b.y) || (e.b.y <= y && y < e.a.y))
          xs.push_back(e.a.x + (y - e.a.y) * (e.b.x - e.a.x) / (e.b.y - e.a.y));
      }
      std::sort(xs.begin(), xs.end());
      for (std::size_t i = start; i < end; ++i) {
        const std::size_t left = static_cast<std::size_t>(std::lower_bound(xs.begin(), xs.end(), points_[i].x) - xs.begin());
        if (left % 2 == 1) continue;
        std::size_t nearest = 0;
        double best = INFINITY;
        for (std::size_t k = 0; k < edges_.size(); ++k) {
          const double d = segment_distance(points_[i], edges_[k].a, edges_[k].b);
          if (d < best) best = d, nearest = k;
        }
        flagged[nearest] = 1;
      }
      start = end;
    }
  }

  // Gives each flagged edge back its traced point farthest from it; false when none had one.
  bool restore(const std::vector<std::uint8_t>& flagged) {
    std::vector<std::pair<std::size_t, std::size_t>> inserts;  // loop, traced point
    for (std::size_t i = 0; i < edges_.size(); ++i) {
      if (!flagged[i]) continue;
      const EdgeRef& e = edges_[i];
      const std::vector<std::size_t>& kept = kept_[e.loop];
      const std::size_t n = loops_[e.loop].size();
      std::size_t farthest = n;
      double best = -1;
      for_between(kept[e.index], kept[(e.index + 1) % kept.size()], n, [&](std::size_t k) {
        const double d = segment_distance(loops_[e.loop][k], e.a, e.b);
        if (d > best) best = d, farthest = k;
      });
      if (farthest < n) inserts.emplace_back(e.loop, farthest);
    }
    for (const auto& [loop, point] : inserts) {
      std::vector<std::size_t>& kept = kept_[loop];
      kept.insert(std::lower_bound(kept.begin(), kept.end(), point), point);
    }
    return !inserts.empty();
  }

  const std::vector<std::vector<Vec2d>>& loops_;
  std::vector<std::vector<std::size_t>> kept_;  // per loop, sorted indices into the traced loop
  std::vector<Vec2d> points_;                   // sorted by row
  std::vector<EdgeRef> edges_;
};

}  // namespace

std::vector<std::size_t> simplify_loop(std::span<const Vec2d> loop, OutlineTolerance tolerance) {
  const std::size_t n = loop.size();
  std::vector<std::size_t> kept;
  if (n <= 3) {
    for (std::size_t i = 0; i < n; ++i) kept.push_back(i);
    return kept;
  }
  // Start from the point farthest from the loop's bounding-box centre, a point any simplification
  // keeps (a corner of a rectangle, say), and the point farthest from it.
  double x0 = loop[0].x, x1 = x0, y0 = loop[0].y, y1 = y0;
  for (Vec2d p : loop) x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
  const Vec2d centre{(x0 + x1) / 2, (y0 + y1) / 2};
  std::size_t start = 0;
  for (std::size_t k = 1; k < n; ++k)
    if (length(loop[k] - centre) > length(loop[start] - centre)) start = k;
  const auto at = [&](std::size_t k) { return loop[(start + k) % n]; };  // k counts from the start
  std::size_t far = 1;
  for (std::size_t k = 2; k < n; ++k)
    if (length(at(k) - at(0)) > length(at(far) - at(0))) far = k;
  std::vector<std::uint8_t> keep(n, 0);
  keep[0] = keep[far] = 1;
  // Chains as (first, last) kept points counted from the start; last == n is the start again.
  std::vector<std::pair<std::size_t, std::size_t>> chains{{0, far}, {far, n}};
  while (!chains.empty()) {
    const auto [first, last] = chains.back();
    chains.pop_back();
    const Vec2d a = at(first), b = at(last);
    std::size_t worst = n;
    double worst_excess = kSlack;
    for (std::size_t k = first + 1; k < last; ++k) {
      const double e = excess(at(k), a, b, tolerance);
      if (e > worst_excess) worst_excess = e, worst = k;
    }
    if (worst == n) continue;
    keep[worst] = 1;
    chains.emplace_back(first, worst);
    chains.emplace_back(worst, last);
  }
  if (std::count(keep.begin(), keep.end(), 1) < 3) {
    // Only the start and the farthest point: add the point farthest from the line between them.
    std::size_t third = n;
    double best = -1;
    for (std::size_t k = 1; k < n; ++k) {
      if (k == far) continue;
      const double d = std::fabs(cross(at(far) - at(0), at(k) - at(0)));
      if (d > best) best = d, third = k;
    }
    keep[third] = 1;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (keep[(i + n - start) % n]) kept.push_back(i);
  return kept;
}

std::vector<std::vector<Vec2d>> simplify_outline(const std::vector<std::vector<Vec2d>>& loops,
                                                 OutlineTolerance tolerance, std::span<const Vec2d> keep_inside) {
  std::vector<std::vector<std::size_t>> kept;
  for (const std::vector<Vec2d>& loop : loops) kept.push_back(simplify_loop(loop, tolerance));
  return Repair(loops, std::move(kept), keep_inside).run();
}

bool inside_loops(const std::vector<std::vector<Vec2d>>& loops, Vec2d p) {
  bool inside = false;
  for (const std::vector<Vec2d>& loop : loops)
    for (std::size_t i = 0; i < loop.size(); ++i) {
      const Vec2d a = loop[i], b = loop[(i + 1) % loop.size()];
      if ((a.y <= p.y && p.y < b.y) || (b.y <= p.y && p.y < a.y)) {
        const double x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
        if (x < p.x) inside = !inside;
      }
    }
  return inside;
}

}  // namespace mf::offline
