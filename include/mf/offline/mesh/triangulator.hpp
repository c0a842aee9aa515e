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
// domain and may only meet other constraints at shared points. A constraint that passes exactly
// through another point is split there (it becomes two constrained edges meeting at that point).
// Every point must lie in the domain (or on its boundary).
struct PlanarDomain {
  std::vector<Vec2d> points;
  std::vector<std::vector<std::uint32_t>> loops;
  std::vector<std::array<std::uint32_t, 2>> edges;
};

struct RefineOptions {
  bool refine = true;       // false: the constrained Delaunay triangulation of the input points alone
  double min_angle = 20;    // degrees; at most 30 (beyond it refinement may not end)
  double max_area = 0;      // largest triangle area; 0 for no limit
  // Vertex budget including the input points; 0 for no limit other than a guard of 2^20 points.
  // Refinement fixes the worst triangles first (encroached segments, then the smallest angles, then
  // the largest areas), so a budget that stops it early leaves the best mesh it could reach.
  int max_points = 0;
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

// Errors name the offending points or edges by index: points that are not finite or at the same
// place, loops with fewer than three points, visiting a point twice or naming a point that does not
// exist, an edge joining a point to itself, crossing constraints, points or interior edges outside
// the domain, an empty domain, options out of range. Their file and path are left empty for the
// caller to fill in.
//
// With refinement, every triangle's smallest angle is at least min_angle except in an input corner
// sharper than 40° (triangles whose smallest angle sits at that corner, or whose shortest edge joins
// points at equal distances on the corner's two segments when it is sharper than 60°), and every
// triangle is at most max_area, unless the budget stopped refinement first.
Expected<ConstrainedTriangulation> triangulate_domain(const PlanarDomain& domain, const RefineOptions& options = {});

// Ear clipping of the same domain (holes joined to their outline by bridge edges): the baseline
// the refined triangulation is measured against. Only the loops' points are used. Triangles are
// counter-clockwise; a loop inside an odd number of others is a hole of the innermost one around it.
Expected<std::vector<std::array<std::uint32_t, 3>>> ear_clip_domain(const PlanarDomain& domain);

// The smallest angle of each triangle, counted in bins of `bin_degrees` (bin i holds angles in
// [i·bin, (i+1)·bin)); the last bin is the one that holds 60°. Angles are rounded to 1e-9° first (an
// equilateral triangle counts as 60°); bin_degrees is clamped to [0.01, 60] (5 when not finite).
struct AngleHistogram {
  double bin_degrees = 5;
  std::vector<int> counts;
  double smallest = 0;  // the smallest angle of all, in degrees
};
AngleHistogram min_angle_histogram(std::span<const Vec2d> points, std::span<const std::array<std::uint32_t, 3>> triangles,
                                   double bin_degrees = 5);

}  // namespace mf::offline
