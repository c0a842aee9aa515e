#pragma once
// The smallest rectangle holding two others: the one union every bounds computation shares (layer
// groups, trims, kept regions). An empty rectangle adds nothing; sums are taken in 64 bits so that
// rectangles near the int range do not overflow on the way.

#include <algorithm>

#include "mf/imaging/image.hpp"

namespace mf::imaging {

inline Rect united(const Rect& a, const Rect& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  const int x0 = std::min(a.x, b.x), y0 = std::min(a.y, b.y);
  const long long x1 = std::max(static_cast<long long>(a.x) + a.width, static_cast<long long>(b.x) + b.width);
  const long long y1 = std::max(static_cast<long long>(a.y) + a.height, static_cast<long long>(b.y) + b.height);
  return Rect{x0, y0, static_cast<int>(x1 - x0), static_cast<int>(y1 - y0)};
}

}  // namespace mf::imaging
