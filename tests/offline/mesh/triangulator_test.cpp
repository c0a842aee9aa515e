// The constrained triangulator: validity (counter-clockwise triangles inside the domain that tile
// it, constraints kept as unions of edges, input points unchanged), the constrained Delaunay property
// without refinement, the angle rule, area and budget with it, degenerate input, random shapes with
// holes, determinism and every error; ear clipping and the angle histogram.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>

#include "mf/offline/mesh/robust_predicates.hpp"
#include "mf/offline/mesh/triangulator.hpp"

namespace mf::offline {
namespace {

using Tri = std::array<std::uint32_t, 3>;
constexpr double kPi = 3.14159265358979323846;

// Even-odd containment against the domain's loops.
bool inside_domain(const PlanarDomain& d, Vec2d q) {
  bool in = false;
  for (const auto& loop : d.loops)
    for (std::size_t i = 0, j = loop.size() - 1; i < loop.size(); j = i++) {
      const Vec2d a = d.points[loop[i]], b = d.points[loop[j]];
      if ((a.y > q.y) != (b.y > q.y) && q.x < (b.x - a.x) * (q.y - a.y) / (b.y - a.y) + a.x) in = !in;
    }
  return in;
}

// The domain's area: loops alternate between adding and removing area by nesting depth.
double domain_area(const PlanarDomain& d) {
  double total = 0;
  for (std::size_t l = 0; l < d.loops.size(); ++l) {
    double a = 0;
    const auto& loop = d.loops[l];
    for (std::size_t i = 0; i < loop.size(); ++i) a += cross(d.points[loop[i]], d.points[loop[(i + 1) % loop.size()]]) / 2;
    int depth = 0;
    for (std::size_t o = 0; o < d.loops.size(); ++o) {
      if (o == l) continue;
      PlanarDomain one{d.points, {d.loops[o]}, {}};
      depth += inside_domain(one, d.points[loop[0]]);
    }
    total += (depth % 2 == 0 ? 1 : -1) * std::abs(a);
  }
  return total;
}

double smallest_angle(Vec2d a, Vec2d b, Vec2d c) {
  auto at = [](Vec2d o, Vec2d p, Vec2d q) {
    return std::atan2(std::abs(cross(p - o, q - o)), dot(p - o, q - o)) * 180 / kPi;
  };
  return std::min({at(a, b, c), at(b, c, a), at(c, a, b)});
}

std::vector<std::array<std::uint32_t, 2>> input_constraints(const PlanarDomain& d) {
  std::vector<std::array<std::uint32_t, 2>> out;
  for (const auto& loop : d.loops)
    for (std::size_t i = 0; i < loop.size(); ++i) out.push_back({loop[i], loop[(i + 1) % loop.size()]});
  for (const auto& e : d.edges) out.push_back(e);
  return out;
}

// Checks every property a result must have, whatever the options.
void expect_valid(const PlanarDomain& d, const ConstrainedTriangulation& t) {
  ASSERT_GE(t.points.size(), d.points.size());
  for (std::size_t i = 0; i < d.points.size(); ++i) ASSERT_EQ(t.points[i], d.points[i]) << "input point " << i << " moved";
  // Counter-clockwise, inside, no directed edge twice (no overlap), areas summing to the domain's.
  double area = 0;
  std::set<std::pair<std::uint32_t, std::uint32_t>> directed;
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> undirected;
  std::set<std::uint32_t> used;
  for (const Tri& tri : t.triangles) {
    const Vec2d a = t.points[tri[0]], b = t.points[tri[1]], c = t.points[tri[2]];
    ASSERT_GT(orient2d(a, b, c), 0) << "triangle " << tri[0] << " " << tri[1] << " " << tri[2] << " is not counter-clockwise";
    area += orient2d(a, b, c) / 2;
    EXPECT_TRUE(inside_domain(d, (a + b + c) / 3.0)) << "triangle " << tri[0] << " " << tri[1] << " " << tri[2] << " is outside";
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t u = tri[static_cast<std::size_t>(k)], v = tri[static_cast<std::size_t>((k + 1) % 3)];
      EXPECT_TRUE(directed.insert({u, v}).second) << "edge " << u << "-" << v << " twice";
      ++undirected[{std::min(u, v), std::max(u, v)}];
    }
    used.insert(tri.begin(), tri.end());
  }
  const double expected = domain_area(d);
  EXPECT_NEAR(area, expected, 1e-9 * std::abs(expected));
  for (std::size_t i = 0; i < t.points.size(); ++i) EXPECT_TRUE(used.count(static_cast<std::uint32_t>(i))) << "point " << i << " unused";
  // Every input constraint is a chain of triangle edges and of output constrained edges, along it.
  std::set<std::pair<std::uint32_t, std::uint32_t>> constrained;
  for (const auto& e : t.constrained) {
    constrained.insert({std::min(e[0], e[1]), std::max(e[0], e[1])});
    EXPECT_TRUE(undirected.count({std::min(e[0], e[1]), std::max(e[0], e[1])})) << "constrained edge " << e[0] << "-" << e[1] << " is no edge";
  }
  // The output's constrained edges chain along each input constraint from its first point to its
  // second (points refinement put on it are off it by rounding only).
  std::map<std::uint32_t, std::vector<std::uint32_t>> adjacent;
  for (const auto& [u, v] : constrained) adjacent[u].push_back(v), adjacent[v].push_back(u);
  for (const auto& [a, b] : input_constraints(d)) {
    const Vec2d A = t.points[a], B = t.points[b];
    const double len = length(B - A);
    const double tolerance = 1e-12 * len + 1e-15 * (length(A) + length(B));
    std::uint32_t cur = a;
    double reached = 0;
    for (int steps = 0; cur != b && steps < 100000; ++steps) {
      std::uint32_t step = cur;
      double best = INFINITY;
      for (std::uint32_t w : adjacent[cur]) {
        const Vec2d W = t.points[w];
        const double along = dot(W - A, B - A) / len;
        const double off = std::abs(cross(B - A, W - A)) / len;
        if (off <= tolerance && along > reached && along <= len * (1 + 1e-12) && along < best) best = along, step = w;
      }
      ASSERT_NE(step, cur) << "constraint " << a << "-" << b << " is broken after point " << cur;
      reached = best;
      cur = step;
    }
    ASSERT_EQ(cur, b);
  }
}

// No edge that is not constrained may be flipped: the opposite point is never strictly inside.
void expect_constrained_delaunay(const ConstrainedTriangulation& t) {
  std::set<std::pair<std::uint32_t, std::uint32_t>> constrained;
  for (const auto& e : t.constrained) constrained.insert({std::min(e[0], e[1]), std::max(e[0], e[1])});
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::pair<std::size_t, std::uint32_t>> first;  // edge -> (tri, apex)
  for (std::size_t i = 0; i < t.triangles.size(); ++i)
    for (int k = 0; k < 3; ++k) {
      const Tri& tri = t.triangles[i];
      const std::uint32_t u = tri[static_cast<std::size_t>(k)], v = tri[static_cast<std::size_t>((k + 1) % 3)], w = tri[static_cast<std::size_t>((k + 2) % 3)];
      const auto key = std::make_pair(std::min(u, v), std::max(u, v));
      const auto it = first.find(key);
      if (it == first.end()) {
        first[key] = {i, w};
        continue;
      }
      if (constrained.count(key)) continue;
      const Tri& other = t.triangles[it->second.first];
      EXPECT_LE(in_circle(t.points[tri[0]], t.points[tri[1]], t.points[tri[2]], t.points[it->second.second]), 0)
          << "edge " << u << "-" << v << " is not locally Delaunay";
      EXPECT_LE(in_circle(t.points[other[0]], t.points[other[1]], t.points[other[2]], t.points[w]), 0);
    }
}

// Input corners (angles between consecutive constraints around an input point) sharper than 40°.
std::set<std::uint32_t> sharp_corners(const PlanarDomain& d) {
  std::map<std::uint32_t, std::vector<double>> directions;
  for (const auto& [a, b] : input_constraints(d)) {
    const Vec2d v = d.points[b] - d.points[a];
    directions[a].push_back(std::atan2(v.y, v.x));
    directions[b].push_back(std::atan2(-v.y, -v.x));
  }
  std::set<std::uint32_t> sharp;
  for (auto& [p, dirs] : directions) {
    std::sort(dirs.begin(), dirs.end());
    for (std::size_t i = 0; i < dirs.size(); ++i) {
      const double gap = i + 1 < dirs.size() ? dirs[i + 1] - dirs[i] : dirs[0] + 2 * kPi - dirs[i];
      if (gap * 180 / kPi < 40) sharp.insert(p);
    }
  }
  return sharp;
}

// The angle rule: every triangle meets the minimum angle, except near an input corner sharper than
// 40° (triangles with a vertex there or within the corner's shells, closer to it than twice the
// triangle's longest edge).
void expect_angles(const PlanarDomain& d, const ConstrainedTriangulation& t, double min_angle) {
  const std::set<std::uint32_t> sharp = sharp_corners(d);
  for (const Tri& tri : t.triangles) {
    const Vec2d a = t.points[tri[0]], b = t.points[tri[1]], c = t.points[tri[2]];
    const double angle = smallest_angle(a, b, c);
    if (angle >= min_angle) continue;
    const double longest = std::max({length(b - a), length(c - b), length(a - c)});
    bool near_sharp = false;
    for (std::uint32_t s : sharp)
      for (const Vec2d& q : {a, b, c}) near_sharp = near_sharp || length(q - d.points[s]) <= 2 * longest;
    EXPECT_TRUE(near_sharp) << "triangle " << tri[0] << " " << tri[1] << " " << tri[2] << " has a " << angle << "° angle";
  }
}

PlanarDomain square_with_hole() {
  return {{{0, 0}, {10, 0}, {10, 10}, {0, 10}, {3, 3}, {3, 7}, {7, 7}, {7, 3}}, {{0, 1, 2, 3}, {4, 5, 6, 7}}, {}};
}

// A star with `arms` points, radii alternating between outer and a random inner radius.
std::vector<Vec2d> star(std::mt19937& rng, int arms, Vec2d centre, double outer) {
  std::uniform_real_distribution<double> inner(0.3, 0.8), wobble(0.85, 1.0);
  std::vector<Vec2d> p;
  for (int i = 0; i < 2 * arms; ++i) {
    const double r = (i % 2 == 0 ? outer * wobble(rng) : outer * inner(rng));
    const double t = kPi * i / arms;
    p.push_back(centre + Vec2d{r * std::cos(t), r * std::sin(t)});
  }
  return p;
}

PlanarDomain star_with_hole(std::uint32_t seed, int arms) {
  std::mt19937 rng(seed);
  PlanarDomain d;
  d.points = star(rng, arms, {0, 0}, 10);
  std::vector<std::uint32_t> outline(d.points.size());
  for (std::uint32_t i = 0; i < outline.size(); ++i) outline[i] = i;
  d.loops.push_back(outline);
  // The hole: a small regular polygon well inside the inner radius (0.3 · 0.85 · 10 > 2).
  std::vector<std::uint32_t> hole;
  for (int i = 0; i < 7; ++i) {
    hole.push_back(static_cast<std::uint32_t>(d.points.size()));
    d.points.push_back({1.6 * std::cos(2 * kPi * i / 7 + 0.3), 1.6 * std::sin(2 * kPi * i / 7 + 0.3)});
  }
  d.loops.push_back(hole);
  return d;
}

TEST(Triangulator, SquareWithHoleWithoutRefinement) {
  const PlanarDomain d = square_with_hole();
  RefineOptions plain;
  plain.refine = false;
  Expected<ConstrainedTriangulation> t = triangulate_domain(d, plain);
  ASSERT_TRUE(t.ok()) << t.error().message;
  expect_valid(d, *t);
  expect_constrained_delaunay(*t);
  EXPECT_EQ(t->points.size(), 8u);
  EXPECT_EQ(t->triangles.size(), 8u);  // n + 2·holes − 2
  EXPECT_EQ(t->constrained.size(), 8u);
  // Constrained edges follow the loops, in input order and orientation.
  EXPECT_EQ(t->constrained[0], (std::array<std::uint32_t, 2>{0, 1}));
  EXPECT_EQ(t->constrained[7], (std::array<std::uint32_t, 2>{7, 4}));
}

TEST(Triangulator, InteriorEdgesAndFreePointsStay) {
  PlanarDomain d = square_with_hole();
  // Free points, and an edge from the outline to the hole.
  d.points.push_back({1, 1});
  d.points.push_back({9, 1.5});
  d.points.push_back({8.5, 8.5});
  d.edges.push_back({1, 7});
  d.edges.push_back({9, 10});
  for (bool refine : {false, true}) {
    RefineOptions o;
    o.refine = refine;
    Expected<ConstrainedTriangulation> t = triangulate_domain(d, o);
    ASSERT_TRUE(t.ok()) << t.error().message;
    expect_valid(d, *t);
    if (!refine) expect_constrained_delaunay(*t);
    if (refine) expect_angles(d, *t, 20);
  }
}

TEST(Triangulator, EdgeThroughAPointIsSplitThere) {
  // The interior edge 4–5 passes exactly through the free point 6: it becomes 4–6 and 6–5.
  const PlanarDomain d{{{0, 0}, {4, 0}, {4, 4}, {0, 4}, {1, 1}, {3, 3}, {2, 2}}, {{0, 1, 2, 3}}, {{4, 5}}};
  RefineOptions plain;
  plain.refine = false;
  Expected<ConstrainedTriangulation> t = triangulate_domain(d, plain);
  ASSERT_TRUE(t.ok()) << t.error().message;
  expect_valid(d, *t);
  expect_constrained_delaunay(*t);
  const std::vector<std::array<std::uint32_t, 2>> tail(t->constrained.end() - 2, t->constrained.end());
  EXPECT_EQ(tail, (std::vector<std::array<std::uint32_t, 2>>{{4, 6}, {6, 5}}));
}

TEST(Triangulator, CocircularGridIsConstrainedDelaunayAndDeterministic) {
  // A square outline with a grid of interior points: every grid square's corners are cocircular.
  PlanarDomain d;
  for (int y = 0; y <= 12; ++y)
    for (int x = 0; x <= 12; ++x) d.points.push_back({x * 0.5, y * 0.5});
  auto id = [](int x, int y) { return static_cast<std::uint32_t>(y * 13 + x); };
  std::vector<std::uint32_t> loop;
  for (int x = 0; x < 12; ++x) loop.push_back(id(x, 0));
  for (int y = 0; y < 12; ++y) loop.push_back(id(12, y));
  for (int x = 12; x > 0; --x) loop.push_back(id(x, 12));
  for (int y = 12; y > 0; --y) loop.push_back(id(0, y));
  d.loops.push_back(loop);
  for (bool refine : {false, true}) {
    RefineOptions o;
    o.refine = refine;
    Expected<ConstrainedTriangulation> a = triangulate_domain(d, o);
    Expected<ConstrainedTriangulation> b = triangulate_domain(d, o);
    ASSERT_TRUE(a.ok()) << a.error().message;
    expect_valid(d, *a);
    EXPECT_EQ(a->triangles.size(), 2u * 144);
    if (!refine) expect_constrained_delaunay(*a);
    if (refine) expect_angles(d, *a, 20);
    EXPECT_EQ(a->points, b->points);
    EXPECT_EQ(a->triangles, b->triangles);
    EXPECT_EQ(a->constrained, b->constrained);
  }
}

TEST(Triangulator, ManyCollinearPointsOnAnEdge) {
  PlanarDomain d;
  std::vector<std::uint32_t> loop;
  for (int i = 0; i <= 60; ++i) {
    loop.push_back(static_cast<std::uint32_t>(d.points.size()));
    d.points.push_back({i / 6.0, 0});
  }
  loop.push_back(static_cast<std::uint32_t>(d.points.size()));
  d.points.push_back({5, 3});
  d.loops.push_back(loop);
  for (bool refine : {false, true}) {
    RefineOptions o;
    o.refine = refine;
    Expected<ConstrainedTriangulation> t = triangulate_domain(d, o);
    ASSERT_TRUE(t.ok()) << t.error().message;
    expect_valid(d, *t);
    if (!refine) {
      expect_constrained_delaunay(*t);
      EXPECT_EQ(t->triangles.size(), 60u);
    } else {
      expect_angles(d, *t, 20);
    }
  }
}

TEST(Triangulator, ThinAndNearlyCollinearPolygons) {
  // A sliver rectangle, and a polygon whose points sit a few ulps off one line (a plain double
  // orientation test cannot tell their sides).
  const PlanarDomain thin{{{0, 0}, {1000, 0}, {1000, 1e-6}, {0, 1e-6}}, {{0, 1, 2, 3}}, {}};
  PlanarDomain near;
  const double ulp = std::ldexp(1.0, -52);
  near.points = {{0.5, 0.5}, {12, 12}, {24, 24}, {24, 30}, {0, 30}};
  near.points.push_back({0.5 + 30 * ulp, 0.5 - 0 * ulp});
  near.points.push_back({18 - 0 * ulp, 18 + 4 * ulp * 16});
  near.loops = {{0, 5, 1, 6, 2, 3, 4}};
  for (const PlanarDomain* d : {&thin, static_cast<const PlanarDomain*>(&near)})
    for (bool refine : {false, true}) {
      RefineOptions o;
      o.refine = refine;
      o.max_points = 3000;
      Expected<ConstrainedTriangulation> t = triangulate_domain(*d, o);
      ASSERT_TRUE(t.ok()) << t.error().message;
      expect_valid(*d, *t);
      if (!refine) expect_constrained_delaunay(*t);
      EXPECT_LE(t->points.size(), 3000u);
    }
}

TEST(Triangulator, RandomStarsWithHolesMeetTheAngleRule) {
  for (std::uint32_t seed = 1; seed <= 12; ++seed) {
    const PlanarDomain d = star_with_hole(seed, 5 + static_cast<int>(seed % 5));
    Expected<ConstrainedTriangulation> plain = triangulate_domain(d, RefineOptions{false});
    ASSERT_TRUE(plain.ok()) << plain.error().message;
    expect_valid(d, *plain);
    expect_constrained_delaunay(*plain);
    for (double angle : {20.0, 28.0, 30.0}) {
      RefineOptions o;
      o.min_angle = angle;
      Expected<ConstrainedTriangulation> t = triangulate_domain(d, o);
      ASSERT_TRUE(t.ok()) << t.error().message;
      SCOPED_TRACE("seed " + std::to_string(seed) + ", " + std::to_string(angle) + "°");
      expect_valid(d, *t);
      expect_angles(d, *t, angle);
      Expected<ConstrainedTriangulation> again = triangulate_domain(d, o);
      EXPECT_EQ(again->points, t->points);
      EXPECT_EQ(again->triangles, t->triangles);
      EXPECT_EQ(again->constrained, t->constrained);
      // The hole stays empty.
      for (const Tri& tri : t->triangles) {
        const Vec2d c = (t->points[tri[0]] + t->points[tri[1]] + t->points[tri[2]]) / 3.0;
        EXPECT_GT(length(c), 1.6 * std::cos(kPi / 7) - 1e-9);
      }
    }
  }
}

TEST(Triangulator, GridPointsOnAndInsideTheOutline) {
  // As the auto mesh places them: a grid of free points, some exactly on the outline's edges (the
  // edges are split there) and on the hole's, inside a square with a diamond hole.
  PlanarDomain d;
  d.points = {{0, 0}, {10, 0}, {10, 10}, {0, 10}, {5, 2.5}, {7.5, 5}, {5, 7.5}, {2.5, 5}};
  d.loops = {{0, 1, 2, 3}, {4, 5, 6, 7}};
  for (int y = 0; y <= 10; ++y)
    for (int x = 0; x <= 10; ++x) {
      const Vec2d q{double(x), double(y)};
      const bool corner = (x == 0 || x == 10) && (y == 0 || y == 10);
      const double diamond = std::abs(q.x - 5) + std::abs(q.y - 5);
      if (!corner && diamond > 2.5) d.points.push_back(q);
    }
  for (bool refine : {false, true}) {
    RefineOptions o;
    o.refine = refine;
    o.min_angle = 25;
    Expected<ConstrainedTriangulation> a = triangulate_domain(d, o);
    Expected<ConstrainedTriangulation> b = triangulate_domain(d, o);
    ASSERT_TRUE(a.ok()) << a.error().message;
    expect_valid(d, *a);
    if (!refine) expect_constrained_delaunay(*a);
    if (refine) expect_angles(d, *a, 25);
    EXPECT_EQ(a->triangles, b->triangles);
    EXPECT_EQ(a->points, b->points);
  }
}

TEST(Triangulator, SharpCornersEndAndKeepTheirOwnAngles) {
  // A 10° spike at point 1 and an interior edge at 15° to the outline at point 0.
  const double t10 = 10 * kPi / 180, t15 = 15 * kPi / 180;
  PlanarDomain d;
  d.points = {{0, 0}, {10, 0}, {0, 10 * std::tan(t10)}, {-2, 5}, {-4, -1}, {3 * std::cos(t15), 3 * std::sin(t15)}};
  d.loops = {{0, 1, 2, 3, 4}};
  d.edges = {{0, 5}};
  RefineOptions o;
  Expected<ConstrainedTriangulation> t = triangulate_domain(d, o);
  ASSERT_TRUE(t.ok()) << t.error().message;
  expect_valid(d, *t);
  expect_angles(d, *t, 20);
  EXPECT_LT(t->points.size(), 2000u) << "refinement should end well before any safety limit";
}

TEST(Triangulator, SpikesKeepOnlyTheirCornerTriangleBelowTheMinimum) {
  // A wedge of angle θ from point 0 to x = 10, ending in a rectangle: refinement ends, and the only
  // triangles below the minimum angle are those with a vertex at the spike's tip.
  for (double degrees : {0.01, 1.0, 10.0, 25.0, 45.0})
    for (double min_angle : {20.0, 30.0}) {
      const double h = 10 * std::tan(degrees * kPi / 180);
      const PlanarDomain d{{{0, 0}, {10, 0}, {10, -3}, {16, -3}, {16, h + 3}, {10, h + 3}, {10, h}}, {{0, 1, 2, 3, 4, 5, 6}}, {}};
      RefineOptions o;
      o.min_angle = min_angle;
      Expected<ConstrainedTriangulation> t = triangulate_domain(d, o);
      ASSERT_TRUE(t.ok()) << t.error().message;
      SCOPED_TRACE(std::to_string(degrees) + "° spike, " + std::to_string(min_angle) + "°");
      expect_valid(d, *t);
      EXPECT_LT(t->points.size(), 1000u);
      int below = 0;
      for (const Tri& tri : t->triangles) {
        if (smallest_angle(t->points[tri[0]], t->points[tri[1]], t->points[tri[2]]) >= min_angle) continue;
        ++below;
        EXPECT_TRUE(tri[0] == 0 || tri[1] == 0 || tri[2] == 0) << "triangle " << tri[0] << " " << tri[1] << " " << tri[2];
      }
      EXPECT_EQ(below, degrees < min_angle ? 1 : 0);
    }
}

TEST(Triangulator, MaxAreaAndBudget) {
  const PlanarDomain d = star_with_hole(3, 6);
  RefineOptions area;
  area.max_area = 0.5;
  Expected<ConstrainedTriangulation> t = triangulate_domain(d, area);
  ASSERT_TRUE(t.ok()) << t.error().message;
  expect_valid(d, *t);
  expect_angles(d, *t, 20);
  for (const Tri& tri : t->triangles) EXPECT_LE(orient2d(t->points[tri[0]], t->points[tri[1]], t->points[tri[2]]) / 2, 0.5);
  // A budget: never more points, and still a valid mesh.
  for (int budget : {10, 30, 40, 60, 100}) {
    RefineOptions o = area;
    o.max_points = budget;
    Expected<ConstrainedTriangulation> b = triangulate_domain(d, o);
    ASSERT_TRUE(b.ok()) << b.error().message;
    expect_valid(d, *b);
    EXPECT_LE(b->points.size(), std::max<std::size_t>(budget, d.points.size()));
  }
}

TEST(Triangulator, LoopsNestByEvenOdd) {
  // An island inside the hole of a square: three loops, two filled regions.
  PlanarDomain d = square_with_hole();
  for (Vec2d p : {Vec2d{4, 4}, Vec2d{6, 4}, Vec2d{6, 6}, Vec2d{4, 6}}) d.points.push_back(p);
  d.loops.push_back({8, 9, 10, 11});
  Expected<ConstrainedTriangulation> t = triangulate_domain(d);
  ASSERT_TRUE(t.ok()) << t.error().message;
  expect_valid(d, *t);
  expect_angles(d, *t, 20);
}

TEST(Triangulator, Errors) {
  auto message = [](const PlanarDomain& d, RefineOptions o = {}) {
    Expected<ConstrainedTriangulation> t = triangulate_domain(d, o);
    return t.ok() ? std::string("ok") : t.error().message;
  };
  PlanarDomain d = square_with_hole();
  PlanarDomain dup = d;
  dup.points.push_back({3, 7});
  EXPECT_EQ(message(dup), "points 5 (3, 7) and 8 (3, 7) are at the same place");
  PlanarDomain two = d;
  two.loops.push_back({0, 2});
  EXPECT_EQ(message(two), "loop 2 has 2 points; a loop needs at least 3");
  PlanarDomain range = d;
  range.loops[1][2] = 40;
  EXPECT_EQ(message(range), "loop 1 refers to point 40, but there are 8 points");
  PlanarDomain twice = d;
  twice.loops[0] = {0, 1, 2, 1, 3};
  EXPECT_EQ(message(twice), "loop 0 visits point 1 twice");
  PlanarDomain crossing = d;
  crossing.points.push_back({5, -2});
  crossing.points.push_back({5, 5});
  crossing.points.push_back({12, 5});
  crossing.loops.push_back({8, 9, 10});
  EXPECT_EQ(message(crossing), "loop 2 edge 0 (points 8-9) crosses loop 0 edge 0 (points 0-1)");
  PlanarDomain edges = d;
  edges.points.push_back({1, 5});
  edges.points.push_back({2, 1});
  edges.points.push_back({1, 1});
  edges.points.push_back({2, 5});
  edges.edges = {{8, 9}, {10, 11}};
  EXPECT_EQ(message(edges), "edge 1 (points 10-11) crosses edge 0 (points 8-9)");
  PlanarDomain self = d;
  self.edges = {{0, 0}};
  EXPECT_EQ(message(self), "edge 0 joins point 0 to itself");
  PlanarDomain outside = d;
  outside.points.push_back({5, 5});
  EXPECT_EQ(message(outside), "point 8 (5, 5) lies outside the domain");
  PlanarDomain across = d;
  across.edges = {{4, 6}};
  EXPECT_EQ(message(across), "edge 0 (points 4-6) lies outside the domain");
  PlanarDomain flat{{{0, 0}, {1, 1}, {2, 2}}, {{0, 1, 2}}, {}};
  EXPECT_EQ(message(flat), "the domain is empty: its loops enclose no area");
  PlanarDomain none{{{0, 0}, {1, 0}, {0, 1}}, {}, {}};
  EXPECT_EQ(message(none), "the domain is empty: it has no loops");
  PlanarDomain nan = d;
  nan.points[2].y = std::nan("");
  EXPECT_EQ(message(nan), "point 2 (10, nan) is not finite");
  RefineOptions steep;
  steep.min_angle = 35;
  EXPECT_EQ(message(d, steep), "min_angle 35 is outside 0 to 30 degrees");
}

TEST(EarClip, SquareWithHoleAndStars) {
  for (std::uint32_t seed = 0; seed <= 8; ++seed) {
    const PlanarDomain d = seed == 0 ? square_with_hole() : star_with_hole(seed, 4 + static_cast<int>(seed));
    Expected<std::vector<Tri>> tris = ear_clip_domain(d);
    ASSERT_TRUE(tris.ok()) << tris.error().message;
    ConstrainedTriangulation t;
    t.points = d.points;
    t.triangles = *tris;
    // Bridges add two points per hole to the polygon: n + 2·holes − 2 triangles.
    EXPECT_EQ(tris->size(), d.points.size() + 2 * (d.loops.size() - 1) - 2);
    double area = 0;
    for (const Tri& tri : *tris) {
      const Vec2d a = d.points[tri[0]], b = d.points[tri[1]], c = d.points[tri[2]];
      EXPECT_GT(orient2d(a, b, c), 0);
      EXPECT_TRUE(inside_domain(d, (a + b + c) / 3.0));
      area += orient2d(a, b, c) / 2;
    }
    EXPECT_NEAR(area, domain_area(d), 1e-9 * domain_area(d));
  }
  const PlanarDomain bad{{{0, 0}, {1, 0}}, {{0, 1}}, {}};
  EXPECT_EQ(ear_clip_domain(bad).error().message, "loop 0 has 2 points; a loop needs at least 3");
}

TEST(AngleHistogram, BinsSmallestAngles) {
  const std::vector<Vec2d> p = {{0, 0}, {2, 0}, {1, std::sqrt(3.0)}, {0, 2}, {10, 0}};
  const std::vector<Tri> tris = {{0, 1, 2}, {0, 1, 3}, {0, 4, 3}};
  const AngleHistogram h = min_angle_histogram(p, tris);
  ASSERT_EQ(h.counts.size(), 13u);  // [0, 5) … [60, 65)
  EXPECT_EQ(h.counts[12], 1);       // equilateral: 60°
  EXPECT_EQ(h.counts[9], 1);        // right isosceles: 45°
  EXPECT_EQ(h.counts[2], 1);        // atan(0.2) = 11.3°
  EXPECT_NEAR(h.smallest, std::atan(0.2) * 180 / kPi, 1e-9);
  EXPECT_EQ(min_angle_histogram(p, tris, 7).counts.size(), 9u);
}

}  // namespace
}  // namespace mf::offline
