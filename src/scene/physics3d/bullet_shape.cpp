#include "bullet_shape.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace mf::scene {
namespace {

Unexpected fail(std::string message) { return Unexpected{Error{.message = std::move(message)}}; }

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

std::string fmt(Vec3 v) {
  char text[96];
  std::snprintf(text, sizeof text, "(%g, %g, %g)", double(v.x), double(v.y), double(v.z));
  return text;
}

std::string fmt(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

struct D3 {
  double x, y, z;
};
D3 d3(Vec3 v) { return {v.x, v.y, v.z}; }
D3 sub(D3 a, D3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
D3 cross(D3 a, D3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
double dot(D3 a, D3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
double len(D3 a) { return std::sqrt(dot(a, a)); }

// The hull needs volume: a flat set of points has no inside for GJK to find. Three extreme points span
// the widest triangle found greedily; the farthest point from its plane must be off it by more than a
// millionth of the set's size.
Status check_hull_points(std::span<const Vec3> points) {
  if (points.size() < 4) {
    return fail("a convex hull needs at least 4 points, this one has " + std::to_string(points.size()));
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!finite(points[i])) return fail("convex hull point " + std::to_string(i) + " is not finite: " + fmt(points[i]));
  }
  Vec3 lo = points[0], hi = points[0];
  for (const Vec3 p : points) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
  }
  const double size = std::max({double(hi.x) - lo.x, double(hi.y) - lo.y, double(hi.z) - lo.z});
  const std::string hull = "convex hull of " + std::to_string(points.size()) + " points";
  if (!(size > 0)) return fail(hull + ": they all coincide at " + fmt(points[0]));
  const double eps = size * 1e-6;

  auto farthest = [&](auto&& distance) {
    std::size_t best = 0;
    double best_d = -1;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const double d = distance(d3(points[i]));
      if (d > best_d) best_d = d, best = i;
    }
    return std::pair(best, best_d);
  };
  const D3 p0 = d3(points[0]);
  const auto [i1, d1] = farthest([&](D3 p) { return len(sub(p, p0)); });
  const D3 p1 = d3(points[i1]);
  const D3 axis = sub(p1, p0);
  const auto [i2, d2] = farthest([&](D3 p) { return len(cross(axis, sub(p, p0))) / len(axis); });
  if (d2 <= eps) return fail(hull + " is flat: they lie on one line");
  const D3 normal = cross(axis, sub(d3(points[i2]), p0));
  const auto [i3, d3_] = farthest([&](D3 p) { return std::abs(dot(normal, sub(p, p0))) / len(normal); });
  if (d3_ <= eps) {
    return fail(hull + " is flat: they lie in one plane (give a prism some depth)");
  }
  return {};
}

}  // namespace

const char* shape_name(ShapeKind3D kind) {
  switch (kind) {
    case ShapeKind3D::kBox: return "box";
    case ShapeKind3D::kSphere: return "sphere";
    case ShapeKind3D::kConvexHull: return "convex hull";
    case ShapeKind3D::kPlane: return "plane";
  }
  return "unknown shape";
}

Status check_shape(const Shape3D& shape) {
  switch (shape.kind) {
    case ShapeKind3D::kBox: {
      const Vec3 h = shape.half_extents;
      if (!finite(h) || !(h.x > 0 && h.y > 0 && h.z > 0)) {
        return fail("box half extents " + fmt(h) + " must be positive and finite");
      }
      return {};
    }
    case ShapeKind3D::kSphere:
      if (!std::isfinite(shape.radius) || !(shape.radius > 0)) {
        return fail("sphere radius " + fmt(shape.radius) + " must be positive and finite");
      }
      return {};
    case ShapeKind3D::kConvexHull:
      if (!std::isfinite(shape.margin) || !(shape.margin >= 0)) {
        return fail("convex hull margin " + fmt(shape.margin) + " must be zero or positive and finite");
      }
      return check_hull_points(shape.points);
    case ShapeKind3D::kPlane:
      if (!finite(shape.normal) || !(length(shape.normal) > 1e-12f) || !std::isfinite(shape.offset)) {
        return fail("plane normal " + fmt(shape.normal) + " must be finite and not zero, and its offset finite");
      }
      return {};
  }
  return fail("unknown shape kind " + std::to_string(static_cast<int>(shape.kind)));
}

std::unique_ptr<btCollisionShape> make_bullet_shape(const Shape3D& shape) {
  switch (shape.kind) {
    case ShapeKind3D::kBox: {
      // The box keeps its size: Bullet puts the margin inside, and shrinks it for thin boxes.
      const Vec3 h = shape.half_extents;
      return std::make_unique<btBoxShape>(btVector3(h.x, h.y, h.z));
    }
    case ShapeKind3D::kSphere: return std::make_unique<btSphereShape>(shape.radius);
    case ShapeKind3D::kConvexHull: {
      auto hull = std::make_unique<btConvexHullShape>();
      for (const Vec3 p : shape.points) hull->addPoint(btVector3(p.x, p.y, p.z), false);
      hull->setMargin(shape.margin);
      hull->recalcLocalAabb();
      return hull;
    }
    case ShapeKind3D::kPlane: {
      const Vec3 n = normalize(shape.normal);
      return std::make_unique<btStaticPlaneShape>(btVector3(n.x, n.y, n.z), shape.offset / length(shape.normal));
    }
  }
  return nullptr;
}

}  // namespace mf::scene
