#include "mf/offline/mesh/outline_simplify.hpp"

#include <gtest/gtest.h>

#include "mf/offline/mesh/alpha_region.hpp"
#include "offline/mesh/alpha_images.hpp"
#include "offline/mesh/loop_checks.hpp"

namespace mf::offline {
namespace {

using mf::testing::distance_to_loops;

std::vector<std::vector<Vec2d>> traced(const imaging::Image& image, double padding) {
  return trace_contours(alpha_region(image, 1, padding).field);
}

std::vector<Vec2d> opaque_centres(const imaging::Image& image) {
  std::vector<Vec2d> out;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x)
      if (image.pixel(x, y)[3] > 0) out.push_back({x + 0.5, y + 0.5});
  return out;
}

TEST(OutlineSimplify, ASquaresStaircaseBecomesItsFourSides) {
  std::vector<Vec2d> square;
  for (int i = 0; i < 10; ++i) square.push_back({double(i), 0});
  for (int i = 0; i < 10; ++i) square.push_back({10, double(i)});
  for (int i = 10; i > 0; --i) square.push_back({double(i), 10});
  for (int i = 10; i > 0; --i) square.push_back({0, double(i)});
  const std::vector<std::size_t> kept = simplify_loop(square, {0.5, 0});
  ASSERT_EQ(kept.size(), 4u);
  for (std::size_t k : kept) EXPECT_TRUE(square[k].x == 0 || square[k].x == 10) << k;
  for (std::size_t k : kept) EXPECT_TRUE(square[k].y == 0 || square[k].y == 10) << k;
}

TEST(OutlineSimplify, TracedPointsStayWithinTheOneSidedTolerance) {
  const imaging::Image disc = mf::testing::disc_image(80, 30);
  const auto loops = traced(disc, 2);
  ASSERT_EQ(loops.size(), 1u);
  for (const OutlineTolerance tolerance : {OutlineTolerance{3, 0}, OutlineTolerance{2, 1}, OutlineTolerance{0.5, 0.5}}) {
    const auto simplified = simplify_outline(loops, tolerance, opaque_centres(disc));
    ASSERT_EQ(simplified.size(), 1u);
    EXPECT_LT(simplified[0].size(), loops[0].size() / 3);
    for (Vec2d p : loops[0]) {
      const double d = distance_to_loops(simplified, p);
      // Points outside the simplified outline: the outline moved inwards past them.
      const double limit = inside_loops(simplified, p) ? tolerance.outward : tolerance.inward;
      EXPECT_LE(d, limit + 1e-9) << p.x << ", " << p.y;
    }
  }
}

TEST(OutlineSimplify, ThinWallsNeverCrossAndOpaquePixelsStayInside) {
  // A ring whose wall is 2 pixels thick, simplified with a tolerance far larger than the wall.
  const imaging::Image ring = mf::testing::ring_image(100, 40, 38);
  const auto loops = traced(ring, 0);
  ASSERT_EQ(loops.size(), 2u);
  const std::vector<Vec2d> opaque = opaque_centres(ring);
  const auto simplified = simplify_outline(loops, {6, 6}, opaque);
  ASSERT_EQ(simplified.size(), 2u);
  EXPECT_TRUE(mf::testing::loops_are_simple_and_apart(simplified));
  for (Vec2d p : opaque) EXPECT_TRUE(inside_loops(simplified, p)) << p.x << ", " << p.y;
  EXPECT_LT(simplified[0].size() + simplified[1].size(), loops[0].size() + loops[1].size());
}

TEST(OutlineSimplify, NoEdgePassesInsideTheImagesBorder) {
  // Art up to the image's border: the traced outline runs along the border, and a generous inward
  // tolerance must not cut the image's corners.
  const imaging::Image full = mf::testing::shape_image(50, 30, [](double x, double y) { return x + y > 3; });
  const auto loops = traced(full, 2);
  ASSERT_EQ(loops.size(), 1u);
  const auto simplified = simplify_outline(loops, {2, 2, {50, 30}}, opaque_centres(full));
  ASSERT_EQ(simplified.size(), 1u);
  for (Vec2d corner : {Vec2d{50, 0}, Vec2d{50, 30}, Vec2d{0, 30}})
    EXPECT_NE(std::find(simplified[0].begin(), simplified[0].end(), corner), simplified[0].end()) << corner.x << ", " << corner.y;
  for (Vec2d p : loops[0])
    if (p.x == 0 || p.y == 0 || p.x == 50 || p.y == 30) {
      EXPECT_TRUE(inside_loops(simplified, p) || mf::testing::distance_to_loops(simplified, p) < 1e-9) << p.x << ", " << p.y;
    }
  EXPECT_LT(simplified[0].size(), loops[0].size() / 4);
}

TEST(OutlineSimplify, AShortLoopKeepsItsPoints) {
  const std::vector<Vec2d> triangle{{0, 0}, {4, 0}, {0, 3}};
  EXPECT_EQ(simplify_loop(triangle, {100, 100}).size(), 3u);
  const std::vector<Vec2d> diamond{{1, 0}, {2, 1}, {1, 2}, {0, 1}};
  EXPECT_EQ(simplify_loop(diamond, {100, 100}).size(), 3u);
}

}  // namespace
}  // namespace mf::offline
