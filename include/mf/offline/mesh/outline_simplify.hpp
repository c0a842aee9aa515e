#pragma once
// Douglas–Peucker simplification of an auto mesh's outline loops that keeps them valid: no loop
// crosses or touches itself or another, and given points (the opaque pixel centres) stay inside.
//
// The loops are those of trace_contours (marching_squares.hpp): the region lies on each loop's right
// on screen. The tolerance is one-sided: a simplified edge may pass up to `outward` pixels outside
// the traced points it replaces (the region grows) but only `inward` pixels inside them (the region
// shrinks), so an outline traced `padding` pixels outside the art, simplified with inward ≤ padding,
// does not cut into the art; nor at the image's border, where the outline is the border itself.

#include <cstddef>
#include <span>
#include <vector>

#include "mf/core/math/vec2.hpp"

namespace mf::offline {

struct OutlineTolerance {
  double outward = 1;  // pixels
  double inward = 0;   // pixels
  // The image's size: traced points on its border (x = 0 or width, y = 0 or height) lie on the art's
  // edge, not `padding` outside it, so no edge may pass inside them. {0, 0}: no border.
  Vec2d frame;
};

// The indices of the points Douglas–Peucker keeps of one closed loop, in loop order: it starts from
// the point farthest from the loop's bounding-box centre and the point farthest from that, and
// splits each chain at the point that exceeds its side's tolerance by the most (by more than 1e-9).
// At least three points are kept (all of a shorter loop).
std::vector<std::size_t> simplify_loop(std::span<const Vec2d> loop, OutlineTolerance tolerance);

// Every loop simplified, then repaired: while a simplified edge crosses or touches another (of any
// loop), or one of `keep_inside` is outside the region the simplified loops bound (even-odd rule),
// the offending edges get back the traced point that lies farthest from them. With every point
// back, the loops are the traced ones, which are valid; so this ends.
std::vector<std::vector<Vec2d>> simplify_outline(const std::vector<std::vector<Vec2d>>& loops,
                                                 OutlineTolerance tolerance, std::span<const Vec2d> keep_inside);

// Whether `p` is inside the region the loops bound (even-odd rule; a point on an edge may go either way).
bool inside_loops(const std::vector<std::vector<Vec2d>>& loops, Vec2d p);

}  // namespace mf::offline
