#pragma once
// The size of a PNG from its header, without decoding it.

#include <string>
#include <string_view>

#include "mf/core/expected.hpp"

namespace mf::offline {

struct PngSize {
  int width = 0, height = 0;
};

// Reads the IHDR chunk. A file that is not a PNG, or is truncated, is an error naming it.
Expected<PngSize> read_png_size(const std::string& path);
Expected<PngSize> parse_png_size(std::string_view bytes, const std::string& file);

}  // namespace mf::offline
