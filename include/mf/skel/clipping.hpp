#pragma once
// Clipping against a polygon that may be concave: the polygon is split into convex pieces (ear
// clipping, then merging triangles across diagonals while the result stays convex, Hertel–Mehlhorn),
// and each triangle is clipped against each piece with Sutherland–Hodgman. All scratch memory is sized
// at construction; setting a polygon and clipping allocate nothing.

#include <cstdint>
#include <span>
#include <vector>

namespace mf::skel {

// A vertex of a clipped polygon: its position and its barycentric weights relative to the clipped
// triangle's corners (a, b, c), so callers can interpolate UVs and colours. wa + wb + wc = 1.
struct ClippedVertex {
  float x, y;
  float wa, wb, wc;
};

class PolygonClipper {
 public:
  // Room for polygons of up to `max_polygon_vertices` vertices (at least 3).
  explicit PolygonClipper(std::size_t max_polygon_vertices = 64);

  std::size_t capacity() const { return capacity_; }

  // Sets the clip polygon (x, y pairs, either winding; simple, possibly concave). Repeated and
  // collinear vertices are dropped. Returns false, leaving no pieces (clipping then produces nothing),
  // for fewer than 3 distinct vertices, a zero-area polygon or more vertices than the capacity.
  bool set_polygon(std::span<const float> xy);

  // The convex pieces of the current polygon, each as x, y pairs wound counter-clockwise in a Y-up
  // frame (positive shoelace area). Together they cover the polygon without overlap.
  std::size_t piece_count() const { return piece_offsets_.empty() ? 0 : piece_offsets_.size() - 1; }
  std::span<const float> piece(std::size_t i) const;
  // The most vertices of any piece: a clipped triangle has at most this + 3 vertices.
  std::size_t max_piece_vertices() const { return max_piece_vertices_; }

  // Clips the triangle (a, b, c) (x, y each) against piece `i` and returns the convex intersection,
  // keeping the triangle's winding: empty when it has no area, else 3 … piece vertices + 3 vertices.
  // The span stays valid until the next call.
  std::span<const ClippedVertex> clip_triangle(std::size_t i, const float* a, const float* b, const float* c);

 private:
  bool decompose();

  std::size_t capacity_;
  std::size_t max_piece_vertices_ = 0;
  std::vector<float> points_;                 // the polygon, cleaned and wound counter-clockwise
  std::vector<std::uint32_t> ring_;           // ear clipping: remaining vertex numbers
  std::vector<std::uint32_t> piece_vertices_; // merging: vertex numbers, capacity_ slots per piece
  std::vector<std::uint32_t> piece_length_;   // merging: vertex count per piece, 0 once merged away
  std::vector<std::uint32_t> diagonals_;      // merging: vertex pairs of the ear-clipping diagonals
  std::vector<std::uint32_t> merged_;         // merging: one merged vertex list
  std::vector<float> pieces_;                 // result: concatenated x, y pairs
  std::vector<std::uint32_t> piece_offsets_;  // result: piece i is vertices [offsets[i], offsets[i+1])
  std::vector<ClippedVertex> work_a_, work_b_;
};

}  // namespace mf::skel
