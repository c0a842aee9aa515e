#include "mf/offline/mesh/interior_points.hpp"

#include <gtest/gtest.h>

#include "mf/offline/mesh/outline_simplify.hpp"
#include "offline/mesh/loop_checks.hpp"

namespace mf::offline {
namespace {

TEST(InteriorPoints, AHexagonalLatticeInsideWithClearance) {
  const std::vector<std::vector<Vec2d>> square{{{0, 0}, {100, 0}, {100, 100}, {0, 100}}};
  const std::vector<Vec2d> points = interior_lattice(square, 10, 5);
  ASSERT_FALSE(points.empty());
  EXPECT_NE(std::find(points.begin(), points.end(), Vec2d{50, 50}), points.end());  // centred on the box
  for (Vec2d p : points) {
    EXPECT_TRUE(inside_loops(square, p));
    EXPECT_GE(mf::testing::distance_to_loops(square, p), 5 - 1e-9);
  }
  // Each point's nearest neighbour is one spacing away (equilateral triangles).
  for (Vec2d p : points) {
    double nearest = INFINITY;
    for (Vec2d q : points)
      if (!(p == q)) nearest = std::min(nearest, length(q - p));
    EXPECT_NEAR(nearest, 10, 1e-9);
  }
  // Rows √3/2 · 10 apart within [5, 95]: 11 rows of 9 or 10 points.
  EXPECT_GE(points.size(), 99u);
  EXPECT_LE(points.size(), 110u);
}

TEST(InteriorPoints, NoneInAHole) {
  const std::vector<std::vector<Vec2d>> ring{{{0, 0}, {100, 0}, {100, 100}, {0, 100}},
                                             {{30, 30}, {30, 70}, {70, 70}, {70, 30}}};
  const std::vector<Vec2d> points = interior_lattice(ring, 8, 4);
  ASSERT_FALSE(points.empty());
  for (Vec2d p : points) {
    EXPECT_FALSE(p.x > 26 && p.x < 74 && p.y > 26 && p.y < 74) << p.x << ", " << p.y;
    EXPECT_GE(mf::testing::distance_to_loops(ring, p), 4 - 1e-9);
  }
}

TEST(InteriorPoints, NoneWhenTheShapeIsNarrowerThanTheClearance) {
  const std::vector<std::vector<Vec2d>> sliver{{{0, 0}, {100, 0}, {100, 6}, {0, 6}}};
  EXPECT_TRUE(interior_lattice(sliver, 10, 5).empty());
}

}  // namespace
}  // namespace mf::offline
