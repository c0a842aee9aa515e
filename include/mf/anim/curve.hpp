#pragma once
// Segment curves as the runtime evaluates them. A bezier is pre-sampled at build time into
// kBezierPieces linear pieces, so evaluation is a short scan and a lerp, never a cubic solve.

#include <array>
#include <cstddef>
#include <cstdint>

namespace mf::anim {

inline constexpr int kBezierPieces = 10;

// Points of a normalised bezier (from (0, 0) to (1, 1), control points (cx1, cy1) and (cx2, cy2)) at
// parameters s = k / kBezierPieces, k = 1 … kBezierPieces − 1 (the end points are implicit).
struct BezierSamples {
  std::array<float, kBezierPieces - 1> x;
  std::array<float, kBezierPieces - 1> y;
};

// Samples the bezier. cx1 and cx2 must be in [0, 1] (so x(s) is monotonic).
BezierSamples sample_bezier(float cx1, float cy1, float cx2, float cy2);

// The value fraction at time fraction `x` in [0, 1], from the pre-sampled pieces. Inline: every
// bezier segment of every timeline calls it every frame.
inline float evaluate(const BezierSamples& b, float x) {
  float x0 = 0, y0 = 0;
  for (std::size_t k = 0; k < b.x.size(); ++k) {
    if (x <= b.x[k]) {
      const float span = b.x[k] - x0;
      return span > 0 ? y0 + (b.y[k] - y0) * (x - x0) / span : b.y[k];
    }
    x0 = b.x[k];
    y0 = b.y[k];
  }
  const float span = 1 - x0;
  return span > 0 ? y0 + (1 - y0) * (x - x0) / span : 1;
}

// Exact evaluation (solves x(s) = x by bisection): for tests and tools, not for frames.
float evaluate_bezier_exact(float cx1, float cy1, float cx2, float cy2, float x);

// How a compiled segment interpolates: linear, stepped, or the bezier with index
// (code − kCurveBezierBase) in the clip's bezier table.
inline constexpr std::uint32_t kCurveLinear = 0;
inline constexpr std::uint32_t kCurveStepped = 1;
inline constexpr std::uint32_t kCurveBezierBase = 2;

}  // namespace mf::anim
