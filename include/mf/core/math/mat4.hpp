#pragma once
// Mat4: a 4×4 float matrix, column-major (m[column * 4 + row]) as GLSL reads it, for 3D transforms
// and projections. Conventions: world space is right-handed with +Y up; a camera looks down its −Z;
// projections map to Vulkan's clip space (x right, y down, depth 0 at the near plane and 1 at the
// far plane).

#include <array>
#include <cmath>

#include "mf/core/math/vec3.hpp"

namespace mf {

struct Vec4 {
  float x = 0, y = 0, z = 0, w = 0;
};

struct Mat4 {
  std::array<float, 16> m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};  // identity

  float& at(int row, int column) { return m[static_cast<std::size_t>(column * 4 + row)]; }
  float at(int row, int column) const { return m[static_cast<std::size_t>(column * 4 + row)]; }

  static Mat4 identity() { return {}; }
  static Mat4 translation(Vec3 t) {
    Mat4 r;
    r.at(0, 3) = t.x;
    r.at(1, 3) = t.y;
    r.at(2, 3) = t.z;
    return r;
  }
  static Mat4 scale(Vec3 s) {
    Mat4 r;
    r.at(0, 0) = s.x;
    r.at(1, 1) = s.y;
    r.at(2, 2) = s.z;
    return r;
  }
  // Rotation about an axis through the origin by `radians` (right-handed: counter-clockwise looking
  // down the axis towards the origin).
  static Mat4 rotation(Vec3 axis, float radians) {
    const Vec3 a = normalize(axis);
    const float c = std::cos(radians), s = std::sin(radians), t = 1 - c;
    Mat4 r;
    r.at(0, 0) = t * a.x * a.x + c;
    r.at(0, 1) = t * a.x * a.y - s * a.z;
    r.at(0, 2) = t * a.x * a.z + s * a.y;
    r.at(1, 0) = t * a.x * a.y + s * a.z;
    r.at(1, 1) = t * a.y * a.y + c;
    r.at(1, 2) = t * a.y * a.z - s * a.x;
    r.at(2, 0) = t * a.x * a.z - s * a.y;
    r.at(2, 1) = t * a.y * a.z + s * a.x;
    r.at(2, 2) = t * a.z * a.z + c;
    return r;
  }
  // The view matrix of a camera at `eye` looking at `target` (world → view space, view looks down −Z).
  static Mat4 look_at(Vec3 eye, Vec3 target, Vec3 up) {
    const Vec3 f = normalize(target - eye, {0, 0, -1});
    Vec3 s = cross(f, up);
    if (dot(s, s) < 1e-12f) s = cross(f, std::abs(f.y) < 0.9f ? Vec3{0, 1, 0} : Vec3{1, 0, 0});
    s = normalize(s);
    const Vec3 u = cross(s, f);
    Mat4 r;
    r.at(0, 0) = s.x, r.at(0, 1) = s.y, r.at(0, 2) = s.z, r.at(0, 3) = -dot(s, eye);
    r.at(1, 0) = u.x, r.at(1, 1) = u.y, r.at(1, 2) = u.z, r.at(1, 3) = -dot(u, eye);
    r.at(2, 0) = -f.x, r.at(2, 1) = -f.y, r.at(2, 2) = -f.z, r.at(2, 3) = dot(f, eye);
    return r;
  }
  // Perspective projection to Vulkan clip space; `fov_y` in radians, `aspect` = width / height.
  static Mat4 perspective(float fov_y, float aspect, float near_plane, float far_plane) {
    const float f = 1.0f / std::tan(fov_y * 0.5f);
    Mat4 r;
    r.m.fill(0);
    r.at(0, 0) = f / aspect;
    r.at(1, 1) = -f;  // Vulkan's y points down
    r.at(2, 2) = far_plane / (near_plane - far_plane);
    r.at(2, 3) = near_plane * far_plane / (near_plane - far_plane);
    r.at(3, 2) = -1;
    return r;
  }
  // Orthographic projection of the view-space box [left, right] × [bottom, top] × [−far, −near].
  static Mat4 orthographic(float left, float right, float bottom, float top, float near_plane, float far_plane) {
    Mat4 r;
    r.at(0, 0) = 2 / (right - left);
    r.at(0, 3) = -(right + left) / (right - left);
    r.at(1, 1) = -2 / (top - bottom);
    r.at(1, 3) = (top + bottom) / (top - bottom);
    r.at(2, 2) = 1 / (near_plane - far_plane);
    r.at(2, 3) = near_plane / (near_plane - far_plane);
    return r;
  }

