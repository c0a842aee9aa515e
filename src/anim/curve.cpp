#include "mf/anim/curve.hpp"

#include <cassert>

namespace mf::anim {
namespace {

// One coordinate of a cubic bezier from 0 to 1 with control values c1, c2.
float cubic(float c1, float c2, float s) {
  const float u = 1 - s;
  return 3 * u * u * s * c1 + 3 * u * s * s * c2 + s * s * s;
}

}  // namespace

BezierSamples sample_bezier(float cx1, float cy1, float cx2, float cy2) {
  BezierSamples b{};
  for (int k = 1; k < kBezierPieces; ++k) {
    const float s = static_cast<float>(k) / kBezierPieces;
    b.x[static_cast<std::size_t>(k - 1)] = cubic(cx1, cx2, s);
    b.y[static_cast<std::size_t>(k - 1)] = cubic(cy1, cy2, s);
  }
  return b;
}

float evaluate_bezier_exact(float cx1, float cy1, float cx2, float cy2, float x) {
  double lo = 0, hi = 1;
  for (int i = 0; i < 60; ++i) {
    const double mid = (lo + hi) / 2;
    const double u = 1 - mid;
    const double xm = 3 * u * u * mid * cx1 + 3 * u * mid * mid * cx2 + mid * mid * mid;
    (xm < x ? lo : hi) = mid;
  }
  const double s = (lo + hi) / 2, u = 1 - s;
  return static_cast<float>(3 * u * u * s * cy1 + 3 * u * s * s * cy2 + s * s * s);
}

}  // namespace mf::anim
