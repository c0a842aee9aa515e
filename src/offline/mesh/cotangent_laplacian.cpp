#include "cotangent_laplacian.hpp"

#include <algorithm>
#include <cmath>

namespace mf::offline {

bool degenerate_triangle(Vec2d a, Vec2d b, Vec2d c) {
  const double twice_area = std::abs(cross(b - a, c - a));
  const double longest = std::max({dot(b - a, b - a), dot(c - b, c - b), dot(a - c, a - c)});
  // The sine of the smallest angle is at most twice_area / longest; below 1e-10 the cotangents are
  // rounding noise.
  return !(twice_area > 1e-10 * longest);
}

CotangentLaplacian cotangent_laplacian(std::span<const Vec2d> positions, std::span<const std::array<int, 3>> triangles) {
  const std::size_t n = positions.size();
  CotangentLaplacian out;
  out.areas.assign(n, 0.0);
  out.proper.assign(triangles.size(), false);

  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(triangles.size() * 12);
  const auto add_edge = [&](int i, int j, double w) {
    entries.emplace_back(i, j, -w);
    entries.emplace_back(j, i, -w);
    entries.emplace_back(i, i, w);
    entries.emplace_back(j, j, w);
  };

  for (std::size_t t = 0; t < triangles.size(); ++t) {
    const std::array<int, 3>& tri = triangles[t];
    const Vec2d p[3] = {positions[static_cast<std::size_t>(tri[0])], positions[static_cast<std::size_t>(tri[1])],
                        positions[static_cast<std::size_t>(tri[2])]};
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2] || degenerate_triangle(p[0], p[1], p[2])) continue;
    out.proper[t] = true;
    const double twice_area = std::abs(cross(p[1] - p[0], p[2] - p[0]));
    for (int k = 0; k < 3; ++k) {
      // The angle at corner k is opposite the edge between the other two corners.
      const Vec2d u = p[(k + 1) % 3] - p[k], v = p[(k + 2) % 3] - p[k];
      const double cot = dot(u, v) / twice_area;
      add_edge(tri[static_cast<std::size_t>((k + 1) % 3)], tri[static_cast<std::size_t>((k + 2) % 3)], 0.5 * cot);
      out.areas[static_cast<std::size_t>(tri[static_cast<std::size_t>(k)])] += twice_area / 6;
    }
  }
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    if (out.proper[t]) continue;
    const std::array<int, 3>& tri = triangles[t];
    const bool loose_corner = std::any_of(tri.begin(), tri.end(),
                                          [&](int v) { return out.areas[static_cast<std::size_t>(v)] == 0; });
    if (!loose_corner) continue;
    for (int k = 0; k < 3; ++k) {
      const int i = tri[static_cast<std::size_t>(k)], j = tri[static_cast<std::size_t>((k + 1) % 3)];
      if (i != j) add_edge(i, j, 1.0);
    }
  }
  out.stiffness.resize(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  out.stiffness.setFromTriplets(entries.begin(), entries.end());
  return out;
}

}  // namespace mf::offline
