#include "mf/scene/physics3d/prism.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace mf::scene {
namespace {

Unexpected fail(std::string message) { return Unexpected{Error{.message = std::move(message)}}; }

std::string fmt(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

}  // namespace

Status make_prism(std::span<const Vec2> polygon, float depth, const Mat4& frame, std::span<Vec3> out) {
  const std::size_t n = polygon.size();
  if (n < 3) return fail("a prism needs a polygon of at least 3 points, this one has " + std::to_string(n));
  if (out.size() != 2 * n) {
    return fail("a prism of " + std::to_string(n) + " polygon points has " + std::to_string(2 * n) +
                " points, the output holds " + std::to_string(out.size()));
  }
  if (!std::isfinite(depth) || !(depth > 0)) return fail("prism depth " + fmt(depth) + " must be positive and finite");
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(polygon[i].x) || !std::isfinite(polygon[i].y)) {
      return fail("prism polygon point " + std::to_string(i) + " is not finite");
    }
  }

  // Zero area (all points on a line) makes a flat prism: no volume for the hull.
  double a2 = 0, size = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 p = polygon[i], q = polygon[(i + 1) % n];
    a2 += double(p.x) * q.y - double(q.x) * p.y;
    size = std::max({size, std::abs(double(p.x) - polygon[0].x), std::abs(double(p.y) - polygon[0].y)});
  }
  if (!(std::abs(a2) / 2 > size * size * 1e-9)) {
    return fail("prism polygon of " + std::to_string(n) + " points has zero area (its points lie on one line)");
  }

  const Vec3 x_axis = frame.column3(0), y_axis = frame.column3(1);
  const Vec3 normal_dir = cross(x_axis, y_axis);
  const float normal_len = length(normal_dir);
  if (!(normal_len > 1e-20f) || !std::isfinite(normal_len)) {
    return fail("prism frame's X and Y columns are parallel, zero or not finite: the plane has no normal");
  }
  const Vec3 half = normal_dir * (0.5f * depth / normal_len);
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3 p = frame.transform_point({polygon[i].x, polygon[i].y, 0});
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
      return fail("prism polygon point " + std::to_string(i) + " is not finite through the frame");
    }
    out[i] = p - half;
    out[n + i] = p + half;
  }
  return {};
}

Expected<std::vector<Vec3>> make_prism(std::span<const Vec2> polygon, float depth, const Mat4& frame) {
  std::vector<Vec3> points(2 * polygon.size());
  if (Status st = make_prism(polygon, depth, frame, points); !st) return Unexpected{st.error()};
  return points;
}

}  // namespace mf::scene
