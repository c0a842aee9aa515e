#pragma once
// The region a 2D triangle mesh covers, for deciding what a vertex can see: whether a point lies in
// some triangle, and whether a straight segment stays inside the mesh all the way. A segment leaves
// the mesh only through its boundary (the edges used by one triangle), either by crossing a boundary
// edge or by passing through a boundary vertex; so it stays inside when it crosses no boundary edge
// and each piece between the boundary vertices it touches has its middle inside a triangle.
// Touching the boundary (ending on it, running along it) counts as inside.

#include <array>
#include <span>
#include <vector>

#include "mf/core/math/vec2.hpp"

namespace mf::offline {

class MeshInterior {
 public:
  // `proper` marks the triangles of positive area (cotangent_laplacian's); only they cover points,
  // but every triangle counts when deciding which edges are boundary edges (a zero-area sliver between
  // two triangles does not open the mesh). `tolerance` is the distance within which a point counts
  // as on a triangle or on a segment.
  MeshInterior(std::span<const Vec2d> positions, std::span<const std::array<int, 3>> triangles,
               const std::vector<bool>& proper, double tolerance);

  bool covers(Vec2d p) const;
  bool segment_inside(Vec2d from, Vec2d to) const;

 private:
  std::vector<std::array<Vec2d, 3>> covering_;       // the proper triangles' corners
  std::vector<std::array<Vec2d, 2>> boundary_;       // boundary edges
  double tolerance_;
  // A uniform grid over the covering triangles' bounds: each cell lists the triangles whose bounds
  // overlap it.
  Vec2d grid_min_{}, cell_{1, 1};
  int columns_ = 1, rows_ = 1;
  std::vector<std::vector<int>> cells_;

  int cell_index(int column, int row) const { return row * columns_ + column; }
};

// The point of segment [a, b] nearest to p (a when the segment is a point).
Vec2d closest_point_on_segment(Vec2d p, Vec2d a, Vec2d b);

}  // namespace mf::offline
