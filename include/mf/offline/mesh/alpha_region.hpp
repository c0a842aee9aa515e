#pragma once
// The region an auto mesh covers, as a field for marching squares (marching_squares.hpp): the
// image's opaque pixels (alpha at or above a threshold) grown by the padding, and, when that leaves
// several separate pieces, joined into one by a morphological closing.
//
// Growing: the field is padding + 0.5 − the distance from the sample to the nearest opaque pixel
// centre (distance_transform.hpp), so its 0 contour runs `padding` pixels outside the opaque
// pixels' outer edges (exactly so along straight runs of pixels; rounder at corners).
//
// Joining: islands farther apart than twice the padding would trace as separate outlines, and a
// mesh has one hull. The grown region is then closed with a disc of radius R (grown by R more,
// then shrunk by R, both also beyond the image's border up to a margin of the longest image side:
// the shrink keeps the outline tight around each island and leaves bridges where the islands face
// each other) and the field is the larger of the grown field and (distance to the closed-off
// outside − R). R is the smallest radius found that makes the inside one 8-connected piece
// (count_pieces): the search starts from the growth that alone would join the islands (less the
// reach; the closing lies inside that growth, so R is no less), grows by half until the islands
// join, then bisects five times; past twice the image's diagonal the whole image is the region.
// Enclosed gaps between bridges stay holes of the region.

#include <cstdint>
#include <vector>

#include "mf/imaging/image.hpp"
#include "mf/offline/mesh/marching_squares.hpp"

namespace mf::offline {

struct AlphaRegion {
  PixelField field;                  // > 0 inside; the outline is its 0 contour
  std::vector<std::uint8_t> opaque;  // per pixel, rows top to bottom: alpha at or above the threshold
  std::size_t opaque_count = 0;      // 0: nothing to mesh (the field is then negative everywhere)
  double join_radius = 0;            // R of the closing that joined the islands; 0 when none was needed
};

// `padding` must be >= 0 and finite, `alpha_threshold` from 1 to 255 (auto_mesh checks both).
AlphaRegion alpha_region(const imaging::Image& image, int alpha_threshold, double padding);

}  // namespace mf::offline
