#pragma once
// Marching squares: the closed contours where a field sampled at pixel centres crosses 0, at
// sub-pixel positions (linear interpolation along the grid edges). The auto mesh traces its alpha
// region with it (alpha_region.hpp makes the field).

#include <span>
#include <vector>

#include "mf/core/math/vec2.hpp"

namespace mf::offline {

// A field sampled at pixel centres: values[y · width + x] is the value at (x + 0.5, y + 0.5).
// A sample is inside when its value is > 0.
struct PixelField {
  int width = 0, height = 0;
  std::vector<double> values;

  double at(int x, int y) const {
    return values[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)];
  }
  bool inside(int x, int y) const { return at(x, y) > 0; }
};

// Every contour as a closed loop of points (the last point joins the first), in pixel coordinates
// (x right, y down). Loops run with the inside on their right on screen: outer boundaries clockwise
// (positive signed_area), holes counter-clockwise (negative).
//
// Saddle cells (two diagonal corners inside, two outside) always join the inside corners, so a
// loop bounds one 8-connected piece of inside samples (count_pieces counts the same pieces) and
// outside samples are 4-connected. Crossings sit strictly between the two samples of their edge
// (at least 1/64 pixel from either), so no two loops share a point and no loop crosses itself or
// another. Beyond the grid the field is the negated mirror of the sample next to it: a contour
// leaving the image runs along its border exactly (at x = 0, x = width, y = 0 or y = height), with the
// image's corner as a point where it turns there, so an inside sample on the border is inside by
// half a pixel.
std::vector<std::vector<Vec2d>> trace_contours(const PixelField& field);

// The 8-connected pieces of inside samples.
int count_pieces(const PixelField& field);

// The shoelace area in pixel coordinates: positive for loops clockwise on a y-down screen.
double signed_area(std::span<const Vec2d> loop);

}  // namespace mf::offline
