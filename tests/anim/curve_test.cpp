#include "mf/anim/curve.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace mf::anim {
namespace {

// Ten linear pieces of a bezier whose x controls lie in [0, 1] stay within this of the exact curve
// (value fraction units) for the easing curves animators use...
constexpr float kPieceTolerance = 0.02f;
// ...and within this for the extreme (1, 0, 0, 1), whose slope is infinite at the middle.
constexpr float kExtremeTolerance = 0.06f;

TEST(Curve, PreSampledBezierFollowsTheExactSolve) {
  const float curves[][4] = {{0.25f, 0.1f, 0.25f, 1}, {0.42f, 0, 0.58f, 1}, {0, 0, 1, 1}, {0.5f, -0.5f, 0.5f, 1.5f},
                             {0.1f, 0.9f, 0.2f, 1}, {0.33f, 0.33f, 0.66f, 0.66f}};
  for (const auto& c : curves) {
    const BezierSamples b = sample_bezier(c[0], c[1], c[2], c[3]);
    float worst = 0;
    for (int i = 0; i <= 1000; ++i) {
      const float x = static_cast<float>(i) / 1000;
      const float exact = evaluate_bezier_exact(c[0], c[1], c[2], c[3], x);
      worst = std::max(worst, std::fabs(evaluate(b, x) - exact));
    }
    EXPECT_LT(worst, kPieceTolerance) << c[0] << " " << c[1] << " " << c[2] << " " << c[3];
  }
}

TEST(Curve, ExtremeBezierStaysWithinItsTolerance) {
  const BezierSamples b = sample_bezier(1, 0, 0, 1);
  for (int i = 0; i <= 1000; ++i) {
    const float x = static_cast<float>(i) / 1000;
    EXPECT_NEAR(evaluate(b, x), evaluate_bezier_exact(1, 0, 0, 1, x), kExtremeTolerance) << x;
  }
}

TEST(Curve, EndPointsAreExact) {
  const BezierSamples b = sample_bezier(0.25f, 0.1f, 0.25f, 1);
  EXPECT_FLOAT_EQ(evaluate(b, 0), 0);
  EXPECT_FLOAT_EQ(evaluate(b, 1), 1);
}

TEST(Curve, LinearBezierIsLinear) {
  const BezierSamples b = sample_bezier(1.0f / 3, 1.0f / 3, 2.0f / 3, 2.0f / 3);
  for (int i = 0; i <= 20; ++i) {
    const float x = static_cast<float>(i) / 20;
    EXPECT_NEAR(evaluate(b, x), x, 1e-5f);
  }
}

TEST(Curve, ExactSolveMatchesKnownPoint) {
  // CSS "ease" at x = 0.5 is about 0.8024.
  EXPECT_NEAR(evaluate_bezier_exact(0.25f, 0.1f, 0.25f, 1, 0.5f), 0.8024f, 1e-3f);
}

}  // namespace
}  // namespace mf::anim
