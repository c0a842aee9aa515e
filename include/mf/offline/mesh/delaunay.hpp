#pragma once
// Delaunay triangulation of a 2D point set (no constraint edges), for 2D blend spaces. Built on the
// constrained triangulator's core (triangulator.hpp): Lawson insertion with exact in-circle flips,
// then the convex hull recovered as a loop of constrained edges so that only its triangles remain.
// Every decision uses the exact predicates of robust_predicates.hpp.
//
// Deterministic: the same points in the same order give the same triangles, in the same order.
// Collinear points inside the point set are fine (they become vertices of thin triangles' edges);
// duplicate points (closer than 1e-9 of the set's extent), fewer than three points or all points
// exactly on one line are errors.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/core/math/vec2.hpp"
#include "mf/offline/mesh/robust_predicates.hpp"

namespace mf::offline {

struct Triangulation {
  // Indices into the input points, each triangle counter-clockwise in a y-up frame (positive signed
  // area), rotated so its smallest index comes first; triangles sorted by their indices.
  std::vector<std::array<std::uint32_t, 3>> triangles;
  // The convex hull as edges (a, b) counter-clockwise, starting at the point with the smallest x (then
  // y). Points lying on a hull edge are hull vertices too, so consecutive edges may be collinear.
  std::vector<std::array<std::uint32_t, 2>> hull;
};

// The error's message names the offending points by index (its file and path are left empty for the
// caller to fill in).
Expected<Triangulation> delaunay_triangulate(std::span<const Vec2d> points);

}  // namespace mf::offline
