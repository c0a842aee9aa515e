#pragma once
// Clipping against a polygon that may be concave: the polygon is split into convex pieces (ear
// clipping, then merging triangles across diagonals while the result stays convex, Hertel–Mehlhorn),
// and each triangle is clipped against each piece with Sutherland–Hodgman. All scratch memory is sized
// at construction; clipping allocates nothing.

#include <cstdint>
#include <span>
#include <vector>

namespace mf::skel {

class PolygonClipper {
 public:
  // Room for polygons of up to `max_polygon_vertices` vertices.
  explicit PolygonClipper(std::size_t max_polygon_vertices = 64);

  // Sets the clip polygon (x, y pairs, either winding). Returns false for fewer than 3 vertices or a
  // degenerate (zero-area) polygon; clipping then produces nothing.
  bool set_polygon(std::span<const float> xy);

  // The convex pieces of the current polygon, each as x, y pairs.
  std::size_t piece_count() const;
  std::span<const float> piece(std::size_t i) const;

  // Clips one triangle against every piece, calling `emit(xy)` for each non-empty convex output
  // polygon (x, y pairs, at most piece vertices + 3 vertices). Also reports barycentric weights of each
  // output vertex relative to the triangle through `emit`'s second argument (3 floats per vertex) so
  // callers can interpolate UVs and colours.
  template <class Emit>
  void clip_triangle(const float* a, const float* b, const float* c, Emit&& emit);

 private:
  std::size_t clip_against_piece(std::size_t piece, std::size_t count);
  std::vector<float> polygon_;
  std::vector<float> pieces_;                 // concatenated x, y pairs
  std::vector<std::uint32_t> piece_offsets_;  // piece i: [offsets[i], offsets[i+1]) in vertices
  std::vector<float> work_a_, work_b_;        // x, y, wa, wb, wc per vertex
  std::vector<std::uint32_t> scratch_;
};

}  // namespace mf::skel

#include "mf/skel/clipping_inl.hpp"
