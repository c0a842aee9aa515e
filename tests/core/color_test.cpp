#include "mf/core/color.hpp"

#include <gtest/gtest.h>

namespace mf {
namespace {

TEST(Color, ParsesSixAndEightDigitsInEitherCase) {
  EXPECT_EQ(parse_hex_color("#ffcc00"), (Rgba8{255, 204, 0, 255}));
  EXPECT_EQ(parse_hex_color("#FFcc0080"), (Rgba8{255, 204, 0, 128}));
  EXPECT_EQ(parse_hex_rgb("#010203"), (Rgba8{1, 2, 3, 255}));
}

TEST(Color, RejectsMalformedText) {
  for (const char* bad : {"", "#", "ffcc00", "#ffcc0", "#ffcc000", "#ffcc00aa0", "#gg0000", "#12345 "})
    EXPECT_FALSE(parse_hex_color(bad)) << bad;
  EXPECT_FALSE(parse_hex_rgb("#ffcc0080"));
}

TEST(Color, WritesLowerCaseHex) {
  EXPECT_EQ(to_hex_rgba({255, 204, 0, 128}), "#ffcc0080");
  EXPECT_EQ(to_hex_rgb({0xab, 0xcd, 0xef, 0}), "#abcdef");
}

TEST(Color, RoundTripsEveryByte) {
  for (int v = 0; v < 256; ++v) {
    const auto b = static_cast<std::uint8_t>(v);
    const Rgba8 c{b, static_cast<std::uint8_t>(255 - b), b, static_cast<std::uint8_t>(v / 2)};
    EXPECT_EQ(parse_hex_color(to_hex_rgba(c)), c);
  }
}

}  // namespace
}  // namespace mf
