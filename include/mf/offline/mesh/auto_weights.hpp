#pragma once
// Automatic weights by heat diffusion ("bone heat", Baran and Popović 2007): each bone's weight over
// the mesh is the steady state of heat flowing from the bone through the mesh, solved as
// (−Δ + H) w = H p with the cotangent Laplacian Δ, H the heat each vertex takes from its nearest
// bone it can see (c / d², d the distance to that bone) and p 1 where that bone is this one. Solved
// with Eigen's sparse Cholesky factorisation, once for all bones.
//
// Choices (src/offline/mesh/auto_weights.cpp says more):
//   - c = 1, with Δ = −M⁻¹L (L the cotangent stiffness matrix, M the lumped vertex areas in the
//     mesh's units): the weights do not change when the mesh and its bones are scaled together.
//   - A vertex sees a bone when the segment from it to the bone's closest point stays inside the
//     mesh: it crosses no boundary edge (an edge used by one triangle) and does not pass outside
//     through a boundary vertex. Touching the boundary counts as inside. A vertex that sees no bone
//     takes no heat (H = 0) and gets its weights by diffusion; a connected part of the mesh where no
//     vertex sees any bone takes its heat from the nearest bones as if every bone were visible.
//   - Bones equally near (within 1e-9 of the scene's size) share p equally.
//   - Zero-area triangles add nothing (no NaN); a vertex in no triangle with area takes its nearest
//     bones' weights directly, or the average of its neighbours when a zero-area triangle joins it to
//     the rest of the mesh.
// Deterministic: the same input gives the same weights, bit for bit.

#include <array>
#include <span>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/core/math/vec2.hpp"

namespace mf::offline {

// A bone as a segment in the mesh's space (its setup-pose origin and tip; a zero-length bone is a
// point).
struct BoneSegment {
  int bone = 0;  // the caller's bone index, carried into the weights
  Vec2d start, end;
};

struct AutoWeightsOptions {
  int max_influences = 4;  // 1 to 8 (kMaxInfluences in format/skeleton_model.hpp)
  // Weights below this (a fraction of the vertex's total) are dropped before the others are
  // renormalised; a vertex always keeps its largest weight. 0 to just under 1.
  double prune = 0.01;
};

struct VertexWeight {
  int bone = 0;
  double weight = 0;
};

// Per vertex, its influences sorted by weight (largest first; equal weights in the order of
// `bones`), summing to 1, negative solutions clamped to 0. A vertex no bone can see takes its
// weights through the mesh from the vertices around it. Errors (message only; the caller adds the
// file and path): no bones, a bone index listed twice, a coordinate that is not finite, a triangle
// naming a vertex that does not exist, options out of range, a system that does not solve.
Expected<std::vector<std::vector<VertexWeight>>> heat_weights(std::span<const Vec2d> positions,
                                                             std::span<const std::array<int, 3>> triangles,
                                                             std::span<const BoneSegment> bones,
                                                             const AutoWeightsOptions& options = {});

}  // namespace mf::offline
