#pragma once
// convex_pieces: a simple polygon cut into convex pieces of at most `max_vertices` points each, the
// shapes a Box2D polygon fixture takes (b2_maxPolygonVertices = 8).
//
// The polygon may wind either way. It is cleaned first: consecutive duplicate points (closer than a
// millionth of the polygon's size) and points on the line through their neighbours (collinear points
// and zero-width spikes) are removed. A polygon with fewer than 3 points, zero area, or two edges that
// cross or touch is an error naming the input's vertices or edges (edge i runs from vertex i to vertex
// i + 1). It is then triangulated by ear clipping, and Hertel–Mehlhorn removes every diagonal whose
// removal keeps the merged piece convex with at most `max_vertices` corners (greedily, in triangulation
// order; collinear points do not count and are left out of the output).
//
// Output: each piece counter-clockwise with Y up (positive signed area, Σ x_i·y_{i+1} − x_{i+1}·y_i > 0),
// which is the winding Box2D wants; on a Y-down screen the same points run clockwise. The pieces do
// not overlap and their union is the polygon.
//
// Thin pieces (ConvexPiecesOptions): Hertel–Mehlhorn has already merged every piece it could, so a
// piece still thin at the end cannot be merged. A vertex closer than min_vertex_distance to the
// previous kept vertex of its piece is welded away (the piece stays convex and loses a sliver); a
// piece left with fewer than 3 points or with an area below min_area is dropped. Each weld and drop
// is reported in `notes` when given. Both tolerances default to 0 (nothing is welded or dropped);
// PhysicsWorld2D::piece_options() gives Box2D's, in pixels.

#include <span>
#include <string>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/core/math/vec2.hpp"

namespace mf::scene {

struct ConvexPiecesOptions {
  int max_vertices = 8;            // at least 3
  float min_vertex_distance = 0;   // in the polygon's units
  float min_area = 0;              // in the polygon's units squared
};

Expected<std::vector<std::vector<Vec2>>> convex_pieces(std::span<const Vec2> polygon, int max_vertices = 8);

Expected<std::vector<std::vector<Vec2>>> convex_pieces(std::span<const Vec2> polygon, const ConvexPiecesOptions& options,
                                                       std::vector<std::string>* notes = nullptr);

// Twice the signed area (positive when counter-clockwise with Y up).
double signed_area2(std::span<const Vec2> polygon);

}  // namespace mf::scene
