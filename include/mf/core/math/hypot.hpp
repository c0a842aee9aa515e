#pragma once
// The length of (x, y) in float, for hot loops: the float std::hypot gives, without its call. For
// finite inputs the squares are exact in double and their sum is rounded once; its root rounded to
// float is what std::hypot returns (tests/core/hypot_test.cpp compares them bit for bit on pose values
// and random bit patterns); infinities and NaN go to std::hypot.

#include <cmath>

namespace mf {

inline float hypot_float(float x, float y) {
  const double sum = static_cast<double>(x) * x + static_cast<double>(y) * y;
  if (!std::isfinite(sum)) return std::hypot(x, y);
  return static_cast<float>(std::sqrt(sum));
}

}  // namespace mf
