#pragma once
// Camera: where a ForwardRenderer frame is seen from. Perspective (vertical field of view) or
// orthographic (the world height the view shows). World space is right-handed with +Y up.

#include <cstdint>

#include "mf/core/math/mat4.hpp"
#include "mf/core/math/vec3.hpp"

namespace mf::render {

struct Camera {
  enum class Projection : std::uint8_t { Perspective, Orthographic };
  Projection projection = Projection::Perspective;
  Vec3 position{0, 1.5f, 6};
  Vec3 target{0, 1, 0};
  Vec3 up{0, 1, 0};
  float fov_y_degrees = 45;   // Perspective
  float ortho_height = 4;     // Orthographic: world units shown from the bottom to the top of the target
  float near_plane = 0.05f;
  float far_plane = 200;

  // A perspective camera orbiting `target`: `yaw` turns about +Y (0: on +Z looking towards −Z),
  // `pitch` raises it (positive: above, looking down), both in degrees.
  static Camera orbit(Vec3 target, float yaw_degrees, float pitch_degrees, float distance);

  Mat4 view() const;
  Mat4 projection_matrix(float aspect) const;  // aspect = width / height
  Mat4 view_projection(float aspect) const { return projection_matrix(aspect) * view(); }
  // The unit direction the camera looks along.
  Vec3 forward() const;
};

}  // namespace mf::render
