#pragma once
// Vec3: a 3D vector of floats (world positions, directions, normals), with the usual operations.

#include <cmath>

namespace mf {

struct Vec3 {
  float x = 0, y = 0, z = 0;
  friend constexpr Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
  friend constexpr Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
  friend constexpr Vec3 operator-(Vec3 a) { return {-a.x, -a.y, -a.z}; }
  friend constexpr Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
  friend constexpr Vec3 operator*(float s, Vec3 a) { return a * s; }
  friend constexpr bool operator==(Vec3, Vec3) = default;
};

constexpr float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
constexpr Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
inline float length(Vec3 a) { return std::sqrt(dot(a, a)); }
// `a` scaled to unit length; `fallback` when it has none.
inline Vec3 normalize(Vec3 a, Vec3 fallback = {0, 0, 1}) {
  const float l = length(a);
  return l > 1e-20f ? a * (1.0f / l) : fallback;
}

}  // namespace mf
