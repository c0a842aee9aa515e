// The exact predicates against integer references: points whose coordinates are integers (or
// integers times a power of two) give determinants that __int128 computes exactly, so every sign can
// be checked, including the near-degenerate cases where the plain double formula is wrong.

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "mf/offline/mesh/robust_predicates.hpp"

namespace mf::offline {
namespace {

__extension__ typedef __int128 i128;  // GCC and Clang: exact references up to 2^127

int sign(double x) { return (x > 0) - (x < 0); }
int sign(i128 x) { return (x > 0) - (x < 0); }

// Exact orientation of integer points.
i128 orient_exact(i128 ax, i128 ay, i128 bx, i128 by, i128 cx, i128 cy) {
  return (ax - cx) * (by - cy) - (ay - cy) * (bx - cx);
}

// Exact in-circle of integer points (differences below 2^31 so every term fits).
i128 in_circle_exact(const std::array<std::int64_t, 8>& q) {
  const i128 adx = q[0] - q[6], ady = q[1] - q[7], bdx = q[2] - q[6], bdy = q[3] - q[7], cdx = q[4] - q[6], cdy = q[5] - q[7];
  const i128 al = adx * adx + ady * ady, bl = bdx * bdx + bdy * bdy, cl = cdx * cdx + cdy * cdy;
  return al * (bdx * cdy - cdx * bdy) + bl * (cdx * ady - adx * cdy) + cl * (adx * bdy - bdx * ady);
}

TEST(RobustPredicates, OrientationNearALineWhereDoublesFail) {
  // Shewchuk's example: a grid of points a ulp apart near (0.5, 0.5), tested against the line
  // through (12, 12) and (24, 24). Scaled by 2^53 every coordinate is an integer.
  const double ulp = std::ldexp(1.0, -53);
  const Vec2d b{12, 12}, c{24, 24};
  const i128 scale = i128{1} << 53;
  int naive_wrong = 0, exact_wrong = 0, zeros = 0;
  for (int i = 0; i < 256; ++i)
    for (int j = 0; j < 256; ++j) {
      const Vec2d a{0.5 + i * ulp, 0.5 + j * ulp};
      const i128 ax = (scale / 2) + i, ay = (scale / 2) + j;
      const int truth = sign(orient_exact(ax, ay, 12 * scale, 12 * scale, 24 * scale, 24 * scale));
      zeros += truth == 0;
      naive_wrong += sign(orient2d_inexact(a, b, c)) != truth;
      exact_wrong += sign(orient2d(a, b, c)) != truth;
      // The same triangle in every order.
      EXPECT_EQ(sign(orient2d(b, c, a)), truth);
      EXPECT_EQ(sign(orient2d(c, b, a)), -truth);
    }
  EXPECT_EQ(zeros, 256);  // the diagonal i == j lies on the line
  EXPECT_GT(naive_wrong, 1000) << "the example should defeat the plain formula";
  EXPECT_EQ(exact_wrong, 0);
}

TEST(RobustPredicates, OrientationOfRandomIntegerPointsIsExact) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<std::int64_t> coord(-(std::int64_t{1} << 40), std::int64_t{1} << 40);
  for (int k = 0; k < 20000; ++k) {
    const std::int64_t ax = coord(rng), ay = coord(rng), bx = coord(rng), by = coord(rng);
    // c on or next to the line a–b, often making the determinant tiny against its terms.
    const std::int64_t t = coord(rng) >> 20;
    const std::int64_t cx = ax + (bx - ax) / 4 * (t % 5) + (k % 3) - 1, cy = ay + (by - ay) / 4 * (t % 5) + (k % 7 == 0);
    const Vec2d a{double(ax), double(ay)}, b{double(bx), double(by)}, c{double(cx), double(cy)};
    ASSERT_EQ(sign(orient2d(a, b, c)), sign(orient_exact(ax, ay, bx, by, cx, cy))) << k;
  }
}

TEST(RobustPredicates, InCircleNearACircleWhereDoublesFail) {
  // Lattice points on the circle x² + y² = 65² (36 of them), scaled by an odd factor near 2^22 and
  // moved far from the origin: four of them are exactly cocircular, yet the lifted terms need more
  // than 53 bits, so the plain formula rarely gives zero. The fourth point also moves off the circle
  // by one unit, inwards or outwards.
  const int base[10][2] = {{0, 65}, {16, 63}, {25, 60}, {33, 56}, {39, 52}, {52, 39}, {56, 33}, {60, 25}, {63, 16}, {65, 0}};
  std::vector<std::array<std::int64_t, 2>> circle;
  const std::int64_t m = (std::int64_t{1} << 22) + 1, ox = std::int64_t{3} << 28, oy = -(std::int64_t{5} << 27);
  for (const auto& q : base)
    for (int sx : {1, -1})
      for (int sy : {1, -1})
        if ((q[0] != 0 || sx > 0) && (q[1] != 0 || sy > 0)) circle.push_back({ox + sx * q[0] * m, oy + sy * q[1] * m});
  ASSERT_EQ(circle.size(), 36u);
  std::mt19937 rng(5);
  std::uniform_int_distribution<std::size_t> pick(0, circle.size() - 1);
  int naive_wrong = 0, exact_wrong = 0, zeros = 0;
  for (int k = 0; k < 5000; ++k) {
    std::array<std::int64_t, 8> q{};
    for (int i = 0; i < 4; ++i) {
      const auto& c = circle[pick(rng)];
      q[static_cast<std::size_t>(2 * i)] = c[0];
      q[static_cast<std::size_t>(2 * i + 1)] = c[1];
    }
    q[6] += (k % 3) - 1;
    const Vec2d a{double(q[0]), double(q[1])}, b{double(q[2]), double(q[3])}, c{double(q[4]), double(q[5])},
        d{double(q[6]), double(q[7])};
    const int truth = sign(in_circle_exact(q));
    zeros += truth == 0;
    naive_wrong += sign(in_circle_inexact(a, b, c, d)) != truth;
    exact_wrong += sign(in_circle(a, b, c, d)) != truth;
  }
  EXPECT_GT(zeros, 1000);
  EXPECT_GT(naive_wrong, 100) << "the set should defeat the plain formula";
  EXPECT_EQ(exact_wrong, 0);
}

TEST(RobustPredicates, CocircularAndCollinearGridPointsGiveExactZero) {
  // Squares of a grid far from the origin: every square's corners are cocircular, every row collinear.
  const double base = 1e6 + 0.25;
  int nonzero = 0;
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 20; ++x) {
      const Vec2d a{base + x, base + y}, b{base + x + 1, base + y}, c{base + x + 1, base + y + 1}, d{base + x, base + y + 1};
      nonzero += in_circle(a, b, c, d) != 0;
      nonzero += orient2d(a, b, Vec2d{base + x + 7, base + y}) != 0;
    }
  EXPECT_EQ(nonzero, 0);
  // Inside and outside by the smallest step a double allows near the circle.
  const Vec2d a{base, base}, b{base + 1, base}, c{base + 1, base + 1};
  const double step = std::nextafter(base + 1, INFINITY) - (base + 1);
  EXPECT_GT(in_circle(a, b, c, Vec2d{base + step, base + 1}), 0);
  EXPECT_LT(in_circle(a, b, c, Vec2d{base - step, base + 1}), 0);
}

TEST(RobustPredicates, AgreesWithPlainFormulaWhenFarFromDegenerate) {
  const Vec2d a{0, 0}, b{4, 0}, c{0, 4};
  EXPECT_DOUBLE_EQ(orient2d(a, b, c), 16);
  EXPECT_GT(in_circle(a, b, c, Vec2d{1, 1}), 0);
  EXPECT_LT(in_circle(a, b, c, Vec2d{5, 5}), 0);
  EXPECT_LT(in_circle(a, c, b, Vec2d{1, 1}), 0);  // clockwise triangle: the sign flips
  EXPECT_EQ(in_circle(a, b, c, Vec2d{4, 4}), 0);
}

}  // namespace
}  // namespace mf::offline
