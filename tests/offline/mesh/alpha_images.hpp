#pragma once
// Test images for the auto mesh: shapes drawn with a given alpha on a transparent image. A pixel is
// painted when its centre lies in the shape.

#include <cmath>
#include <functional>

#include "mf/imaging/image.hpp"

namespace mf::testing {

inline imaging::Image shape_image(int width, int height, const std::function<bool(double, double)>& inside,
                                  std::uint8_t alpha = 255) {
  imaging::Image image = imaging::Image::blank(width, height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      if (inside(x + 0.5, y + 0.5)) {
        std::uint8_t* p = image.pixel(x, y);
        p[0] = 200, p[1] = 120, p[2] = 40, p[3] = alpha;
      }
  return image;
}

inline bool in_disc(double x, double y, double cx, double cy, double r) { return std::hypot(x - cx, y - cy) <= r; }

inline imaging::Image disc_image(int size, double radius) {
  return shape_image(size, size, [=](double x, double y) { return in_disc(x, y, size / 2.0, size / 2.0, radius); });
}

// A disc with a round hole in the middle.
inline imaging::Image ring_image(int size, double outer, double inner) {
  return shape_image(size, size, [=](double x, double y) {
    const double d = std::hypot(x - size / 2.0, y - size / 2.0);
    return d <= outer && d >= inner;
  });
}

}  // namespace mf::testing
