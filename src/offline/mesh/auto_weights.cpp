// Bone heat (Baran and Popović 2007, the skin attachment section) in 2D. With L the cotangent stiffness matrix and M
// the lumped vertex areas (cotangent_laplacian.hpp), −Δ = M⁻¹L, so (−Δ + H) w = H p becomes the
// symmetric system (L + MH) w = MH p, which one sparse LDLᵀ factorisation solves for every bone.
//
// H_jj = c / d_j² with c = 1, d_j the distance from vertex j to the nearest bone segment it can see
// (mesh_interior.hpp). With M in pixels² and d in pixels, MH has no unit: scaling the mesh and its
// bones together leaves the weights as they are. d is kept above 1e-6 of the scene's size so that a
// vertex on a bone gets a large but finite heat (its weight is then that bone's, to rounding).
//
// Where the system would be singular it is made whole, without changing the answer elsewhere:
//   - a connected part of the mesh in which no vertex sees a bone takes its heat from the nearest
//     bones as if all were visible (otherwise its weights would be undetermined);
//   - a connected part with no area at all (a vertex in no triangle, or vertices joined only by
//     zero-area triangles) is given its nearest bones' weights directly, vertex by vertex.

#include "mf/offline/mesh/auto_weights.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include <Eigen/SparseCholesky>

#include "cotangent_laplacian.hpp"
#include "mesh_interior.hpp"
#include "mf/offline/format/skeleton_model.hpp"

namespace mf::offline {
namespace {

Unexpected fail(std::string message) { return Unexpected{Error{"", "", {}, std::move(message)}}; }

bool finite(Vec2d p) { return std::isfinite(p.x) && std::isfinite(p.y); }

// Bones (positions in the caller's list) nearest to one vertex, with the distance to them.
struct Nearest {
  std::vector<int> bones;
  double distance = 0;
};

class HeatSource {
 public:
  HeatSource(std::span<const BoneSegment> bones, const MeshInterior& interior, double tie)
      : bones_(bones), interior_(interior), tie_(tie) {}

  // The nearest bones seen from p (all of them within `tie` of the nearest); none when no bone is
  // visible, unless `ignore_visibility`.
  Nearest nearest(Vec2d p, bool ignore_visibility) const {
    std::vector<std::pair<double, int>> order;
    order.reserve(bones_.size());
    for (std::size_t b = 0; b < bones_.size(); ++b)
      order.emplace_back(length(closest_point_on_segment(p, bones_[b].start, bones_[b].end) - p), static_cast<int>(b));
    std::sort(order.begin(), order.end());
    Nearest out;
    for (const auto& [d, b] : order) {
      if (!out.bones.empty() && d > out.distance + tie_) break;
      const BoneSegment& bone = bones_[static_cast<std::size_t>(b)];
      if (!ignore_visibility && !interior_.segment_inside(p, closest_point_on_segment(p, bone.start, bone.end))) continue;
      if (out.bones.empty()) out.distance = d;
      out.bones.push_back(b);
    }
    std::sort(out.bones.begin(), out.bones.end());
    return out;
  }

 private:
  std::span<const BoneSegment> bones_;
  const MeshInterior& interior_;
  double tie_;
};

int find_root(std::vector<int>& parent, int i) {
  while (parent[static_cast<std::size_t>(i)] != i) {
    parent[static_cast<std::size_t>(i)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(i)])];
    i = parent[static_cast<std::size_t>(i)];
  }
  return i;
}

Status check_input(std::span<const Vec2d> positions, std::span<const std::array<int, 3>> triangles,
                   std::span<const BoneSegment> bones, const AutoWeightsOptions& options) {
  if (options.max_influences < 1 || options.max_influences > kMaxInfluences)
    return fail("max influences " + std::to_string(options.max_influences) + " is outside 1 to " +
                std::to_string(kMaxInfluences));
  if (!(options.prune >= 0 && options.prune < 1))
    return fail("prune threshold " + std::to_string(options.prune) + " is outside [0, 1)");
  if (bones.empty()) return fail("no bones to weight the mesh to");
  for (std::size_t b = 0; b < bones.size(); ++b) {
    if (!finite(bones[b].start) || !finite(bones[b].end))
      return fail("bone " + std::to_string(bones[b].bone) + " has a coordinate that is not a finite number");
    for (std::size_t o = 0; o < b; ++o)
      if (bones[o].bone == bones[b].bone) return fail("bone " + std::to_string(bones[b].bone) + " is listed twice");
  }
  for (std::size_t v = 0; v < positions.size(); ++v)
    if (!finite(positions[v]))
      return fail("vertex " + std::to_string(v) + " has a coordinate that is not a finite number");
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (int v : triangles[t])
      if (v < 0 || static_cast<std::size_t>(v) >= positions.size())
        return fail("triangle " + std::to_string(t) + " uses vertex " + std::to_string(v) + ", but the mesh has " +
                    std::to_string(positions.size()) + " vertices");
  return {};
}

// Clamps negative weights, drops those below the prune threshold (always keeping the largest),
// keeps the largest max_influences and renormalises. Ties keep the caller's bone order.
std::vector<VertexWeight> finish(std::span<const double> row, std::span<const BoneSegment> bones,
                                 const AutoWeightsOptions& options) {
  std::vector<std::pair<double, int>> kept;
  double total = 0;
  for (std::size_t b = 0; b < row.size(); ++b)
    if (row[b] > 0) {
      kept.emplace_back(row[b], static_cast<int>(b));
      total += row[b];
    }
  std::stable_sort(kept.begin(), kept.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  std::size_t count = 0;
  while (count < kept.size() && count < static_cast<std::size_t>(options.max_influences) &&
         (count == 0 || kept[count].first / total >= options.prune))
    ++count;
  kept.resize(count);
  double sum = 0;
  for (const auto& k : kept) sum += k.first;
  std::vector<VertexWeight> out;
  for (const auto& [w, b] : kept) out.push_back({bones[static_cast<std::size_t>(b)].bone, w / sum});
  return out;
}

}  // namespace

