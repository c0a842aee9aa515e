#pragma once
// Colours, straight (not premultiplied) alpha: Rgba8, 8 bits per channel as stored in files and in
// rig data, and ColorF, float channels in 0..1 as poses, blending and drawing use. Parsing and writing
// hex colours for file formats is in mf/core/color.hpp.

#include <cstdint>

namespace mf {

struct Rgba8 {
  std::uint8_t r = 255, g = 255, b = 255, a = 255;

  friend bool operator==(const Rgba8&, const Rgba8&) = default;

  static constexpr Rgba8 white() { return {255, 255, 255, 255}; }
  static constexpr Rgba8 black() { return {0, 0, 0, 255}; }
};

struct ColorF {
  float r = 1, g = 1, b = 1, a = 1;
  friend bool operator==(const ColorF&, const ColorF&) = default;
};

// Each channel divided by 255.
constexpr ColorF to_color_f(Rgba8 c) { return {c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, c.a / 255.0f}; }

}  // namespace mf
