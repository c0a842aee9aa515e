#include "mf/core/math/hypot.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include <gtest/gtest.h>

namespace mf {
namespace {

std::uint32_t bits(float v) {
  std::uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// hypot_float is std::hypot, bit for bit: pose values, random bit patterns (huge and subnormal values
// included), and the non-finite cases.
TEST(HypotFloat, EqualsStdHypotBitForBit) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> pose(-4000.0f, 4000.0f);
  std::uniform_int_distribution<std::uint32_t> any;
  int compared = 0;
  for (int i = 0; i < 2'000'000; ++i) {
    float x, y;
    if (i % 2 == 0) {
      x = pose(rng);
      y = i % 6 == 0 ? pose(rng) * 1e-4f : pose(rng);
    } else {
      const std::uint32_t a = any(rng), b = any(rng);
      std::memcpy(&x, &a, sizeof x);
      std::memcpy(&y, &b, sizeof y);
      if (!std::isfinite(x) || !std::isfinite(y)) continue;
    }
    ASSERT_EQ(bits(hypot_float(x, y)), bits(std::hypot(x, y))) << x << " " << y;
    ++compared;
  }
  EXPECT_GT(compared, 1'500'000);
  constexpr float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(hypot_float(inf, nan), inf);
  EXPECT_EQ(hypot_float(-3.0f, inf), inf);
  EXPECT_TRUE(std::isnan(hypot_float(nan, 1.0f)));
  EXPECT_EQ(bits(hypot_float(0.0f, -0.0f)), bits(0.0f));
  EXPECT_EQ(hypot_float(3e38f, 3e38f), std::hypot(3e38f, 3e38f));
}

}  // namespace
}  // namespace mf