Expected<std::vector<std::vector<VertexWeight>>> heat_weights(std::span<const Vec2d> positions,
                                                             std::span<const std::array<int, 3>> triangles,
                                                             std::span<const BoneSegment> bones,
                                                             const AutoWeightsOptions& options) {
  if (Status ok = check_input(positions, triangles, bones, options); !ok) return Unexpected{ok.error()};
  const std::size_t n = positions.size();
  if (n == 0) return std::vector<std::vector<VertexWeight>>{};

  Vec2d lo = positions[0], hi = positions[0];
  const auto grow = [&](Vec2d p) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
  };
  for (Vec2d p : positions) grow(p);
  for (const BoneSegment& b : bones) grow(b.start), grow(b.end);
  const double size = std::max(length(hi - lo), 1e-300);
  const double tolerance = 1e-9 * size;
  const double nearest_distance = 1e-6 * size;

  const CotangentLaplacian laplacian = cotangent_laplacian(positions, triangles);
  const MeshInterior interior(positions, triangles, laplacian.proper, tolerance);
  const HeatSource heat(bones, interior, tolerance);

  std::vector<Nearest> nearest(n);
  for (std::size_t v = 0; v < n; ++v) nearest[v] = heat.nearest(positions[v], false);

  // Connected parts: through every triangle with area, and through the springs of the others.
  std::vector<int> part(n);
  std::iota(part.begin(), part.end(), 0);
  for (int k = 0; k < laplacian.stiffness.outerSize(); ++k)
    for (Eigen::SparseMatrix<double>::InnerIterator it(laplacian.stiffness, k); it; ++it)
      part[static_cast<std::size_t>(find_root(part, static_cast<int>(it.row())))] = find_root(part, static_cast<int>(it.col()));
  for (std::size_t t = 0; t < triangles.size(); ++t)
    if (laplacian.proper[t])
      for (int k = 1; k < 3; ++k)
        part[static_cast<std::size_t>(find_root(part, triangles[t][static_cast<std::size_t>(k)]))] = find_root(part, triangles[t][0]);
  std::vector<bool> heated(n, false), has_area(n, false);
  for (std::size_t v = 0; v < n; ++v) {
    const std::size_t root = static_cast<std::size_t>(find_root(part, static_cast<int>(v)));
    if (laplacian.areas[v] > 0) has_area[root] = true;
    if (laplacian.areas[v] > 0 && !nearest[v].bones.empty()) heated[root] = true;
  }
  // Vertices whose weights are set directly rather than solved for.
  std::vector<bool> fixed(n, false);
  for (std::size_t v = 0; v < n; ++v) {
    const std::size_t root = static_cast<std::size_t>(find_root(part, static_cast<int>(v)));
    if (!heated[root] || !has_area[root])
      if (nearest[v].bones.empty() || has_area[root]) nearest[v] = heat.nearest(positions[v], true);
    fixed[v] = !has_area[root];
  }

  const Eigen::Index size_n = static_cast<Eigen::Index>(n);
  Eigen::SparseMatrix<double> system = laplacian.stiffness;
  Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(size_n, static_cast<Eigen::Index>(bones.size()));
  std::vector<Eigen::Triplet<double>> diagonal;
  for (std::size_t v = 0; v < n; ++v) {
    const Nearest& near = nearest[v];
    const double share = near.bones.empty() ? 0.0 : 1.0 / static_cast<double>(near.bones.size());
    const Eigen::Index row = static_cast<Eigen::Index>(v);
    if (fixed[v]) {
      diagonal.emplace_back(row, row, 1.0);
      for (int b : near.bones) rhs(row, b) = share;
      continue;
    }
    if (near.bones.empty()) continue;
    const double d = std::max(near.distance, nearest_distance);
    const double mh = laplacian.areas[v] / (d * d);
    diagonal.emplace_back(row, row, mh);
    for (int b : near.bones) rhs(row, b) = mh * share;
  }
  // Fixed vertices are whole parts of their own, so clearing their rows and columns keeps the
  // system symmetric.
  system.prune([&](Eigen::Index r, Eigen::Index c, double) {
    return !fixed[static_cast<std::size_t>(r)] && !fixed[static_cast<std::size_t>(c)];
  });
  Eigen::SparseMatrix<double> heat_matrix(size_n, size_n);
  heat_matrix.setFromTriplets(diagonal.begin(), diagonal.end());
  system += heat_matrix;

  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver(system);
  if (solver.info() != Eigen::Success) return fail("the heat diffusion system could not be factorised");
  const Eigen::MatrixXd solved = solver.solve(rhs);
  if (solver.info() != Eigen::Success || !solved.allFinite()) return fail("the heat diffusion system could not be solved");

  std::vector<std::vector<VertexWeight>> out(n);
  std::vector<double> row(bones.size());
  for (std::size_t v = 0; v < n; ++v) {
    for (std::size_t b = 0; b < bones.size(); ++b) row[b] = solved(static_cast<Eigen::Index>(v), static_cast<Eigen::Index>(b));
    out[v] = finish(row, bones, options);
    if (out[v].empty()) return fail("vertex " + std::to_string(v) + " got no weight from any bone");
  }
  return out;
}

}  // namespace mf::offline
