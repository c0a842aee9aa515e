#pragma once
// The triangulation core of the constrained triangulator: triangles with neighbour links, Lawson
// point insertion (split the containing triangle or edge, then flip edges that are not locally
// Delaunay, never a constrained one), constraint recovery by flipping the edges a segment crosses
// (Sloan 1993), and even-odd classification. Every geometric decision is an exact predicate.
//
// Vertices 0, 1, 2 are a large enclosing triangle, so every inserted point lies strictly inside the
// triangulation and every vertex has a full ring of triangles around it.

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "mf/core/math/vec2.hpp"

namespace mf::offline::mesh_core {

inline constexpr std::uint32_t kNone = 0xffffffffu;

// Edge flags.
inline constexpr std::uint8_t kConstrained = 1;
inline constexpr std::uint8_t kToggles = 2;  // crossing it toggles inside/outside (a loop edge)

// Edge i of a triangle joins v[i + 1] to v[i + 2] (indices mod 3): the edge opposite v[i].
struct Triangle {
  std::array<std::uint32_t, 3> v{};
  std::array<std::uint32_t, 3> n{kNone, kNone, kNone};
  std::array<std::uint8_t, 3> flags{};
  bool inside = false;
};

// A constraint crossed another one, or recovery hit an impossible state: carries the two constraint
// ids (kNone when not applicable).
struct CrossingError : std::runtime_error {
  CrossingError(std::uint32_t a, std::uint32_t b) : std::runtime_error("constraints cross"), first(a), second(b) {}
  std::uint32_t first, second;
};

struct EdgeRef {
  std::uint32_t tri = kNone;
  int index = -1;
};

class TriangleMesh {
 public:
  // Starts with the enclosing triangle of the box [lo, hi].
  TriangleMesh(Vec2d lo, Vec2d hi);

  std::vector<Vec2d> points;
  std::vector<Triangle> triangles;
  std::vector<std::uint32_t> vertex_triangle;  // one triangle around each vertex

  // Where a point lies: in triangle `tri` (edge < 0), on its edge `edge`, or on its vertex `vertex`.
  struct Location {
    std::uint32_t tri = kNone;
    int edge = -1;
    std::uint32_t vertex = kNone;
  };
  Location locate(Vec2d p, std::uint32_t start) const;

  // Inserts a point at a location (not a vertex) and restores the constrained Delaunay property.
  // Returns the new vertex.
  std::uint32_t insert(Vec2d p, Location where);

  // Makes a–b a chain of constrained edges with constraint id `id`, splitting it at every vertex
  // that lies exactly on it. `toggles` marks loop edges. Throws CrossingError when a crossed edge is
  // constrained.
  void insert_constraint(std::uint32_t a, std::uint32_t b, std::uint32_t id, bool toggles);

  // Marks triangles inside (odd number of toggling edges crossed from the enclosing triangle).
  void classify();

  EdgeRef find_edge(std::uint32_t a, std::uint32_t b) const;
  // The constraint id of a constrained edge, kNone for others.
  std::uint32_t constraint_of(std::uint32_t a, std::uint32_t b) const;
  // The triangles around a vertex, counter-clockwise.
  std::vector<std::uint32_t> ring(std::uint32_t v) const;

  std::uint32_t apex_across(std::uint32_t t, int i) const;

 private:
  void flip(std::uint32_t t, int i);
  void legalize_around(std::uint32_t p, std::vector<std::pair<std::uint32_t, int>> stack);
  void legalize_edges(std::vector<std::array<std::uint32_t, 2>> edges);
  void repoint(std::uint32_t nb, std::uint32_t from, std::uint32_t to);
  void set_constraint_id(std::uint32_t a, std::uint32_t b, std::uint32_t id);
  void erase_constraint_id(std::uint32_t a, std::uint32_t b);
  bool recover_segment(std::uint32_t a, std::uint32_t b, std::uint32_t id, bool toggles,
                       std::vector<std::array<std::uint32_t, 2>>& pending);

  std::unordered_map<std::uint64_t, std::uint32_t> constraint_ids_;
};

}  // namespace mf::offline::mesh_core
