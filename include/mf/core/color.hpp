#pragma once
// Colours in file formats: parsing and writing "#rrggbb[aa]". The colour types themselves are in
// mf/core/math/color.hpp.

#include <optional>
#include <string>
#include <string_view>

#include "mf/core/math/color.hpp"

namespace mf {

// Parses "#rrggbb" (alpha 255) or "#rrggbbaa", hex digits in either case. Empty on anything else.
std::optional<Rgba8> parse_hex_color(std::string_view text);
// Parses exactly "#rrggbb"; alpha is 255.
std::optional<Rgba8> parse_hex_rgb(std::string_view text);
// "#rrggbbaa" in lower case.
std::string to_hex_rgba(Rgba8 c);
// "#rrggbb" in lower case; alpha is not written.
std::string to_hex_rgb(Rgba8 c);

}  // namespace mf
