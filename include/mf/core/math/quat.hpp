#pragma once
// Quat: a rotation quaternion (x, y, z vector part, w scalar part) of floats, in the same right-handed
// convention as Mat4::rotation: a positive angle turns counter-clockwise looking down the axis towards
// the origin. Angles are radians. a * b applies b first (like Mat4), so from_euler(yaw, pitch, roll)
// = Y(yaw) * X(pitch) * Z(roll): roll about Z first, then pitch about X, then yaw about Y.

#include <cmath>

#include "mf/core/math/mat4.hpp"
#include "mf/core/math/vec3.hpp"

namespace mf {

struct Quat {
  float x = 0, y = 0, z = 0, w = 1;  // identity

  friend constexpr bool operator==(Quat, Quat) = default;

  static constexpr Quat identity() { return {}; }

  // Rotation by `radians` about `axis` (normalised here; a zero axis gives the identity).
  static Quat from_axis_angle(Vec3 axis, float radians) {
    const float l = length(axis);
    if (!(l > 1e-20f)) return {};
    const float s = std::sin(radians * 0.5f) / l;
    return {axis.x * s, axis.y * s, axis.z * s, std::cos(radians * 0.5f)};
  }

  // Yaw about +Y, pitch about +X, roll about +Z, all in radians; applied roll, pitch, then yaw.
  static Quat from_euler(float yaw, float pitch, float roll);

  // The rotation of a pure rotation matrix's upper 3×3 (columns of unit length, determinant +1);
  // Shepperd's method: the largest of w, x, y, z is taken from the diagonal, so no division is small.
  static Quat from_rotation_matrix(const Mat4& m) {
    const float m00 = m.at(0, 0), m11 = m.at(1, 1), m22 = m.at(2, 2);
    const float trace = m00 + m11 + m22;
    Quat q;
    if (trace > 0) {
      const float s = std::sqrt(trace + 1) * 2;
      q = {(m.at(2, 1) - m.at(1, 2)) / s, (m.at(0, 2) - m.at(2, 0)) / s, (m.at(1, 0) - m.at(0, 1)) / s, 0.25f * s};
    } else if (m00 > m11 && m00 > m22) {
      const float s = std::sqrt(1 + m00 - m11 - m22) * 2;
      q = {0.25f * s, (m.at(0, 1) + m.at(1, 0)) / s, (m.at(0, 2) + m.at(2, 0)) / s, (m.at(2, 1) - m.at(1, 2)) / s};
    } else if (m11 > m22) {
      const float s = std::sqrt(1 + m11 - m00 - m22) * 2;
      q = {(m.at(0, 1) + m.at(1, 0)) / s, 0.25f * s, (m.at(1, 2) + m.at(2, 1)) / s, (m.at(0, 2) - m.at(2, 0)) / s};
    } else {
      const float s = std::sqrt(1 + m22 - m00 - m11) * 2;
      q = {(m.at(0, 2) + m.at(2, 0)) / s, (m.at(1, 2) + m.at(2, 1)) / s, 0.25f * s, (m.at(1, 0) - m.at(0, 1)) / s};
    }
    return q;
  }

  // Hamilton product: the rotation `o` followed by this one.
  constexpr Quat operator*(Quat o) const {
    return {w * o.x + x * o.w + y * o.z - z * o.y, w * o.y - x * o.z + y * o.w + z * o.x,
            w * o.z + x * o.y - y * o.x + z * o.w, w * o.w - x * o.x - y * o.y - z * o.z};
  }

  // The inverse rotation of a unit quaternion.
  constexpr Quat conjugate() const { return {-x, -y, -z, w}; }

  // `v` turned by this (unit) quaternion: v + 2w(u × v) + 2u × (u × v), u the vector part.
  constexpr Vec3 rotate(Vec3 v) const {
    const Vec3 u{x, y, z};
    const Vec3 t = cross(u, v) * 2.0f;
    return v + t * w + cross(u, t);
  }

  // The rotation matrix of this (unit) quaternion, no translation.
  Mat4 to_mat4() const {
    const float xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y,
                wz = w * z;
    Mat4 r;
    r.at(0, 0) = 1 - 2 * (yy + zz), r.at(0, 1) = 2 * (xy - wz), r.at(0, 2) = 2 * (xz + wy);
    r.at(1, 0) = 2 * (xy + wz), r.at(1, 1) = 1 - 2 * (xx + zz), r.at(1, 2) = 2 * (yz - wx);
    r.at(2, 0) = 2 * (xz - wy), r.at(2, 1) = 2 * (yz + wx), r.at(2, 2) = 1 - 2 * (xx + yy);
    return r;
  }
};

constexpr float dot(Quat a, Quat b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
inline float length(Quat q) { return std::sqrt(dot(q, q)); }
// `q` scaled to unit length; the identity when it has none.
inline Quat normalize(Quat q) {
  const float l = length(q);
  if (!(l > 1e-20f)) return {};
  const float s = 1.0f / l;
  return {q.x * s, q.y * s, q.z * s, q.w * s};
}

inline Quat Quat::from_euler(float yaw, float pitch, float roll) {
  return from_axis_angle({0, 1, 0}, yaw) * from_axis_angle({1, 0, 0}, pitch) * from_axis_angle({0, 0, 1}, roll);
}

}  // namespace mf
