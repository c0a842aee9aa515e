#pragma once
// Exact geometric predicates for triangulation: the sign of the orientation and in-circle
// determinants is always right, whatever rounding the plain formula would suffer. Adaptive in
// Shewchuk's sense ("Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric
// Predicates", 1997): the determinant is first evaluated in doubles with a forward error bound, and
// only when the bound cannot decide the sign is it recomputed exactly with floating-point
// expansions (sums of non-overlapping doubles).
//
// Exact for every finite input whose products neither overflow nor underflow (coordinates of
// magnitude between about 1e-70 and 1e70).

#include "mf/core/math/vec2.hpp"

namespace mf::offline {

// Twice the signed area of (a, b, c): positive when counter-clockwise (y up), negative when
// clockwise, zero exactly when the three points are collinear. The sign is exact; the magnitude is
// the double evaluation when that already decides the sign, otherwise an approximation of the exact
// value.
double orient2d(Vec2d a, Vec2d b, Vec2d c);

// Positive when d lies strictly inside the circumcircle of the counter-clockwise triangle (a, b, c),
// negative when strictly outside, zero exactly when the four points are cocircular. Sign exact as
// for orient2d (the sign flips for a clockwise triangle).
double in_circle(Vec2d a, Vec2d b, Vec2d c, Vec2d d);

// The plain double formulas, without the error bound: kept for comparison in tests and benchmarks.
// Their sign can be wrong for nearly degenerate input.
double orient2d_inexact(Vec2d a, Vec2d b, Vec2d c);
double in_circle_inexact(Vec2d a, Vec2d b, Vec2d c, Vec2d d);

}  // namespace mf::offline
