#include "mf/skel/clipping.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

namespace mf::skel {
namespace {

// Areas of polygons of a few pixels' size, summed from float vertices.
constexpr double kAreaTolerance = 1e-3;
// Positions rebuilt from barycentric weights, in pixels.
constexpr float kPositionTolerance = 1e-4f;

double signed_area(std::span<const float> xy) {
  const std::size_t n = xy.size() / 2;
  double a = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = (i + 1) % n;
    a += static_cast<double>(xy[2 * i]) * xy[2 * j + 1] - static_cast<double>(xy[2 * j]) * xy[2 * i + 1];
  }
  return a / 2;
}

double signed_area(std::span<const ClippedVertex> poly) {
  std::vector<float> xy;
  for (const ClippedVertex& v : poly) {
    xy.push_back(v.x);
    xy.push_back(v.y);
  }
  return signed_area(xy);
}

// Convex and counter-clockwise (positive shoelace area): every turn is a left turn or straight.
bool convex_ccw(std::span<const float> xy) {
  const std::size_t n = xy.size() / 2;
  if (n < 3 || signed_area(xy) <= 0) return false;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = (i + 1) % n, k = (i + 2) % n;
    const double turn = (static_cast<double>(xy[2 * j]) - xy[2 * i]) * (static_cast<double>(xy[2 * k + 1]) - xy[2 * j + 1]) -
                        (static_cast<double>(xy[2 * j + 1]) - xy[2 * i + 1]) * (static_cast<double>(xy[2 * k]) - xy[2 * j]);
    if (turn < -1e-6) return false;
  }
  return true;
}

// Even-odd point-in-polygon.
bool inside(std::span<const float> xy, double x, double y) {
  const std::size_t n = xy.size() / 2;
  bool in = false;
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const double xi = xy[2 * i], yi = xy[2 * i + 1], xj = xy[2 * j], yj = xy[2 * j + 1];
    if ((yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) in = !in;
  }
  return in;
}

// Checks the decomposition: convex pieces whose areas sum to the polygon's, covering each sample point
// of a grid exactly once inside the polygon and never outside it.
void expect_exact_cover(const PolygonClipper& clipper, std::span<const float> polygon) {
  double total = 0;
  for (std::size_t i = 0; i < clipper.piece_count(); ++i) {
    EXPECT_TRUE(convex_ccw(clipper.piece(i))) << "piece " << i;
    total += signed_area(clipper.piece(i));
  }
  EXPECT_NEAR(total, std::abs(signed_area(polygon)), kAreaTolerance);

  float min_x = polygon[0], max_x = polygon[0], min_y = polygon[1], max_y = polygon[1];
  for (std::size_t i = 0; i < polygon.size(); i += 2) {
    min_x = std::min(min_x, polygon[i]);
    max_x = std::max(max_x, polygon[i]);
    min_y = std::min(min_y, polygon[i + 1]);
    max_y = std::max(max_y, polygon[i + 1]);
  }
  // An irrational step keeps samples off the pieces' edges.
  const double step_x = (max_x - min_x) / 37.3, step_y = (max_y - min_y) / 41.7;
  for (double y = min_y + step_y / 3; y < max_y; y += step_y) {
    for (double x = min_x + step_x / 5; x < max_x; x += step_x) {
      int covering = 0;
      for (std::size_t i = 0; i < clipper.piece_count(); ++i) covering += inside(clipper.piece(i), x, y) ? 1 : 0;
      EXPECT_EQ(covering, inside(polygon, x, y) ? 1 : 0) << "at " << x << ", " << y;
    }
  }
}

int reflex_count(std::span<const float> xy) {
  const double orientation = signed_area(xy) > 0 ? 1 : -1;
  const std::size_t n = xy.size() / 2;
  int reflex = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = (i + 1) % n, k = (i + 2) % n;
    const double turn = (xy[2 * j] - xy[2 * i]) * (xy[2 * k + 1] - xy[2 * j + 1]) -
                        (xy[2 * j + 1] - xy[2 * i + 1]) * (xy[2 * k] - xy[2 * j]);
    if (turn * orientation < 0) ++reflex;
  }
  return reflex;
}

