#pragma once
// Interior points of an auto mesh: a hexagonal lattice (rows `spacing` · √3/2 apart, every other
// row shifted by half a spacing, so neighbours form equilateral triangles) laid over the region the
// outline loops bound, keeping the points well inside it.

#include <vector>

#include "mf/core/math/vec2.hpp"

namespace mf::offline {

// The lattice points inside the loops (even-odd rule) and at least `clearance` from every loop
// edge, row by row from the top, left to right. The lattice is centred on the loops' bounding box
// (a point sits at its centre), so the points do not depend on where the art sits in its image.
std::vector<Vec2d> interior_lattice(const std::vector<std::vector<Vec2d>>& loops, double spacing, double clearance);

}  // namespace mf::offline
