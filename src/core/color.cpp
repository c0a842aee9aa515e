#include "mf/core/color.hpp"

namespace mf {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::uint8_t> hex_byte(std::string_view two) {
  const int hi = hex_digit(two[0]);
  const int lo = hex_digit(two[1]);
  if (hi < 0 || lo < 0) return std::nullopt;
  return static_cast<std::uint8_t>(hi * 16 + lo);
}

void append_hex_byte(std::string& out, std::uint8_t v) {
  constexpr char digits[] = "0123456789abcdef";
  out += digits[v >> 4];
  out += digits[v & 15];
}

}  // namespace

std::optional<Rgba8> parse_hex_color(std::string_view text) {
  if (text.size() != 7 && text.size() != 9) return std::nullopt;
  if (text[0] != '#') return std::nullopt;
  Rgba8 c;
  std::uint8_t* channels[] = {&c.r, &c.g, &c.b, &c.a};
  const std::size_t count = (text.size() - 1) / 2;
  for (std::size_t i = 0; i < count; ++i) {
    auto byte = hex_byte(text.substr(1 + 2 * i, 2));
    if (!byte) return std::nullopt;
    *channels[i] = *byte;
  }
  return c;
}

std::optional<Rgba8> parse_hex_rgb(std::string_view text) {
  if (text.size() != 7) return std::nullopt;
  return parse_hex_color(text);
}

std::string to_hex_rgba(Rgba8 c) {
  std::string out = "#";
  for (std::uint8_t v : {c.r, c.g, c.b, c.a}) append_hex_byte(out, v);
  return out;
}

std::string to_hex_rgb(Rgba8 c) {
  std::string out = "#";
  for (std::uint8_t v : {c.r, c.g, c.b}) append_hex_byte(out, v);
  return out;
}

}  // namespace mf
