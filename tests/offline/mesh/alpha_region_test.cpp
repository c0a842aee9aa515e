#include "mf/offline/mesh/alpha_region.hpp"

#include <gtest/gtest.h>

#include "mf/offline/mesh/outline_simplify.hpp"
#include "offline/mesh/alpha_images.hpp"
#include "offline/mesh/loop_checks.hpp"

namespace mf::offline {
namespace {

using mf::testing::shape_image;

struct Box {
  double x0, y0, x1, y1;
};
Box bounds(const std::vector<Vec2d>& loop) {
  Box b{loop[0].x, loop[0].y, loop[0].x, loop[0].y};
  for (Vec2d p : loop) b = {std::min(b.x0, p.x), std::min(b.y0, p.y), std::max(b.x1, p.x), std::max(b.y1, p.y)};
  return b;
}

TEST(AlphaRegion, PaddingPutsTheOutlineThatFarOutsideThePixels) {
  // Pixels 15..24 both ways: their outer edges are at 15 and 25.
  const imaging::Image image = shape_image(40, 40, [](double x, double y) { return x > 15 && x < 25 && y > 15 && y < 25; });
  for (double padding : {0.0, 1.0, 3.0, 4.25}) {
    const AlphaRegion region = alpha_region(image, 1, padding);
    EXPECT_EQ(region.opaque_count, 100u);
    EXPECT_EQ(region.join_radius, 0);
    const auto loops = trace_contours(region.field);
    ASSERT_EQ(loops.size(), 1u);
    const Box b = bounds(loops[0]);
    EXPECT_NEAR(b.x0, 15 - padding, 1e-9) << padding;
    EXPECT_NEAR(b.x1, 25 + padding, 1e-9) << padding;
    EXPECT_NEAR(b.y0, 15 - padding, 1e-9) << padding;
    EXPECT_NEAR(b.y1, 25 + padding, 1e-9) << padding;
  }
}

TEST(AlphaRegion, TheThresholdChoosesThePixels) {
  // Left half alpha 100, right half 255.
  imaging::Image image = shape_image(20, 10, [](double, double) { return true; }, 255);
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 10; ++x) image.pixel(x, y)[3] = 100;
  EXPECT_EQ(alpha_region(image, 1, 0).opaque_count, 200u);
  EXPECT_EQ(alpha_region(image, 100, 0).opaque_count, 200u);
  const AlphaRegion strict = alpha_region(image, 101, 0);
  EXPECT_EQ(strict.opaque_count, 100u);
  const auto loops = trace_contours(strict.field);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_NEAR(bounds(loops[0]).x0, 10, 1e-9);
  EXPECT_EQ(alpha_region(image, 255, 0).opaque_count, 100u);
  EXPECT_EQ(alpha_region(imaging::Image::blank(4, 4), 1, 2).opaque_count, 0u);
}

TEST(AlphaRegion, FarIslandsAreJoinedIntoOnePiece) {
  // Two discs 60 pixels apart and a dot: with padding 2 they are three pieces.
  const imaging::Image image = shape_image(120, 60, [](double x, double y) {
    return mf::testing::in_disc(x, y, 20, 30, 10) || mf::testing::in_disc(x, y, 80, 30, 10) ||
           mf::testing::in_disc(x, y, 110, 5, 1);
  });
  const AlphaRegion region = alpha_region(image, 1, 2);
  EXPECT_GT(region.join_radius, 0);
  EXPECT_EQ(count_pieces(region.field), 1);
  const auto loops = trace_contours(region.field);
  int outer = 0;
  for (const auto& loop : loops) outer += signed_area(loop) > 0 ? 1 : 0;
  EXPECT_EQ(outer, 1);
  // Every opaque pixel is inside; the outline stays near the discs away from the bridges (left of
  // the left disc it is no farther than the padding plus a pixel).
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      if (image.pixel(x, y)[3] > 0) {
        EXPECT_TRUE(inside_loops(loops, {x + 0.5, y + 0.5})) << x << ", " << y;
      }
    }
  EXPECT_FALSE(inside_loops(loops, {20 - 10 - 2 - 1.5, 30}));
  EXPECT_TRUE(mf::testing::loops_are_simple_and_apart(loops));
}

TEST(AlphaRegion, NearIslandsNeedNoJoining) {
  // Two bars 3 pixels apart: padding 2 grows them into one piece.
  const imaging::Image image = shape_image(30, 20, [](double x, double) { return x < 10 || (x > 13 && x < 25); });
  const AlphaRegion region = alpha_region(image, 1, 2);
  EXPECT_EQ(region.join_radius, 0);
  EXPECT_EQ(count_pieces(region.field), 1);
}

}  // namespace
}  // namespace mf::offline