const std::vector<float> kLShape = {0, 0, 2, 0, 2, 1, 1, 1, 1, 2, 0, 2};  // area 3, one reflex corner

std::vector<float> star(int points, float outer, float inner, float cx = 0, float cy = 0) {
  std::vector<float> xy;
  for (int i = 0; i < 2 * points; ++i) {
    const double angle = std::numbers::pi * i / points;
    const double r = i % 2 == 0 ? outer : inner;
    xy.push_back(static_cast<float>(cx + r * std::cos(angle)));
    xy.push_back(static_cast<float>(cy + r * std::sin(angle)));
  }
  return xy;
}

std::vector<float> reversed(const std::vector<float>& xy) {
  std::vector<float> out;
  for (std::size_t i = xy.size(); i >= 2; i -= 2) {
    out.push_back(xy[i - 2]);
    out.push_back(xy[i - 1]);
  }
  return out;
}

TEST(Clipping, ConcaveLShapeSplitsIntoConvexPieces) {
  for (const std::vector<float>& polygon : {kLShape, reversed(kLShape)}) {
    PolygonClipper clipper(16);
    ASSERT_TRUE(clipper.set_polygon(polygon));
    EXPECT_EQ(clipper.piece_count(), 2u) << "one reflex corner needs one cut";
    expect_exact_cover(clipper, polygon);
  }
}

TEST(Clipping, StarSplitsIntoConvexPieces) {
  const std::vector<float> polygon = star(5, 10, 4, 3, -2);
  ASSERT_EQ(reflex_count(polygon), 5);
  PolygonClipper clipper(16);
  ASSERT_TRUE(clipper.set_polygon(polygon));
  // Hertel–Mehlhorn keeps at most two diagonals per reflex vertex: at most 2r + 1 pieces, fewer than
  // the 8 triangles of a triangulation here.
  EXPECT_LE(clipper.piece_count(), 2u * 5 + 1);
  EXPECT_LT(clipper.piece_count(), 8u);
  EXPECT_GE(clipper.piece_count(), 5u) << "no convex piece can hold two tips";
  expect_exact_cover(clipper, polygon);
  // 2n triangles from the centre, each ½·R·r·sin(π/n).
  EXPECT_NEAR(std::abs(signed_area(polygon)), 5 * 10 * 4 * std::sin(std::numbers::pi / 5), kAreaTolerance);
}

TEST(Clipping, ConvexPolygonStaysOnePiece) {
  const std::vector<float> hexagon = star(3, 5, 5);  // six points on a circle
  PolygonClipper clipper(8);
  ASSERT_TRUE(clipper.set_polygon(hexagon));
  EXPECT_EQ(clipper.piece_count(), 1u);
  EXPECT_EQ(clipper.piece(0).size(), 12u);
  expect_exact_cover(clipper, hexagon);
}

TEST(Clipping, SpiralLikeConcavePolygon) {
  // A comb: several reflex vertices in a row stress the ear search.
  const std::vector<float> comb = {0, 0, 10, 0, 10, 6, 9, 6, 9, 2, 7, 2, 7, 6, 5, 6, 5, 2, 3, 2, 3, 6, 1, 6, 1, 2, 0, 2};
  PolygonClipper clipper(32);
  ASSERT_TRUE(clipper.set_polygon(comb));
  expect_exact_cover(clipper, comb);
}

TEST(Clipping, RandomStarShapedPolygonsAreCoveredExactly) {
  // Vertices at increasing angles around a centre with random radii: simple, mostly concave polygons.
  std::mt19937 random(12345);
  std::uniform_real_distribution<float> radius(1.0f, 20.0f);
  std::uniform_int_distribution<int> size(4, 24);
  PolygonClipper clipper(24);
  for (int round = 0; round < 40; ++round) {
    const int n = size(random);
    std::vector<float> polygon;
    for (int i = 0; i < n; ++i) {
      const double angle = 2 * std::numbers::pi * i / n;
      const float r = radius(random);
      polygon.push_back(static_cast<float>(r * std::cos(angle)));
      polygon.push_back(static_cast<float>(r * std::sin(angle)));
    }
    ASSERT_TRUE(clipper.set_polygon(polygon)) << "round " << round;
    EXPECT_LE(clipper.piece_count(), static_cast<std::size_t>(2 * reflex_count(polygon) + 1)) << "round " << round;
    expect_exact_cover(clipper, polygon);
  }
}

