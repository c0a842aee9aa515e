#pragma once
// Segment curves as the runtime evaluates them. A bezier is pre-sampled at build time into
// kBezierPieces linear pieces, so evaluation is a short scan and a lerp, never a cubic solve.

#include <array>
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

// The value fraction at time fraction `x` in [0, 1], from the pre-sampled pieces.
float evaluate(const BezierSamples& b, float x);

// Exact evaluation (solves x(s) = x by bisection): for tests and tools, not for frames.
float evaluate_bezier_exact(float cx1, float cy1, float cx2, float cy2, float x);

// How a compiled segment interpolates: linear, stepped, or the bezier with index
// (code − kCurveBezierBase) in the clip's bezier table.
inline constexpr std::uint32_t kCurveLinear = 0;
inline constexpr std::uint32_t kCurveStepped = 1;
inline constexpr std::uint32_t kCurveBezierBase = 2;

}  // namespace mf::anim
