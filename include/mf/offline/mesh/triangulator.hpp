#pragma once
// Constrained Delaunay triangulation of a planar domain (outline loops, holes and interior
// constraint edges) with quality refinement, for meshes that deform well: every triangle's smallest
// angle at least `min_angle` except where an input corner is sharper, no slivers, an optional
// largest area and a vertex budget. All decisions rest on exact orientation and in-circle
// predicates (robust_predicates.hpp), so near-degenerate input never flips a result.
//
// Deterministic: the same input gives the same points and triangles, in the same order.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/core/math/vec2.hpp"

namespace mf::offline {

// The domain: every point (loop corners and free interior points), closed loops of point indices
// and interior constraint edges. A place is inside the domain when it lies inside an odd number of
// loops (even-odd rule), so the first loop may be an outline and the others its holes, or islands in
// those holes. Loops must not cross each other or themselves; interior edges must lie inside the
// domain and may only meet other constraints at shared points.
struct PlanarDomain {
  std::vector<Vec2d> points;
  std::vector<std::vector<std::uint32_t>> loops;
  std::vector<std::array<std::uint32_t, 2>> edges;
};

struct RefineOptions {
  bool refine = true;       // false: the constrained Delaunay triangulation of the input points alone
  double min_angle = 20;    // degrees; at most 30 (beyond it refinement may not end)
  double max_area = 0;      // largest triangle area; 0 for no limit
  int max_points = 0;       // vertex budget including the input points; 0 for no limit
};

struct ConstrainedTriangulation {
  // The input points first, in input order and unchanged, then the points refinement added.
  std::vector<Vec2d> points;
  // Counter-clockwise in a y-up frame (positive signed area), only triangles inside the domain.
  std::vector<std::array<std::uint32_t, 3>> triangles;
  // The constraint edges as they end up: loops' and interior edges, split where refinement put
  // points on them.
  std::vector<std::array<std::uint32_t, 2>> constrained;
};

// Errors name the offending points or edges by index: duplicate points, crossing constraints,
// loops with fewer than three points, an empty domain.
Expected<ConstrainedTriangulation> triangulate_domain(const PlanarDomain& domain, const RefineOptions& options = {});

// Ear clipping of the same domain (holes joined to their outline by bridge edges): the baseline
// the refined triangulation is measured against. Only the loops' points are used.
Expected<std::vector<std::array<std::uint32_t, 3>>> ear_clip_domain(const PlanarDomain& domain);

// The smallest angle of each triangle, counted in bins of `bin_degrees` (bin i holds angles in
// [i·bin, (i+1)·bin)); the last bin is the one that holds 60°.
struct AngleHistogram {
  double bin_degrees = 5;
  std::vector<int> counts;
  double smallest = 0;  // the smallest angle of all, in degrees
};
AngleHistogram min_angle_histogram(std::span<const Vec2d> points, std::span<const std::array<std::uint32_t, 3>> triangles,
                                   double bin_degrees = 5);

}  // namespace mf::offline
