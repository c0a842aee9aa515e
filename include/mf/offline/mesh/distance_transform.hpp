#pragma once
// Exact Euclidean distance transform of a grid (Felzenszwalb and Huttenlocher, "Distance
// Transforms of Sampled Functions", 2012): for every cell, the distance between its centre and
// the centre of the nearest marked cell, in cells. Linear time: one pass of the lower envelope of
// parabolas along the columns, one along the rows.

#include <cstdint>
#include <span>
#include <vector>

namespace mf::offline {

// `marked` holds width × height flags, rows top to bottom. A grid with no marked cell gives
// +infinity everywhere.
std::vector<double> distance_to_marked(int width, int height, std::span<const std::uint8_t> marked);

}  // namespace mf::offline
