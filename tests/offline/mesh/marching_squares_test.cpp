#include "mf/offline/mesh/marching_squares.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "mf/offline/mesh/outline_simplify.hpp"
#include "offline/mesh/loop_checks.hpp"

namespace mf::offline {
namespace {

PixelField field_of(int w, int h, const std::vector<int>& inside) {
  PixelField f{w, h, {}};
  for (int v : inside) f.values.push_back(v ? 1.0 : -1.0);
  return f;
}

TEST(MarchingSquares, OnePixelIsADiamondThroughTheEdgeMidpoints) {
  // clang-format off
  const PixelField f = field_of(3, 3, {0, 0, 0,
                                       0, 1, 0,
                                       0, 0, 0});
  // clang-format on
  const auto loops = trace_contours(f);
  ASSERT_EQ(loops.size(), 1u);
  ASSERT_EQ(loops[0].size(), 4u);
  EXPECT_DOUBLE_EQ(signed_area(loops[0]), 0.5);  // clockwise on screen: positive
  for (Vec2d p : loops[0]) EXPECT_DOUBLE_EQ(std::abs(p.x - 1.5) + std::abs(p.y - 1.5), 0.5);
}

TEST(MarchingSquares, AFullImageIsItsRectangleWithItsCorners) {
  const PixelField f = field_of(4, 3, std::vector<int>(12, 1));
  const auto loops = trace_contours(f);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_DOUBLE_EQ(signed_area(loops[0]), 12.0);
  for (Vec2d corner : {Vec2d{0, 0}, Vec2d{4, 0}, Vec2d{4, 3}, Vec2d{0, 3}})
    EXPECT_NE(std::find(loops[0].begin(), loops[0].end(), corner), loops[0].end()) << corner.x << ", " << corner.y;
  for (Vec2d p : loops[0]) EXPECT_TRUE(p.x == 0 || p.x == 4 || p.y == 0 || p.y == 3) << p.x << ", " << p.y;
}

TEST(MarchingSquares, AHoleRunsTheOtherWay) {
  // clang-format off
  const PixelField f = field_of(5, 5, {0, 0, 0, 0, 0,
                                       0, 1, 1, 1, 0,
                                       0, 1, 0, 1, 0,
                                       0, 1, 1, 1, 0,
                                       0, 0, 0, 0, 0});
  // clang-format on
  const auto loops = trace_contours(f);
  ASSERT_EQ(loops.size(), 2u);
  int outer = 0, holes = 0;
  for (const auto& loop : loops) (signed_area(loop) > 0 ? outer : holes)++;
  EXPECT_EQ(outer, 1);
  EXPECT_EQ(holes, 1);
  EXPECT_FALSE(inside_loops(loops, {2.5, 2.5}));
  EXPECT_TRUE(inside_loops(loops, {1.5, 2.5}));
}

TEST(MarchingSquares, SaddlesJoinTheInsideCorners) {
  // clang-format off
  const PixelField f = field_of(4, 4, {0, 0, 0, 0,
                                       0, 1, 0, 0,
                                       0, 0, 1, 0,
                                       0, 0, 0, 0});
  // clang-format on
  EXPECT_EQ(count_pieces(f), 1);
  const auto loops = trace_contours(f);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_GT(signed_area(loops[0]), 0);
  EXPECT_TRUE(mf::testing::loops_are_simple_and_apart(loops));
}

TEST(MarchingSquares, CrossingsAreInterpolated) {
  PixelField f{3, 1, {0.75, -0.25, -1}};
  const auto loops = trace_contours(f);
  ASSERT_EQ(loops.size(), 1u);
  double right = 0;
  for (Vec2d p : loops[0]) right = std::max(right, p.x);
  EXPECT_DOUBLE_EQ(right, 0.5 + 0.75);  // 3/4 of the way from the first centre to the second
}

// On random fields every inside sample is inside the loops and every outside one outside, the outer
// loops are the 8-connected pieces, and no loops cross or touch.
TEST(MarchingSquares, LoopsSeparateInsideFromOutsideSamplesOnRandomFields) {
  std::mt19937 rng(1234);
  for (int round = 0; round < 40; ++round) {
    const int w = 3 + static_cast<int>(rng() % 30), h = 3 + static_cast<int>(rng() % 20);
    PixelField f{w, h, {}};
    for (int i = 0; i < w * h; ++i) f.values.push_back(static_cast<double>(rng() % 2001) / 1000.0 - 1.0);
    const auto loops = trace_contours(f);
    int outer = 0;
    for (const auto& loop : loops) outer += signed_area(loop) > 0 ? 1 : 0;
    EXPECT_EQ(outer, count_pieces(f)) << "round " << round;
    EXPECT_TRUE(mf::testing::loops_are_simple_and_apart(loops)) << "round " << round;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        ASSERT_EQ(inside_loops(loops, {x + 0.5, y + 0.5}), f.inside(x, y)) << "round " << round << " at " << x << ", " << y;
    for (const auto& loop : loops)
      for (Vec2d p : loop) {
        EXPECT_GE(p.x, 0);
        EXPECT_LE(p.x, w);
        EXPECT_GE(p.y, 0);
        EXPECT_LE(p.y, h);
      }
  }
}

}  // namespace
}  // namespace mf::offline
