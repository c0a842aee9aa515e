// Camera: view and projection matrices (conventions in mf/core/math/mat4.hpp).

#include "mf/render/forward/camera.hpp"

#include <cmath>
#include <numbers>

namespace mf::render {

namespace {
float radians(float degrees) { return degrees * std::numbers::pi_v<float> / 180.0f; }
}  // namespace

Camera Camera::orbit(Vec3 target, float yaw_degrees, float pitch_degrees, float distance) {
  const float yaw = radians(yaw_degrees), pitch = radians(pitch_degrees);
  Camera c;
  c.target = target;
  c.position = target + Vec3{std::sin(yaw) * std::cos(pitch), std::sin(pitch), std::cos(yaw) * std::cos(pitch)} * distance;
  return c;
}

Mat4 Camera::view() const { return Mat4::look_at(position, target, up); }

Mat4 Camera::projection_matrix(float aspect) const {
  if (projection == Projection::Orthographic) {
    const float h = ortho_height * 0.5f, w = h * aspect;
    return Mat4::orthographic(-w, w, -h, h, near_plane, far_plane);
  }
  return Mat4::perspective(radians(fov_y_degrees), aspect, near_plane, far_plane);
}

Vec3 Camera::forward() const { return normalize(target - position, {0, 0, -1}); }

}  // namespace mf::render
