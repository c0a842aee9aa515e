// Image operations of the asset pipeline, pixel for pixel.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <random>

#include "mf/imaging/image_ops.hpp"

namespace mf::imaging {
namespace {

void set(Image& image, int x, int y, std::uint8_t r, std::uint8_t g, std::uint8_t b, std::uint8_t a) {
  std::uint8_t* p = image.pixel(x, y);
  p[0] = r;
  p[1] = g;
  p[2] = b;
  p[3] = a;
}

// Every pixel distinct: (x, y, x ^ y, 255).
Image numbered(int w, int h) {
  Image image = Image::blank(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) set(image, x, y, static_cast<std::uint8_t>(x), static_cast<std::uint8_t>(y), static_cast<std::uint8_t>(x ^ y), 255);
  return image;
}

bool same(const std::uint8_t* a, const std::uint8_t* b) { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3]; }

TEST(ImageOps, AlphaBoundsHoldEveryVisiblePixel) {
  Image image = Image::blank(10, 8);
  EXPECT_TRUE(alpha_bounds(image).empty());
  set(image, 3, 5, 0, 0, 0, 1);  // alpha 1 counts
  EXPECT_EQ(alpha_bounds(image), (Rect{3, 5, 1, 1}));
  set(image, 7, 2, 9, 9, 9, 255);
  EXPECT_EQ(alpha_bounds(image), (Rect{3, 2, 5, 4}));
  set(image, 9, 7, 9, 9, 9, 255);
  EXPECT_EQ(alpha_bounds(image), (Rect{3, 2, 7, 6}));
  // Colour without alpha does not count.
  set(image, 0, 0, 255, 255, 255, 0);
  EXPECT_EQ(alpha_bounds(image), (Rect{3, 2, 7, 6}));
}

TEST(ImageOps, CropAndBlitCopyExactPixels) {
  const Image image = numbered(9, 7);
  const Image cut = crop(image, {2, 3, 4, 2});
  ASSERT_EQ(cut.width, 4);
  ASSERT_EQ(cut.height, 2);
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 4; ++x) EXPECT_TRUE(same(cut.pixel(x, y), image.pixel(2 + x, 3 + y))) << x << "," << y;

  // Blit with clipping on every side: the part outside the target is dropped.
  const std::uint8_t clear[4] = {0, 0, 0, 0};
  Image target = Image::blank(5, 5);
  blit(target, cut, -2, 4);
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 5; ++x) {
      const bool covered = y == 4 && x < 2;
      const std::uint8_t* want = covered ? cut.pixel(x + 2, 0) : clear;
      EXPECT_TRUE(same(target.pixel(x, y), want)) << x << "," << y;
    }
  blit(target, cut, 10, 10);  // entirely outside: nothing happens
  blit(target, cut, -10, 0);
  EXPECT_TRUE(same(target.pixel(0, 0), clear));
}

TEST(ImageOps, ExtrudeRepeatsEdgePixelsOutwards) {
  const Image image = numbered(3, 2);
  const Image out = extrude(image, 2);
  ASSERT_EQ(out.width, 7);
  ASSERT_EQ(out.height, 6);
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 7; ++x) {
      const int sx = std::clamp(x - 2, 0, 2), sy = std::clamp(y - 2, 0, 1);
      EXPECT_TRUE(same(out.pixel(x, y), image.pixel(sx, sy))) << x << "," << y;
    }
  // Corners take the corner pixel.
  EXPECT_TRUE(same(out.pixel(0, 0), image.pixel(0, 0)));
  EXPECT_TRUE(same(out.pixel(6, 5), image.pixel(2, 1)));
  EXPECT_EQ(extrude(image, 0), image);
}

TEST(ImageOps, AlphaBleedTakesTheNearestVisibleColour) {
  // Red at the left end of a row of 9, blue at the right end: each transparent pixel takes the colour
  // of the closer one, with alpha kept at 0; the middle one is a tie, resolved by the fixed order.
  Image row = Image::blank(9, 1);
  set(row, 0, 0, 255, 0, 0, 255);
  set(row, 8, 0, 0, 0, 255, 200);
  alpha_bleed(row);
  for (int x = 1; x < 4; ++x) {
    EXPECT_EQ(row.pixel(x, 0)[0], 255) << x;
    EXPECT_EQ(row.pixel(x, 0)[2], 0) << x;
    EXPECT_EQ(row.pixel(x, 0)[3], 0) << x;
  }
  for (int x = 5; x < 8; ++x) {
    EXPECT_EQ(row.pixel(x, 0)[0], 0) << x;
    EXPECT_EQ(row.pixel(x, 0)[2], 255) << x;
    EXPECT_EQ(row.pixel(x, 0)[3], 0) << x;
  }
  EXPECT_EQ(row.pixel(4, 0)[3], 0);
  EXPECT_TRUE(row.pixel(4, 0)[0] == 255 || row.pixel(4, 0)[2] == 255);
  // Visible pixels keep their values.
  EXPECT_TRUE(same(row.pixel(8, 0), std::array<std::uint8_t, 4>{0, 0, 255, 200}.data()));

  // Diagonal steps count as one (8-neighbourhood): (3, 3) is 3 steps from the green pixel at (0, 0)
  // and 4 from the white one at (7, 3).
  Image grid = Image::blank(8, 6);
  set(grid, 0, 0, 0, 255, 0, 255);
  set(grid, 7, 3, 255, 255, 255, 255);
  alpha_bleed(grid);
  EXPECT_EQ(grid.pixel(3, 3)[0], 0);
  EXPECT_EQ(grid.pixel(3, 3)[1], 255);
  EXPECT_EQ(grid.pixel(5, 2)[0], 255);

  // A fully transparent image is left as it is.
  Image clear = Image::blank(4, 4);
  alpha_bleed(clear);
  EXPECT_EQ(clear, Image::blank(4, 4));
}

