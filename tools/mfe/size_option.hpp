#pragma once
// "WIDTHxHEIGHT" options (--size) shared by the commands that render.

#include <string>

namespace mf::tools {

// Parses "WxH" (digits only, at most five each) with both sides in [min_side, max_side].
bool parse_size(const std::string& text, int min_side, int max_side, int& width, int& height);

}  // namespace mf::tools
