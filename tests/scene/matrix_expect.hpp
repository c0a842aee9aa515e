#pragma once
// Element-wise comparisons of transforms within 1e-5, with the element named on failure.

#include <gtest/gtest.h>

#include "mf/core/math/affine2.hpp"
#include "mf/core/math/mat4.hpp"

namespace mf::scene::testing {

inline constexpr float kTolerance = 1e-5f;

inline void expect_near(const Affine2& got, const Affine2& want, float tolerance = kTolerance) {
  EXPECT_NEAR(got.a, want.a, tolerance) << "a";
  EXPECT_NEAR(got.b, want.b, tolerance) << "b";
  EXPECT_NEAR(got.c, want.c, tolerance) << "c";
  EXPECT_NEAR(got.d, want.d, tolerance) << "d";
  EXPECT_NEAR(got.x, want.x, tolerance) << "x";
  EXPECT_NEAR(got.y, want.y, tolerance) << "y";
}

inline void expect_near(const Mat4& got, const Mat4& want, float tolerance = kTolerance) {
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) EXPECT_NEAR(got.at(r, c), want.at(r, c), tolerance) << "row " << r << ", column " << c;
}

}  // namespace mf::scene::testing
