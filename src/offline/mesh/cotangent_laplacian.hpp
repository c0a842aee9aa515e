#pragma once
// The cotangent Laplacian of a 2D triangle mesh (linear finite elements): the stiffness matrix L
// with L_ij = −½(cot α_ij + cot β_ij) for the angles opposite edge ij and L_ii = −Σ_j L_ij, and the
// lumped vertex areas M (a third of each triangle's area to each of its corners). The Laplacian of
// a function is −M⁻¹L; heat_weights solves with L and M directly, which keeps the system symmetric.
//
// A zero-area triangle (collinear or repeated corners) would give infinite cotangents: it adds
// nothing, except when one of its corners lies in no triangle of positive area. Then its three edges
// become unit springs, so that such a corner takes the average of its neighbours instead of being
// left out of the system.

#include <array>
#include <span>
#include <vector>

#include <Eigen/SparseCore>

#include "mf/core/math/vec2.hpp"

namespace mf::offline {

struct CotangentLaplacian {
  Eigen::SparseMatrix<double> stiffness;  // L: symmetric, positive semi-definite
  std::vector<double> areas;              // M's diagonal, one per vertex
  // Per triangle: whether it has positive area (only those carry cotangents and area).
  std::vector<bool> proper;
};

// True when the triangle's area is too small against its longest edge for its cotangents to mean
// anything (or the corners repeat).
bool degenerate_triangle(Vec2d a, Vec2d b, Vec2d c);

// Triangle indices must be valid (heat_weights checks them first).
CotangentLaplacian cotangent_laplacian(std::span<const Vec2d> positions, std::span<const std::array<int, 3>> triangles);

}  // namespace mf::offline
