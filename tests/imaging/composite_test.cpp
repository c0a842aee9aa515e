// Source-over compositing of straight-alpha layers, checked against the Porter–Duff formula.

#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "mf/imaging/composite.hpp"

namespace mf::imaging {
namespace {

Image filled(int w, int h, std::array<std::uint8_t, 4> rgba) {
  Image image = Image::blank(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 4; ++c) image.pixel(x, y)[c] = rgba[static_cast<std::size_t>(c)];
  return image;
}

std::array<int, 4> at(const Image& image, int x, int y) {
  const std::uint8_t* p = image.pixel(x, y);
  return {p[0], p[1], p[2], p[3]};
}

TEST(Composite, OpaqueLayerReplacesWhatIsBelow) {
  Image target = filled(4, 4, {10, 20, 30, 255});
  composite_over(target, filled(2, 2, {200, 100, 50, 255}), 1, 1);
  EXPECT_EQ(at(target, 0, 0), (std::array<int, 4>{10, 20, 30, 255}));
  EXPECT_EQ(at(target, 1, 1), (std::array<int, 4>{200, 100, 50, 255}));
  EXPECT_EQ(at(target, 2, 2), (std::array<int, 4>{200, 100, 50, 255}));
  EXPECT_EQ(at(target, 3, 3), (std::array<int, 4>{10, 20, 30, 255}));
}

TEST(Composite, OverTransparentKeepsTheLayersColourAndScalesItsAlpha) {
  Image target = Image::blank(1, 1);
  composite_over(target, filled(1, 1, {200, 100, 50, 200}), 0, 0, 0.5);
  // alpha 200 × 0.5 = 100; the colour is the layer's (nothing below to mix with).
  EXPECT_EQ(at(target, 0, 0), (std::array<int, 4>{200, 100, 50, 100}));
}

TEST(Composite, HalfOpacityOverOpaqueMixesEvenly) {
  Image target = filled(1, 1, {0, 0, 0, 255});
  composite_over(target, filled(1, 1, {255, 100, 51, 255}), 0, 0, 0.5);
  // c = 255·0.5 + 0·0.5 = 127.5 → 128; alpha stays 255.
  EXPECT_EQ(at(target, 0, 0), (std::array<int, 4>{128, 50, 26, 255}));
}

TEST(Composite, TranslucentOverTranslucentFollowsSourceOver) {
  Image target = filled(1, 1, {0, 0, 255, 128});
  composite_over(target, filled(1, 1, {255, 0, 0, 128}), 0, 0);
  // as = ad = 128/255; ao = as + ad(1 − as) ≈ 0.75196 → 191.75 → 192; red = 255·as / ao ≈ 170.22 → 170;
  // blue = 255·ad(1 − as) / ao ≈ 84.78 → 85.
  EXPECT_EQ(at(target, 0, 0), (std::array<int, 4>{170, 0, 85, 192}));
}

TEST(Composite, PixelsOutsideTheTargetAreDropped) {
  Image target = filled(2, 2, {0, 0, 0, 0});
  composite_over(target, filled(3, 3, {9, 9, 9, 255}), -2, -2);
  EXPECT_EQ(at(target, 0, 0), (std::array<int, 4>{9, 9, 9, 255}));
  EXPECT_EQ(at(target, 1, 0), (std::array<int, 4>{0, 0, 0, 0}));
  EXPECT_EQ(at(target, 0, 1), (std::array<int, 4>{0, 0, 0, 0}));
  composite_over(target, filled(3, 3, {9, 9, 9, 255}), 5, 5);  // wholly outside: nothing
  EXPECT_EQ(at(target, 1, 1), (std::array<int, 4>{0, 0, 0, 0}));
}

TEST(Composite, ZeroOpacityChangesNothing) {
  Image target = filled(1, 1, {1, 2, 3, 4});
  composite_over(target, filled(1, 1, {255, 255, 255, 255}), 0, 0, 0);
  EXPECT_EQ(at(target, 0, 0), (std::array<int, 4>{1, 2, 3, 4}));
}

}  // namespace
}  // namespace mf::imaging
