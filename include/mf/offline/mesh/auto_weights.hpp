#pragma once
// Automatic weights by heat diffusion ("bone heat", Baran and Popović 2007): each bone's weight over
// the mesh is the steady state of heat flowing from the bone through the mesh, solved as
// (−Δ + H) w = H p with the cotangent Laplacian Δ, H the heat each vertex takes from its nearest
// bone it can see (c / d², d the distance to that bone) and p 1 where that bone is this one. Solved
// with Eigen's sparse Cholesky factorisation, once for all bones.

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
  int max_influences = 4;  // 1 to 8
  double prune = 0.01;     // weights below this are dropped before the others are renormalised
};

struct VertexWeight {
  int bone = 0;
  double weight = 0;
};

// Per vertex, its influences sorted by weight (largest first), summing to 1. A vertex no bone can
// see takes its weights through the mesh from the vertices around it.
Expected<std::vector<std::vector<VertexWeight>>> heat_weights(std::span<const Vec2d> positions,
                                                             std::span<const std::array<int, 3>> triangles,
                                                             std::span<const BoneSegment> bones,
                                                             const AutoWeightsOptions& options = {});

}  // namespace mf::offline
