#pragma once
// Auto mesh: an image's alpha becomes a well-shaped triangle mesh. The alpha is traced with marching
// squares at a threshold, the outline simplified with Douglas–Peucker, interior points placed on a
// grid, and the whole triangulated with the refining constrained Delaunay triangulator. One mesh
// per image: separate islands of opaque pixels are enclosed by one hull (the outline of the alpha
// after a dilation that joins them), and holes become constrained loops with no triangles inside.

#include <array>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/core/math/vec2.hpp"
#include "mf/imaging/image.hpp"

namespace mf::offline {

struct AutoMeshOptions {
  // How fine the mesh is, 0.1 to 10 (1 is the default). Sets the grid spacing of interior points,
  // the outline's simplification tolerance and the vertex budget.
  double density = 1;
  int alpha_threshold = 1;  // a pixel is inside when its alpha is at least this (1 to 255)
  double padding = 2;       // pixels between the alpha's edge and the outline
};

struct AutoMesh {
  // Vertex positions in image pixels (x right, y down, (0, 0) the image's top-left corner); the
  // first `hull` vertices are the outline, in order.
  std::vector<Vec2d> positions;
  int hull = 0;
  std::vector<std::array<int, 3>> triangles;
  // Constrained edges as vertex index pairs: the hull's and the holes' loops.
  std::vector<std::array<int, 2>> edges;
};

// An image with no pixel at or above the threshold is an error.
Expected<AutoMesh> auto_mesh(const imaging::Image& image, const AutoMeshOptions& options = {});

}  // namespace mf::offline
