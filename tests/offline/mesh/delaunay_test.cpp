// The blend spaces' Delaunay triangulation on the shared core, with the exact predicates as the
// judge: larger random sets, grids (cocircular everywhere) moved far from the origin, points a few
// ulps off a grid, and hulls with collinear points. (The basic cases and errors are in
// tests/offline/graph/graph_compiler_test.cpp, next to the compiler that uses it.)

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <set>

#include "mf/offline/mesh/delaunay.hpp"

namespace mf::offline {
namespace {

// Every triangle counter-clockwise, no edge with the opposite point strictly inside (exact test),
// every point used, the hull a closed counter-clockwise chain with no point outside it and the
// triangles' areas summing to its area.
void expect_exact_delaunay(const std::vector<Vec2d>& p, const Triangulation& t) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> apex;  // directed edge -> opposite point
  std::set<std::uint32_t> used;
  double area = 0;
  for (const auto& tri : t.triangles) {
    ASSERT_GT(orient2d(p[tri[0]], p[tri[1]], p[tri[2]]), 0);
    area += orient2d(p[tri[0]], p[tri[1]], p[tri[2]]) / 2;
    for (int k = 0; k < 3; ++k) {
      const auto K = static_cast<std::size_t>(k);
      apex[{tri[K], tri[(K + 1) % 3]}] = tri[(K + 2) % 3];
    }
    used.insert(tri.begin(), tri.end());
  }
  for (const auto& [edge, c] : apex) {
    const auto twin = apex.find({edge.second, edge.first});
    if (twin == apex.end()) continue;
    EXPECT_LE(in_circle(p[edge.first], p[edge.second], p[c], p[twin->second]), 0)
        << "edge " << edge.first << "-" << edge.second << " is not locally Delaunay";
  }
  EXPECT_EQ(used.size(), p.size());
  double hull_area = 0;
  for (std::size_t i = 0; i < t.hull.size(); ++i) {
    const auto& e = t.hull[i];
    EXPECT_EQ(e[1], t.hull[(i + 1) % t.hull.size()][0]);
    EXPECT_TRUE(apex.count({e[0], e[1]})) << "hull edge " << e[0] << "-" << e[1] << " is no triangle edge";
    hull_area += cross(p[e[0]], p[e[1]]) / 2;
    for (std::size_t q = 0; q < p.size(); ++q) EXPECT_GE(orient2d(p[e[0]], p[e[1]], p[q]), 0);
  }
  EXPECT_NEAR(area, hull_area, 1e-9 * hull_area);
}

TEST(DelaunayCore, LargeRandomSet) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-100, 100);
  std::vector<Vec2d> p;
  for (int i = 0; i < 2000; ++i) p.push_back({u(rng), u(rng)});
  Expected<Triangulation> t = delaunay_triangulate(p);
  ASSERT_TRUE(t.ok()) << t.error().message;
  expect_exact_delaunay(p, *t);
}

TEST(DelaunayCore, GridsFarFromTheOriginAndNearlyOnAGrid) {
  // A 12 × 12 grid at 1e6 (every square cocircular, every row collinear), and the same grid with
  // each point moved by up to 3 ulps, where the plain double in-circle test is unreliable.
  std::vector<Vec2d> grid, nudged;
  std::mt19937 rng(9);
  std::uniform_int_distribution<int> ulps(-3, 3);
  for (int y = 0; y < 12; ++y)
    for (int x = 0; x < 12; ++x) {
      const Vec2d q{1e6 + x * 0.25, 1e6 + y * 0.25};
      grid.push_back(q);
      Vec2d m = q;
      for (int k = ulps(rng); k != 0; k += k > 0 ? -1 : 1) m.x = std::nextafter(m.x, k > 0 ? INFINITY : -INFINITY);
      for (int k = ulps(rng); k != 0; k += k > 0 ? -1 : 1) m.y = std::nextafter(m.y, k > 0 ? INFINITY : -INFINITY);
      nudged.push_back(m);
    }
  for (const auto* set : {&grid, &nudged}) {
    Expected<Triangulation> t = delaunay_triangulate(*set);
    ASSERT_TRUE(t.ok()) << t.error().message;
    expect_exact_delaunay(*set, *t);
  }
  Expected<Triangulation> g = delaunay_triangulate(grid);
  EXPECT_EQ(g->triangles.size(), 2u * 11 * 11);
  EXPECT_EQ(g->hull.size(), 44u);  // every boundary point of the grid is a hull vertex
  EXPECT_EQ(g->hull.front()[0], 0u);
}

}  // namespace
}  // namespace mf::offline