  friend Mat4 operator*(const Mat4& a, const Mat4& b) {
    Mat4 r;
    for (int c = 0; c < 4; ++c)
      for (int row = 0; row < 4; ++row) {
        float s = 0;
        for (int k = 0; k < 4; ++k) s += a.at(row, k) * b.at(k, c);
        r.at(row, c) = s;
      }
    return r;
  }
  Vec4 operator*(Vec4 v) const {
    return {at(0, 0) * v.x + at(0, 1) * v.y + at(0, 2) * v.z + at(0, 3) * v.w,
            at(1, 0) * v.x + at(1, 1) * v.y + at(1, 2) * v.z + at(1, 3) * v.w,
            at(2, 0) * v.x + at(2, 1) * v.y + at(2, 2) * v.z + at(2, 3) * v.w,
            at(3, 0) * v.x + at(3, 1) * v.y + at(3, 2) * v.z + at(3, 3) * v.w};
  }
  // The point through the matrix, divided by w.
  Vec3 transform_point(Vec3 p) const {
    const Vec4 r = *this * Vec4{p.x, p.y, p.z, 1};
    const float inv = r.w != 0 ? 1 / r.w : 1;
    return {r.x * inv, r.y * inv, r.z * inv};
  }
  // The direction through the upper 3×3 (no translation).
  Vec3 transform_vector(Vec3 v) const {
    return {at(0, 0) * v.x + at(0, 1) * v.y + at(0, 2) * v.z, at(1, 0) * v.x + at(1, 1) * v.y + at(1, 2) * v.z,
            at(2, 0) * v.x + at(2, 1) * v.y + at(2, 2) * v.z};
  }
  Vec3 column3(int c) const { return {at(0, c), at(1, c), at(2, c)}; }
  float determinant3() const { return dot(column3(0), cross(column3(1), column3(2))); }

  // The inverse (general 4×4, by cofactors); the identity when the matrix is singular.
  Mat4 inverse() const {
    const auto& a = m;
    std::array<float, 16> inv{};
    inv[0] = a[5] * a[10] * a[15] - a[5] * a[11] * a[14] - a[9] * a[6] * a[15] + a[9] * a[7] * a[14] + a[13] * a[6] * a[11] - a[13] * a[7] * a[10];
    inv[4] = -a[4] * a[10] * a[15] + a[4] * a[11] * a[14] + a[8] * a[6] * a[15] - a[8] * a[7] * a[14] - a[12] * a[6] * a[11] + a[12] * a[7] * a[10];
    inv[8] = a[4] * a[9] * a[15] - a[4] * a[11] * a[13] - a[8] * a[5] * a[15] + a[8] * a[7] * a[13] + a[12] * a[5] * a[11] - a[12] * a[7] * a[9];
    inv[12] = -a[4] * a[9] * a[14] + a[4] * a[10] * a[13] + a[8] * a[5] * a[14] - a[8] * a[6] * a[13] - a[12] * a[5] * a[10] + a[12] * a[6] * a[9];
    inv[1] = -a[1] * a[10] * a[15] + a[1] * a[11] * a[14] + a[9] * a[2] * a[15] - a[9] * a[3] * a[14] - a[13] * a[2] * a[11] + a[13] * a[3] * a[10];
    inv[5] = a[0] * a[10] * a[15] - a[0] * a[11] * a[14] - a[8] * a[2] * a[15] + a[8] * a[3] * a[14] + a[12] * a[2] * a[11] - a[12] * a[3] * a[10];
    inv[9] = -a[0] * a[9] * a[15] + a[0] * a[11] * a[13] + a[8] * a[1] * a[15] - a[8] * a[3] * a[13] - a[12] * a[1] * a[11] + a[12] * a[3] * a[9];
    inv[13] = a[0] * a[9] * a[14] - a[0] * a[10] * a[13] - a[8] * a[1] * a[14] + a[8] * a[2] * a[13] + a[12] * a[1] * a[10] - a[12] * a[2] * a[9];
    inv[2] = a[1] * a[6] * a[15] - a[1] * a[7] * a[14] - a[5] * a[2] * a[15] + a[5] * a[3] * a[14] + a[13] * a[2] * a[7] - a[13] * a[3] * a[6];
    inv[6] = -a[0] * a[6] * a[15] + a[0] * a[7] * a[14] + a[4] * a[2] * a[15] - a[4] * a[3] * a[14] - a[12] * a[2] * a[7] + a[12] * a[3] * a[6];
    inv[10] = a[0] * a[5] * a[15] - a[0] * a[7] * a[13] - a[4] * a[1] * a[15] + a[4] * a[3] * a[13] + a[12] * a[1] * a[7] - a[12] * a[3] * a[5];
    inv[14] = -a[0] * a[5] * a[14] + a[0] * a[6] * a[13] + a[4] * a[1] * a[14] - a[4] * a[2] * a[13] - a[12] * a[1] * a[6] + a[12] * a[2] * a[5];
    inv[3] = -a[1] * a[6] * a[11] + a[1] * a[7] * a[10] + a[5] * a[2] * a[11] - a[5] * a[3] * a[10] - a[9] * a[2] * a[7] + a[9] * a[3] * a[6];
    inv[7] = a[0] * a[6] * a[11] - a[0] * a[7] * a[10] - a[4] * a[2] * a[11] + a[4] * a[3] * a[10] + a[8] * a[2] * a[7] - a[8] * a[3] * a[6];
    inv[11] = -a[0] * a[5] * a[11] + a[0] * a[7] * a[9] + a[4] * a[1] * a[11] - a[4] * a[3] * a[9] - a[8] * a[1] * a[7] + a[8] * a[3] * a[5];
    inv[15] = a[0] * a[5] * a[10] - a[0] * a[6] * a[9] - a[4] * a[1] * a[10] + a[4] * a[2] * a[9] + a[8] * a[1] * a[6] - a[8] * a[2] * a[5];
    const float det = a[0] * inv[0] + a[1] * inv[4] + a[2] * inv[8] + a[3] * inv[12];
    Mat4 r;
    if (det == 0 || !std::isfinite(det)) return r;
    const float s = 1 / det;
    for (std::size_t i = 0; i < 16; ++i) r.m[i] = inv[i] * s;
    return r;
  }
};

}  // namespace mf
