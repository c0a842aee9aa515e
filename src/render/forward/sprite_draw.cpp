// sprite_model_matrix: a skeleton sprite's model matrix, with its billboard rotation.

#include "mf/render/forward/sprite_draw.hpp"

#include <cmath>

namespace mf::render {

namespace {

// The matrix whose columns are the basis vectors `x`, `y`, `z` (no translation).
Mat4 basis(Vec3 x, Vec3 y, Vec3 z) {
  Mat4 r;
  r.at(0, 0) = x.x, r.at(1, 0) = x.y, r.at(2, 0) = x.z;
  r.at(0, 1) = y.x, r.at(1, 1) = y.y, r.at(2, 1) = y.z;
  r.at(0, 2) = z.x, r.at(1, 2) = z.y, r.at(2, 2) = z.z;
  return r;
}

// Y: worked out in the transform's local space, where the up axis is +Y. The local direction
// towards the camera (or against its view for an orthographic one), without its Y component, is
// where the turned plane's +Z points; through the transform it points at the camera's position
// projected onto the plane perpendicular to the up axis. Straight above or below: no turn.
Mat4 y_billboard(const Mat4& transform, const Camera& camera) {
  const Mat4 to_local = transform.inverse();
  const Vec3 towards = camera.projection == Camera::Projection::Orthographic
                           ? to_local.transform_vector(-camera.forward())
                           : to_local.transform_point(camera.position);
  const float length_xz = std::sqrt(towards.x * towards.x + towards.z * towards.z);
  if (!(length_xz > 1e-12f)) return Mat4::identity();
  const float nx = towards.x / length_xz, nz = towards.z / length_xz;
  return basis({nz, 0, -nx}, {0, 1, 0}, {nx, 0, nz});  // the rotation about +Y taking +Z to (nx, 0, nz)
}

// Full: the transform's translation and scale kept, its rotation replaced by the camera's: +Z
// against the view direction, +Y the camera's up made orthogonal to it.
Mat4 full_billboard(const Mat4& transform, const Camera& camera) {
  const Vec3 normal = -camera.forward();
  Vec3 up = camera.up - normal * dot(camera.up, normal);
  if (dot(up, up) < 1e-12f) up = std::abs(normal.y) < 0.9f ? Vec3{0, 1, 0} - normal * normal.y : Vec3{1, 0, 0} - normal * normal.x;
  up = normalize(up, {0, 1, 0});
  const Vec3 right = cross(up, normal);
  const Vec3 scale{length(transform.column3(0)), length(transform.column3(1)), length(transform.column3(2))};
  return Mat4::translation(transform.column3(3)) * basis(right, up, normal) * Mat4::scale(scale);
}

}  // namespace

Mat4 sprite_model_matrix(const SpriteDrawOptions& options, const Camera& camera) {
  const float s = options.pixel_size;
  // Skeleton pixels (Y down) → metres (Y up), with the flips in the skeleton's plane.
  const Mat4 pixels = Mat4::scale({options.flip_h ? -s : s, options.flip_v ? s : -s, s});
  switch (options.billboard) {
    case SkeletonBillboard::Y:
      return options.transform * y_billboard(options.transform, camera) * pixels;
    case SkeletonBillboard::Full:
      return full_billboard(options.transform, camera) * pixels;
    case SkeletonBillboard::None:
      break;
  }
  return options.transform * pixels;
}

}  // namespace mf::render
