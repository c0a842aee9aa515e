#pragma once
// Internal: constraints that work in world space (transform constraints in world mode, path
// constraints) compute a new world transform for a bone, then express it as the bone's local pose so
// the update order recomputes its descendants from local values as usual. Shared by
// transform_constraint.cpp and path_constraint.cpp.

#include <cmath>

#include "mf/core/math/angle.hpp"
#include "mf/core/math/bone_local.hpp"
#include "mf/core/math/hypot.hpp"
#include "mf/skel/skeleton_pose.hpp"
#include "mf/skel/world_transform.hpp"

namespace mf::skel::detail {

// An angle in degrees brought into [−180, 180].
inline float wrap_degrees(float degrees) {
  // std::remainder returns an angle already in [−180, 180] unchanged: skip its call then.
  if (degrees >= -180.0f && degrees <= 180.0f) return degrees;
  return std::remainder(degrees, 360.0f);
}

// A bone's world transform: x' = a·x + b·y + x, y' = c·x + d·y + y (skeleton space).
struct BoneWorld {
  float a, b, c, d, x, y;

  float rotation() const { return std::atan2(c, a) * kRadToDeg; }  // direction of the X axis
  float scale_x() const { return hypot_float(a, c); }
  float scale_y() const { return hypot_float(b, d); }
  // Angle of the Y axis away from the X axis turned by +90°, in [−180, 180].
  float shear_y() const { return wrap_degrees((std::atan2(d, b) - std::atan2(c, a)) * kRadToDeg - 90.0f); }

  // Turns both axes by `degrees` (clockwise on screen).
  void rotate(float degrees) {
    const float r = degrees * kDegToRad, cs = std::cos(r), sn = std::sin(r);
    const float na = cs * a - sn * c, nc = sn * a + cs * c;
    const float nb = cs * b - sn * d, nd = sn * b + cs * d;
    a = na, b = nb, c = nc, d = nd;
  }
  // Turns the X axis only (a shear X).
  void rotate_x_axis(float degrees) {
    const float r = degrees * kDegToRad, cs = std::cos(r), sn = std::sin(r);
    const float na = cs * a - sn * c, nc = sn * a + cs * c;
    a = na, c = nc;
  }
  // Turns the Y axis only (a shear).
  void rotate_y_axis(float degrees) {
    const float r = degrees * kDegToRad, cs = std::cos(r), sn = std::sin(r);
    const float nb = cs * b - sn * d, nd = sn * b + cs * d;
    b = nb, d = nd;
  }
};

inline BoneWorld bone_world(const SkeletonPose& p, int bone) {
  const auto i = static_cast<std::size_t>(bone);
  return {p.a[i], p.b[i], p.c[i], p.d[i], p.world_x[i], p.world_y[i]};
}

// Recomputes the bone's world position alone from its local translation (the parent's full
// transform applied to it, as update_world_transform does), for a bone whose local rotation, scale,
// shear and inherit mode did not change since its world 2×2 was computed: that 2×2 stays as it is.
inline void update_world_position(SkeletonPose& p, int bone) {
  const auto i = static_cast<std::size_t>(bone);
  const int parent = p.data().bones.parent[i];
  if (parent < 0) {
    p.world_x[i] = p.x[i];
    p.world_y[i] = p.y[i];
    return;
  }
  const auto q = static_cast<std::size_t>(parent);
  p.world_x[i] = p.a[q] * p.x[i] + p.b[q] * p.y[i] + p.world_x[q];
  p.world_y[i] = p.c[q] * p.x[i] + p.d[q] * p.y[i] + p.world_y[q];
}

// Makes `w` the bone's world transform by changing its local pose: its translation when `position`,
// its rotation, scale and shear when `matrix`; then recomputes the bone's world transform (its
// position alone when only the translation changed).
//
// The bone's current world transform must be the one its current local pose gives (the caller
// recomputes it first). Whatever the inherit mode, the world 2×2 is F·L with F taken from the parent
// alone, so F = M·L⁻¹ and the new local matrix is L' = L·M⁻¹·M'; it is decomposed keeping the bone's
// shear X and the sign of its scale X. The world position is the parent's full transform applied to
// the local translation, so that inverts directly. A degenerate parent or bone (zero scale) keeps the
// part that cannot be inverted.
inline void set_bone_world(SkeletonPose& p, int bone, const BoneWorld& w, bool position, bool matrix) {
  constexpr float kTiny = 1e-12f;
  const auto i = static_cast<std::size_t>(bone);
  if (position) {
    const int parent = p.data().bones.parent[i];
    if (parent < 0) {
      p.x[i] = w.x;
      p.y[i] = w.y;
    } else {
      const auto q = static_cast<std::size_t>(parent);
      const float det = p.a[q] * p.d[q] - p.b[q] * p.c[q];
      if (std::abs(det) > kTiny) {
        const float dx = w.x - p.world_x[q], dy = w.y - p.world_y[q];
        p.x[i] = (p.d[q] * dx - p.b[q] * dy) / det;
        p.y[i] = (p.a[q] * dy - p.c[q] * dx) / det;
      }
    }
  }
  if (matrix) {
    const float ma = p.a[i], mb = p.b[i], mc = p.c[i], md = p.d[i];
    const float mdet = ma * md - mb * mc;
    if (std::abs(mdet) > kTiny) {
      // N = M⁻¹·M'
      const float na = (md * w.a - mb * w.c) / mdet, nb = (md * w.b - mb * w.d) / mdet;
      const float nc = (ma * w.c - mc * w.a) / mdet, nd = (ma * w.d - mc * w.b) / mdet;
      // L, the current local matrix.
      const float shx = p.shear_x[i];
      const Matrix2 l = bone_local_matrix(p.rotation[i], p.scale_x[i], p.scale_y[i], shx, p.shear_y[i]);
      const float la = l.a, lb = l.b, lc = l.c, ld = l.d;
      // L' = L·N
      const float a = la * na + lb * nc, b = la * nb + lb * nd;
      const float c = lc * na + ld * nc, d = lc * nb + ld * nd;
      const float s1 = p.scale_x[i] < 0 ? -1.0f : 1.0f;
      const float x_angle = std::atan2(s1 * c, s1 * a) * kRadToDeg;  // rotation + shear X
      // Keep the rotation continuous with the old value rather than jumping by 360°.
      const float rotation = x_angle - shx;
      p.rotation[i] += wrap_degrees(rotation - p.rotation[i]);
      p.scale_x[i] = s1 * hypot_float(a, c);
      // The Y axis is sy·(cos, sin)(rotation + 90 + shear Y); with |shear Y − shear X| < 90° the sign of
      // sy is the determinant's sign times the sign of sx.
      const float s2 = (a * d - b * c) < 0 ? -s1 : s1;
      p.scale_y[i] = s2 * hypot_float(b, d);
      const float y_angle = std::atan2(s2 * d, s2 * b) * kRadToDeg;
      p.shear_y[i] = shx + wrap_degrees(y_angle - x_angle - 90.0f);
    }
  }
  if (matrix) update_world_transform(p, bone);
  else update_world_position(p, bone);
}

}  // namespace mf::skel::detail
