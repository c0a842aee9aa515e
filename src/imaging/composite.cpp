#include "mf/imaging/composite.hpp"

#include <algorithm>
#include <cmath>

namespace mf::imaging {

void composite_over(Image& target, const Image& layer, int x, int y, double opacity) {
  opacity = std::clamp(opacity, 0.0, 1.0);
  const int x0 = std::max(0, x), x1 = std::min(target.width, x + layer.width);
  const int y0 = std::max(0, y), y1 = std::min(target.height, y + layer.height);
  const auto to_byte = [](double v) { return static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0, 255.0))); };
  for (int ty = y0; ty < y1; ++ty) {
    for (int tx = x0; tx < x1; ++tx) {
      const std::uint8_t* s = layer.pixel(tx - x, ty - y);
      std::uint8_t* d = target.pixel(tx, ty);
      const double as = s[3] / 255.0 * opacity;
      if (as <= 0) continue;
      const double ad = d[3] / 255.0;
      // Straight alpha: blend the premultiplied colours, then divide by the resulting alpha.
      const double ao = as + ad * (1 - as);
      for (int c = 0; c < 3; ++c) d[c] = to_byte((s[c] * as + d[c] * ad * (1 - as)) / ao);
      d[3] = to_byte(ao * 255.0);
    }
  }
}

}  // namespace mf::imaging
