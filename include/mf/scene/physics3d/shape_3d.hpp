#pragma once
// Shape3D: the collision shape of a PhysicsWorld3D body, in the body's frame (metres, Y up). A body has
// one shape; a concave outline becomes several bodies, one per convex piece.
//
//   box          half extents, each positive; exact (Bullet keeps its margin inside the box).
//   sphere       radius, positive; exact.
//   convex hull  the convex hull of `points` (4 or more, finite, not all in one plane), grown by
//                `margin` on every side: Bullet's convex collision (GJK) wants a small rounded skin,
//                and a hull's skin lies outside its points (Box2D's polygons have the same 1 cm skin).
//                make_prism (prism.hpp) gives the points of a thin hitbox prism.
//   plane        the points p with dot(normal, p) = offset; solid on the side away from the normal
//                (everything with dot(normal, p) < offset). Static bodies only.
//
// `points` is a view: add_body copies the points, so the caller's array needs to live only for that
// call.

#include <span>

#include "mf/core/math/vec3.hpp"

namespace mf::scene {

enum class ShapeKind3D { kBox, kSphere, kConvexHull, kPlane };

struct Shape3D {
  static constexpr float kDefaultHullMargin = 0.01f;  // metres

  ShapeKind3D kind = ShapeKind3D::kBox;
  Vec3 half_extents{0.5f, 0.5f, 0.5f};  // box
  float radius = 0.5f;                  // sphere
  std::span<const Vec3> points;         // convex hull
  float margin = kDefaultHullMargin;    // convex hull: zero or positive
  Vec3 normal{0, 1, 0};                 // plane: non-zero (normalised when the body is made)
  float offset = 0;                     // plane

  static Shape3D box(Vec3 half_extents) { return {.kind = ShapeKind3D::kBox, .half_extents = half_extents}; }
  static Shape3D sphere(float radius) { return {.kind = ShapeKind3D::kSphere, .radius = radius}; }
  static Shape3D convex_hull(std::span<const Vec3> points, float margin = kDefaultHullMargin) {
    return {.kind = ShapeKind3D::kConvexHull, .points = points, .margin = margin};
  }
  static Shape3D plane(Vec3 normal, float offset = 0) {
    return {.kind = ShapeKind3D::kPlane, .normal = normal, .offset = offset};
  }
};

}  // namespace mf::scene