TEST(Clipping, DegenerateOrOversizedPolygonsAreRefused) {
  PolygonClipper clipper(6);
  EXPECT_FALSE(clipper.set_polygon(std::vector<float>{0, 0, 1, 1}));
  EXPECT_FALSE(clipper.set_polygon(std::vector<float>{0, 0, 1, 1, 2, 2, 3, 3})) << "collinear";
  EXPECT_FALSE(clipper.set_polygon(std::vector<float>{1, 1, 1, 1, 1, 1})) << "one point";
  EXPECT_FALSE(clipper.set_polygon(star(4, 2, 1))) << "8 vertices, room for 6";
  EXPECT_EQ(clipper.piece_count(), 0u);
  // Repeated and collinear vertices are dropped, not refused.
  ASSERT_TRUE(clipper.set_polygon(std::vector<float>{0, 0, 0, 0, 1, 0, 2, 0, 2, 2, 0, 2}));
  EXPECT_EQ(clipper.piece_count(), 1u);
  EXPECT_EQ(clipper.piece(0).size(), 8u);
  EXPECT_NEAR(signed_area(clipper.piece(0)), 4.0, kAreaTolerance);
}

TEST(Clipping, TriangleClippedBySquareGivesTheExactIntersection) {
  PolygonClipper clipper(8);
  ASSERT_TRUE(clipper.set_polygon(std::vector<float>{2, 2, 12, 2, 12, 12, 2, 12}));
  const float a[2] = {0, 0}, b[2] = {20, 0}, c[2] = {0, 20};
  ASSERT_EQ(clipper.piece_count(), 1u);
  const auto poly = clipper.clip_triangle(0, a, b, c);
  // The square less its corner beyond x + y = 20: a pentagon of area 100 − 8.
  ASSERT_EQ(poly.size(), 5u);
  EXPECT_NEAR(std::abs(signed_area(poly)), 92.0, kAreaTolerance);
  for (const ClippedVertex& v : poly) {
    EXPECT_LE(v.x + v.y, 20 + kPositionTolerance);
    EXPECT_GE(v.x, 2 - kPositionTolerance);
    EXPECT_GE(v.y, 2 - kPositionTolerance);
  }
}

TEST(Clipping, TriangleClippedByConcavePolygonSumsOverPieces) {
  PolygonClipper clipper(16);
  ASSERT_TRUE(clipper.set_polygon(kLShape));
  // Covers the whole L: the pieces' outputs add up to the L's area.
  const float a[2] = {-10, -10}, b[2] = {30, -10}, c[2] = {-10, 30};
  double total = 0;
  for (std::size_t p = 0; p < clipper.piece_count(); ++p) total += std::abs(signed_area(clipper.clip_triangle(p, a, b, c)));
  EXPECT_NEAR(total, 3.0, kAreaTolerance);

  // The triangle x + y ≤ 2 misses the L's notch (x > 1, y > 1 means x + y > 2): all of its area 2.
  const float d[2] = {0, 0}, e[2] = {2, 0}, f[2] = {0, 2};
  total = 0;
  for (std::size_t p = 0; p < clipper.piece_count(); ++p) total += std::abs(signed_area(clipper.clip_triangle(p, d, e, f)));
  EXPECT_NEAR(total, 2.0, kAreaTolerance);

  // A triangle over the notch: (0.5, 0.5), (2, 0.5), (0.5, 2) has area 1.125; the notch x > 1, y > 1
  // takes the part with x + y ≤ 2.5, x > 1, y > 1: a right triangle with legs 0.5, area 0.125.
  const float g[2] = {0.5f, 0.5f}, h[2] = {2, 0.5f}, k[2] = {0.5f, 2};
  total = 0;
  for (std::size_t p = 0; p < clipper.piece_count(); ++p) total += std::abs(signed_area(clipper.clip_triangle(p, g, h, k)));
  EXPECT_NEAR(total, 1.125 - 0.125, kAreaTolerance);
}

