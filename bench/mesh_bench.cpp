// The constrained triangulator on two outlines, against ear clipping of the same loops: time, and
// the mesh's quality as counters (triangles, points, the smallest angle, the smallest-angle histogram
// in 10° bins: h00 counts triangles whose smallest angle is below 10°, h10 those in [10°, 20°), …).
//   star_hole: a 9-armed star (radii 10 and 6, tips of 50°) with a heptagonal hole, 25 points.
//   letter_a:  a letter "A" outline with its triangular counter (hole), 11 points.
//   star_grid: the star with interior points on a grid of spacing 1 (as the auto mesh places them).

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "mf/offline/mesh/triangulator.hpp"

namespace {

using namespace mf;
using namespace mf::offline;

constexpr double kPi = 3.14159265358979323846;

PlanarDomain star_hole() {
  PlanarDomain d;
  std::vector<std::uint32_t> outline, hole;
  for (int i = 0; i < 18; ++i) {
    const double r = i % 2 == 0 ? 10 : 6, t = kPi * i / 9;
    outline.push_back(static_cast<std::uint32_t>(d.points.size()));
    d.points.push_back({r * std::cos(t), r * std::sin(t)});
  }
  for (int i = 0; i < 7; ++i) {
    const double t = 2 * kPi * i / 7 + 0.2;
    hole.push_back(static_cast<std::uint32_t>(d.points.size()));
    d.points.push_back({2 * std::cos(t), 2 * std::sin(t)});
  }
  d.loops = {outline, hole};
  return d;
}

PlanarDomain letter_a() {
  PlanarDomain d;
  d.points = {{0, 0}, {2, 0}, {2.7, 2}, {5.3, 2}, {6, 0}, {8, 0}, {5, 10}, {3, 10}, {3.2, 3.5}, {4.8, 3.5}, {4, 6.5}};
  d.loops = {{0, 1, 2, 3, 4, 5, 6, 7}, {8, 10, 9}};
  return d;
}

// The star with a grid of interior points at least 0.5 from the outline and the hole.
PlanarDomain star_grid() {
  PlanarDomain d = star_hole();
  const PlanarDomain outline = star_hole();
  auto inside = [&](Vec2d q) {
    bool in = false;
    for (const auto& loop : outline.loops)
      for (std::size_t i = 0, j = loop.size() - 1; i < loop.size(); j = i++) {
        const Vec2d a = outline.points[loop[i]], b = outline.points[loop[j]];
        if ((a.y > q.y) != (b.y > q.y) && q.x < (b.x - a.x) * (q.y - a.y) / (b.y - a.y) + a.x) in = !in;
      }
    return in;
  };
  auto clear = [&](Vec2d q) {
    for (const auto& loop : outline.loops)
      for (std::size_t i = 0, j = loop.size() - 1; i < loop.size(); j = i++) {
        const Vec2d a = outline.points[loop[i]], b = outline.points[loop[j]];
        const double s = std::clamp(dot(q - a, b - a) / dot(b - a, b - a), 0.0, 1.0);
        if (length(q - (a + (b - a) * s)) < 0.5) return false;
      }
    return true;
  };
  for (int y = -10; y <= 10; ++y)
    for (int x = -10; x <= 10; ++x)
      if (inside({double(x), double(y)}) && clear({double(x), double(y)})) d.points.push_back({double(x), double(y)});
  return d;
}

void report(benchmark::State& state, std::span<const Vec2d> points, std::span<const std::array<std::uint32_t, 3>> triangles) {
  const AngleHistogram h = min_angle_histogram(points, triangles, 10);
  state.counters["triangles"] = double(triangles.size());
  state.counters["points"] = double(points.size());
  state.counters["min_angle"] = h.smallest;
  for (std::size_t i = 0; i < h.counts.size(); ++i) {
    const std::string name = "h" + std::string(i == 0 ? "0" : "") + std::to_string(i * 10);
    state.counters[name] = h.counts[i];
  }
}

void BM_Refined(benchmark::State& state, PlanarDomain (*shape)(), double min_angle) {
  const PlanarDomain d = shape();
  RefineOptions o;
  o.min_angle = min_angle;
  Expected<ConstrainedTriangulation> t = triangulate_domain(d, o);
  for (auto _ : state) {
    t = triangulate_domain(d, o);
    benchmark::DoNotOptimize(t);
  }
  if (!t) return state.SkipWithError(t.error().message.c_str());
  report(state, t->points, t->triangles);
}

void BM_Unrefined(benchmark::State& state, PlanarDomain (*shape)()) {
  const PlanarDomain d = shape();
  RefineOptions o;
  o.refine = false;
  Expected<ConstrainedTriangulation> t = triangulate_domain(d, o);
  for (auto _ : state) {
    t = triangulate_domain(d, o);
    benchmark::DoNotOptimize(t);
  }
  if (!t) return state.SkipWithError(t.error().message.c_str());
  report(state, t->points, t->triangles);
}

void BM_EarClip(benchmark::State& state, PlanarDomain (*shape)()) {
  const PlanarDomain d = shape();
  Expected<std::vector<std::array<std::uint32_t, 3>>> t = ear_clip_domain(d);
  for (auto _ : state) {
    t = ear_clip_domain(d);
    benchmark::DoNotOptimize(t);
  }
  if (!t) return state.SkipWithError(t.error().message.c_str());
  report(state, d.points, *t);
}

BENCHMARK_CAPTURE(BM_EarClip, star_hole, star_hole);
BENCHMARK_CAPTURE(BM_Unrefined, star_hole, star_hole);
BENCHMARK_CAPTURE(BM_Refined, star_hole_20, star_hole, 20.0);
BENCHMARK_CAPTURE(BM_Refined, star_hole_30, star_hole, 30.0);
BENCHMARK_CAPTURE(BM_EarClip, letter_a, letter_a);
BENCHMARK_CAPTURE(BM_Unrefined, letter_a, letter_a);
BENCHMARK_CAPTURE(BM_Refined, letter_a_20, letter_a, 20.0);
BENCHMARK_CAPTURE(BM_Refined, letter_a_30, letter_a, 30.0);
BENCHMARK_CAPTURE(BM_Unrefined, star_grid, star_grid);
BENCHMARK_CAPTURE(BM_Refined, star_grid_20, star_grid, 20.0);

}  // namespace

BENCHMARK_MAIN();
