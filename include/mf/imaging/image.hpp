#pragma once
// Image: RGBA8 pixels with straight (not premultiplied) alpha, rows top to bottom, no padding
// between rows. The one pixel type every image operation, the atlas packer and the importers share.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mf::imaging {

// A pixel rectangle; empty when width or height is 0.
struct Rect {
  int x = 0, y = 0, width = 0, height = 0;

  bool empty() const { return width <= 0 || height <= 0; }
  bool operator==(const Rect&) const = default;
};

struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgba;  // width × height × 4 bytes

  // A transparent black image of this size.
  static Image blank(int width, int height);

  bool empty() const { return width <= 0 || height <= 0; }
  std::uint8_t* pixel(int x, int y) { return rgba.data() + (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 4; }
  const std::uint8_t* pixel(int x, int y) const { return rgba.data() + (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 4; }
  bool operator==(const Image&) const = default;
};

}  // namespace mf::imaging
