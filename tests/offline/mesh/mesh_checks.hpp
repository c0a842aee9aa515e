#pragma once
// Checks on auto meshes the tests share: coverage, loops, angles.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "mf/offline/mesh/auto_mesh.hpp"
#include "mf/offline/mesh/outline_simplify.hpp"

namespace mf::testing {

inline double signed_triangle_area(Vec2d a, Vec2d b, Vec2d c) { return cross(b - a, c - a) / 2; }

// Whether p lies in (or on, within `slack` of area) one of the triangles.
inline bool covered(const std::vector<Vec2d>& positions, const std::vector<std::array<int, 3>>& triangles, Vec2d p,
                    double slack = 1e-9) {
  for (const auto& t : triangles) {
    const Vec2d a = positions[t[0]], b = positions[t[1]], c = positions[t[2]];
    const double total = signed_triangle_area(a, b, c);
    const double s = total > 0 ? 1 : -1;
    if (s * signed_triangle_area(a, b, p) >= -slack && s * signed_triangle_area(b, c, p) >= -slack &&
        s * signed_triangle_area(c, a, p) >= -slack)
      return true;
  }
  return false;
}

inline double smallest_angle_degrees(Vec2d a, Vec2d b, Vec2d c) {
  const auto angle = [](Vec2d at, Vec2d p, Vec2d q) {
    return std::atan2(std::fabs(cross(p - at, q - at)), dot(p - at, q - at)) * 180 / std::numbers::pi;
  };
  return std::min({angle(a, b, c), angle(b, c, a), angle(c, a, b)});
}

// The mesh's loops (hull first, then holes) as point lists.
inline std::vector<std::vector<Vec2d>> mesh_loops(const offline::AutoMesh& mesh) {
  const offline::PlanarDomain domain = offline::outline_domain(mesh);
  std::vector<std::vector<Vec2d>> loops;
  for (const auto& loop : domain.loops) {
    loops.emplace_back();
    for (std::uint32_t i : loop) loops.back().push_back(mesh.positions[i]);
  }
  return loops;
}

// The angle inside the region at each loop point (the region is on each loop's right on screen).
inline double corner_angle_degrees(const std::vector<Vec2d>& loop, std::size_t i) {
  const Vec2d v = loop[i], p = loop[(i + loop.size() - 1) % loop.size()], n = loop[(i + 1) % loop.size()];
  double a = std::atan2(cross(n - v, p - v), dot(n - v, p - v)) * 180 / std::numbers::pi;
  if (a < 0) a += 360;
  return a;
}

// Every opaque pixel centre covered; every triangle inside the loops; the hull clockwise on screen.
inline ::testing::AssertionResult covers_the_art(const offline::AutoMesh& mesh, const imaging::Image& image,
                                                 int threshold = 1) {
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x)
      if (image.pixel(x, y)[3] >= threshold && !covered(mesh.positions, mesh.triangles, {x + 0.5, y + 0.5}))
        return ::testing::AssertionFailure() << "opaque pixel " << x << ", " << y << " is not covered";
  const auto loops = mesh_loops(mesh);
  for (const auto& t : mesh.triangles) {
    const Vec2d centroid = (mesh.positions[t[0]] + mesh.positions[t[1]] + mesh.positions[t[2]]) / 3.0;
    if (!offline::inside_loops(loops, centroid))
      return ::testing::AssertionFailure() << "a triangle lies outside the outline, at " << centroid.x << ", " << centroid.y;
  }
  double hull_area = 0;
  for (int i = 0; i < mesh.hull; ++i) hull_area += cross(mesh.positions[i], mesh.positions[(i + 1) % mesh.hull]) / 2;
  if (!(hull_area > 0)) return ::testing::AssertionFailure() << "the hull is not clockwise on screen";
  for (Vec2d p : mesh.positions)
    if (p.x < 0 || p.y < 0 || p.x > image.width || p.y > image.height)
      return ::testing::AssertionFailure() << "vertex " << p.x << ", " << p.y << " is outside the image";
  return ::testing::AssertionSuccess();
}

// Every triangle's smallest angle is at least 20° (less 1e-6), except, as the triangulator allows, in
// a loop corner sharper than 40°: triangles whose smallest angle sits at that corner, or whose
// shortest edge joins two outline points at equal distances from it.
inline ::testing::AssertionResult meets_the_angle_rule(const offline::AutoMesh& mesh) {
  const offline::PlanarDomain domain = offline::outline_domain(mesh);
  std::vector<std::uint8_t> sharp(mesh.positions.size(), 0), on_outline(mesh.positions.size(), 0);
  std::vector<std::uint32_t> sharp_corners;
  for (const auto& loop : domain.loops) {
    std::vector<Vec2d> points;
    for (std::uint32_t i : loop) points.push_back(mesh.positions[i]);
    for (std::size_t k = 0; k < loop.size(); ++k) {
      on_outline[loop[k]] = 1;
      if (corner_angle_degrees(points, k) < 40) {
        sharp[loop[k]] = 1;
        sharp_corners.push_back(loop[k]);
      }
    }
  }
  const auto angle_at = [](Vec2d at, Vec2d p, Vec2d q) {
    return std::atan2(std::fabs(cross(p - at, q - at)), dot(p - at, q - at)) * 180 / std::numbers::pi;
  };
  for (const auto& t : mesh.triangles) {
    const Vec2d p[3] = {mesh.positions[t[0]], mesh.positions[t[1]], mesh.positions[t[2]]};
    int at = 0;
    double smallest = 180;
    for (int k = 0; k < 3; ++k) {
      const double a = angle_at(p[k], p[(k + 1) % 3], p[(k + 2) % 3]);
      if (a < smallest) smallest = a, at = k;
    }
    if (smallest >= 20 - 1e-6 || sharp[t[at]]) continue;
    // The shortest edge is the one facing the smallest angle.
    const int a = t[(at + 1) % 3], b = t[(at + 2) % 3];
    bool shell = false;
    for (std::uint32_t c : sharp_corners) {
      const double da = length(mesh.positions[a] - mesh.positions[c]), db = length(mesh.positions[b] - mesh.positions[c]);
      shell = shell || (on_outline[a] && on_outline[b] && std::fabs(da - db) <= 1e-6 * std::max(da, db));
    }
    if (shell) continue;
    return ::testing::AssertionFailure() << "a triangle's smallest angle is " << smallest << " degrees, at "
                                         << p[at].x << ", " << p[at].y;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace mf::testing