TEST(ImageOps, AlphaBleedLeavesNoTransparentBlackNextToVisiblePixels) {
  std::mt19937 rng(11);
  Image image = Image::blank(40, 30);
  std::uniform_int_distribution<int> coin(0, 5);
  for (int y = 0; y < 30; ++y)
    for (int x = 0; x < 40; ++x)
      if (coin(rng) == 0) set(image, x, y, static_cast<std::uint8_t>(100 + x), static_cast<std::uint8_t>(100 + y), 77, 255);
  const Image before = image;
  alpha_bleed(image);
  int transparent = 0;
  for (int y = 0; y < 30; ++y)
    for (int x = 0; x < 40; ++x) {
      const std::uint8_t* p = image.pixel(x, y);
      if (before.pixel(x, y)[3] != 0) {
        EXPECT_TRUE(same(p, before.pixel(x, y)));
        continue;
      }
      ++transparent;
      EXPECT_EQ(p[3], 0);
      EXPECT_EQ(p[2], 77) << x << "," << y;  // a visible pixel's colour, never black
      // It is the colour of a visible pixel at the smallest 8-neighbourhood distance.
      int nearest = 1 << 30;
      for (int v = 0; v < 30; ++v)
        for (int u = 0; u < 40; ++u)
          if (before.pixel(u, v)[3] != 0) nearest = std::min(nearest, std::max(std::abs(u - x), std::abs(v - y)));
      const int sx = p[0] - 100, sy = p[1] - 100;
      EXPECT_EQ(std::max(std::abs(sx - x), std::abs(sy - y)), nearest) << x << "," << y;
    }
  EXPECT_GT(transparent, 500);
}

TEST(ImageOps, PremultiplyRoundsToNearestAndUnpremultiplyUndoesIt) {
  Image image = Image::blank(4, 1);
  set(image, 0, 0, 255, 128, 1, 255);
  set(image, 1, 0, 255, 128, 1, 128);
  set(image, 2, 0, 200, 100, 50, 0);
  set(image, 3, 0, 3, 2, 1, 1);
  premultiply(image);
  EXPECT_TRUE(same(image.pixel(0, 0), std::array<std::uint8_t, 4>{255, 128, 1, 255}.data()));
  // 255 × 128 / 255 = 128; 128 × 128 / 255 = 64.25 → 64; 1 × 128 / 255 = 0.50 → 1.
  EXPECT_TRUE(same(image.pixel(1, 0), std::array<std::uint8_t, 4>{128, 64, 1, 128}.data()));
  EXPECT_TRUE(same(image.pixel(2, 0), std::array<std::uint8_t, 4>{0, 0, 0, 0}.data()));
  EXPECT_TRUE(same(image.pixel(3, 0), std::array<std::uint8_t, 4>{0, 0, 0, 1}.data()));
  unpremultiply(image);
  EXPECT_TRUE(same(image.pixel(0, 0), std::array<std::uint8_t, 4>{255, 128, 1, 255}.data()));
  // 128 × 255 / 128 = 255; 64 × 255 / 128 = 127.5 → 128; 1 × 255 / 128 = 1.99 → 2.
  EXPECT_TRUE(same(image.pixel(1, 0), std::array<std::uint8_t, 4>{255, 128, 2, 128}.data()));
  EXPECT_TRUE(same(image.pixel(2, 0), std::array<std::uint8_t, 4>{0, 0, 0, 0}.data()));
}

TEST(ImageOps, QuarterTurnsMoveEveryPixel) {
  const Image image = numbered(3, 2);
  const Image cw = rotate_clockwise(image);
  ASSERT_EQ(cw.width, 2);
  ASSERT_EQ(cw.height, 3);
  // Clockwise: the bottom-left pixel goes to the top-left, the top-left to the top-right.
  EXPECT_TRUE(same(cw.pixel(0, 0), image.pixel(0, 1)));
  EXPECT_TRUE(same(cw.pixel(1, 0), image.pixel(0, 0)));
  EXPECT_TRUE(same(cw.pixel(1, 2), image.pixel(2, 0)));
  const Image ccw = rotate_counterclockwise(image);
  EXPECT_TRUE(same(ccw.pixel(0, 0), image.pixel(2, 0)));
  EXPECT_TRUE(same(ccw.pixel(0, 2), image.pixel(0, 0)));
  EXPECT_EQ(rotate_counterclockwise(cw), image);
  EXPECT_EQ(rotate_clockwise(rotate_clockwise(rotate_clockwise(cw))), image);
}

}  // namespace
}  // namespace mf::imaging
