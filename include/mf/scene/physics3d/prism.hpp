#pragma once
// make_prism: the points of a thin convex prism for a 3D hitbox: a 2D polygon in a plane, extruded by
// ±depth/2 along the plane's normal (SkeletonHitboxes3D: a bounding-box polygon in the sprite's plane,
// HitboxDepth 0.1 m by default).
//
// The plane is the XY plane of `frame` (for a sprite, its model matrix): polygon point (x, y) sits at
// frame.transform_point({x, y, 0}), so the polygon is in the frame's units (a sprite's pixels) and may
// be scaled, turned or mirrored by it. The normal is n = normalize(X × Y) of the frame's first two
// columns; `depth` is in the output's units (metres), whatever the frame's scale. The output has
// 2 × polygon.size() points: point i at −depth/2 · n, then point i at +depth/2 · n, in polygon order.
//
// The points are meant for Shape3D::convex_hull, whose shape is their convex hull: a concave polygon
// gives the prism of its hull, so cut concave outlines into convex pieces first (convex_pieces).
// Errors: fewer than 3 points, a point or the depth not finite, a depth not positive, a frame whose X
// and Y columns are parallel or zero, a polygon of zero area.

#include <span>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/core/math/mat4.hpp"
#include "mf/core/math/vec2.hpp"
#include "mf/core/math/vec3.hpp"

namespace mf::scene {

inline constexpr float kDefaultHitboxDepth = 0.1f;  // metres

Expected<std::vector<Vec3>> make_prism(std::span<const Vec2> polygon, float depth = kDefaultHitboxDepth,
                                       const Mat4& frame = Mat4::identity());

// The same into `out` (exactly 2 × polygon.size() points), allocating nothing: for hitboxes whose
// polygon is skinned every frame (PhysicsWorld3D::set_hull_points takes the result).
Status make_prism(std::span<const Vec2> polygon, float depth, const Mat4& frame, std::span<Vec3> out);

}  // namespace mf::scene
