#include "size_option.hpp"

namespace mf::tools {

bool parse_size(const std::string& text, int min_side, int max_side, int& width, int& height) {
  const std::size_t x = text.find_first_of("xX");
  if (x == std::string::npos || x == 0 || x + 1 >= text.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (i != x && (text[i] < '0' || text[i] > '9')) return false;
  if (x > 5 || text.size() - x - 1 > 5) return false;
  width = std::stoi(text.substr(0, x));
  height = std::stoi(text.substr(x + 1));
  return width >= min_side && width <= max_side && height >= min_side && height <= max_side;
}

}  // namespace mf::tools