TEST(Clipping, TriangleInsideIsKeptWhole) {
  PolygonClipper clipper(8);
  ASSERT_TRUE(clipper.set_polygon(std::vector<float>{0, 0, 10, 0, 10, 10, 0, 10}));
  const float a[2] = {1, 1}, b[2] = {8, 2}, c[2] = {3, 9};
  const auto poly = clipper.clip_triangle(0, a, b, c);
  ASSERT_EQ(poly.size(), 3u);
  EXPECT_FLOAT_EQ(poly[0].x, 1);
  EXPECT_FLOAT_EQ(poly[0].y, 1);
  EXPECT_FLOAT_EQ(poly[0].wa, 1);
  EXPECT_FLOAT_EQ(poly[1].x, 8);
  EXPECT_FLOAT_EQ(poly[1].wb, 1);
  EXPECT_FLOAT_EQ(poly[2].y, 9);
  EXPECT_FLOAT_EQ(poly[2].wc, 1);
}

TEST(Clipping, TriangleOutsideGivesNothing) {
  PolygonClipper clipper(8);
  ASSERT_TRUE(clipper.set_polygon(std::vector<float>{0, 0, 10, 0, 10, 10, 0, 10}));
  const float a[2] = {11, 1}, b[2] = {18, 2}, c[2] = {13, 9};
  EXPECT_TRUE(clipper.clip_triangle(0, a, b, c).empty());
  // Touching the square along an edge only: no area, nothing drawn.
  const float d[2] = {10, 0}, e[2] = {20, 0}, f[2] = {10, 10};
  EXPECT_TRUE(clipper.clip_triangle(0, d, e, f).empty());
}

TEST(Clipping, OutputVerticesCarryBarycentricWeights) {
  PolygonClipper clipper(16);
  const std::vector<float> polygon = star(4, 6, 2.5f, 1, 1);
  ASSERT_TRUE(clipper.set_polygon(polygon));
  const float a[2] = {-3, -2}, b[2] = {7, 0}, c[2] = {0, 6};
  // UVs at the corners; an output vertex's UV is the weighted sum, and a linear function of position.
  const float ua = 0.1f, ub = 0.9f, uc = 0.3f;
  std::size_t outputs = 0;
  for (std::size_t p = 0; p < clipper.piece_count(); ++p) {
    for (const ClippedVertex& v : clipper.clip_triangle(p, a, b, c)) {
      ++outputs;
      EXPECT_NEAR(v.wa + v.wb + v.wc, 1.0f, 1e-5f);
      EXPECT_NEAR(v.wa * a[0] + v.wb * b[0] + v.wc * c[0], v.x, kPositionTolerance);
      EXPECT_NEAR(v.wa * a[1] + v.wb * b[1] + v.wc * c[1], v.y, kPositionTolerance);
      EXPECT_GE(std::min({v.wa, v.wb, v.wc}), -1e-5f) << "inside the triangle";
      // The same UV from solving the triangle's barycentric coordinates of (x, y) directly.
      const double det = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
      const double wb = ((v.x - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (v.y - a[1])) / det;
      const double wc = ((b[0] - a[0]) * (v.y - a[1]) - (v.x - a[0]) * (b[1] - a[1])) / det;
      const double expected_u = (1 - wb - wc) * ua + wb * ub + wc * uc;
      EXPECT_NEAR(v.wa * ua + v.wb * ub + v.wc * uc, expected_u, 1e-5);
    }
  }
  EXPECT_GT(outputs, 8u);
}

TEST(Clipping, OutputKeepsTheTriangleWinding) {
  PolygonClipper clipper(8);
  ASSERT_TRUE(clipper.set_polygon(std::vector<float>{0, 0, 10, 0, 10, 10, 0, 10}));
  const float a[2] = {-5, 5}, b[2] = {5, 15}, c[2] = {15, 5};  // clockwise in a Y-up frame
  const auto poly = clipper.clip_triangle(0, a, b, c);
  ASSERT_GE(poly.size(), 3u);
  EXPECT_LT(signed_area(poly), 0);
  // The triangle covers the square's upper half (y ≥ 5; its slanted sides pass outside the square).
  EXPECT_NEAR(std::abs(signed_area(poly)), 50.0, kAreaTolerance);
}

}  // namespace
}  // namespace mf::skel
