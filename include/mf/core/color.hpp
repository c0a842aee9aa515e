#pragma once
// Colours as stored in files and poses: 8 bits per channel, straight (not premultiplied) alpha.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mf {

struct Rgba8 {
  std::uint8_t r = 255, g = 255, b = 255, a = 255;

  friend bool operator==(const Rgba8&, const Rgba8&) = default;

  static constexpr Rgba8 white() { return {255, 255, 255, 255}; }
  static constexpr Rgba8 black() { return {0, 0, 0, 255}; }
};

// Parses "#rrggbb" (alpha 255) or "#rrggbbaa", hex digits in either case. Empty on anything else.
std::optional<Rgba8> parse_hex_color(std::string_view text);
// Parses exactly "#rrggbb"; alpha is 255.
std::optional<Rgba8> parse_hex_rgb(std::string_view text);
// "#rrggbbaa" in lower case.
std::string to_hex_rgba(Rgba8 c);
// "#rrggbb" in lower case; alpha is not written.
std::string to_hex_rgb(Rgba8 c);

}  // namespace mf
