#pragma once
// Auto mesh: an image's alpha becomes a well-shaped triangle mesh. The alpha is traced with marching
// squares at a threshold, the outline simplified with Douglas–Peucker, interior points placed on a
// grid, and the whole triangulated with the refining constrained Delaunay triangulator. One mesh
// per image: separate islands of opaque pixels are enclosed by one hull (the outline of the alpha
// after a dilation that joins them, shrunk back where no bridge is needed: a closing), and holes
// become constrained loops with no triangles inside.
//
// The steps, each in its own file:
//   alpha_region.hpp      opaque pixels (alpha >= threshold) grown by the padding; islands that stay
//                         apart are joined by a closing (grow, then shrink, by the smallest radius that
//                         makes them one 8-connected piece), so one outline encloses them all
//   marching_squares.hpp  the region's outline and its holes at sub-pixel positions; holes whose
//                         bounding box is smaller than the grid spacing both ways are filled (dropped)
//   outline_simplify.hpp  Douglas–Peucker: the outline may move up to `outward_tolerance` away from the
//                         art but only `inward_tolerance` (at most the padding) towards it, and not at
//                         all where it runs along the image's border; loops never cross and every
//                         opaque pixel centre stays inside
//   then                  outline edges longer than the grid spacing are split evenly
//   interior_points.hpp   a hexagonal lattice of the grid spacing, points at least half a spacing from
//                         the outline
//   triangulator.hpp      constrained Delaunay with refinement: smallest angle 20° (except at input
//                         corners sharper than 40°), vertex budget 4 × the points given to it plus one
//                         per pixel of outline length (thin parts need points about their width apart)
//
// Every opaque pixel's centre is covered by a triangle. Deterministic: the same image and options
// give the same mesh.

#include <array>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/core/math/vec2.hpp"
#include "mf/imaging/image.hpp"
#include "mf/offline/mesh/triangulator.hpp"

namespace mf::offline {

struct AutoMeshOptions {
  // How fine the mesh is, 0.1 to 10 (1 is the default). Sets the grid spacing of interior points,
  // the outline's simplification tolerance and the vertex budget (auto_mesh_scale).
  double density = 1;
  int alpha_threshold = 1;  // a pixel is inside when its alpha is at least this (1 to 255)
  double padding = 2;       // pixels between the alpha's edge and the outline, >= 0
};

// The sizes the options give for an image of this size, in pixels:
//   spacing           = max(longest image side / (6 · density), 4): interior lattice spacing and
//                       longest outline edge (density 1 puts about six points across the longest side)
//   outward_tolerance = max(spacing / 8, 0.5): how far simplification may move the outline outwards
//   inward_tolerance  = min(outward_tolerance, padding): and inwards, towards the art
struct AutoMeshScale {
  double spacing = 0;
  double outward_tolerance = 0;
  double inward_tolerance = 0;
};
AutoMeshScale auto_mesh_scale(int width, int height, const AutoMeshOptions& options);

struct AutoMesh {
  // Vertex positions in image pixels (x right, y down, (0, 0) the image's top-left corner); the
  // first `hull` vertices are the outline, in order (clockwise on screen).
  std::vector<Vec2d> positions;
  int hull = 0;
  // Counter-clockwise in a y-up frame, as the triangulator gives them (clockwise on screen).
  std::vector<std::array<int, 3>> triangles;
  // Constrained edges as vertex index pairs: the hull's loop (hull[i], hull[i + 1]) first, then the
  // holes' loops.
  std::vector<std::array<int, 2>> edges;
  double join_radius = 0;  // the closing radius that joined separate islands (alpha_region.hpp); 0 for none
};

// An image with no pixel at or above the threshold is an error, as are options out of range.
Expected<AutoMesh> auto_mesh(const imaging::Image& image, const AutoMeshOptions& options = {});

// The mesh's hull and hole loops (from its constrained edges) as a domain with the mesh's points:
// what the mesh triangulates, for comparisons such as ear clipping the same outline.
PlanarDomain outline_domain(const AutoMesh& mesh);

}  // namespace mf::offline
