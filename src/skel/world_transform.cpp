#include "mf/skel/world_transform.hpp"

#include <cmath>

#include "mf/skel/constraints.hpp"

namespace mf::skel {
namespace {

constexpr float kDegToRad = 3.14159265358979323846f / 180.0f;

using Mat2 = Matrix2;

Mat2 local_matrix(const SkeletonPose& p, std::size_t i) {
  const float rx = (p.rotation[i] + p.shear_x[i]) * kDegToRad;
  const float ry = (p.rotation[i] + 90.0f + p.shear_y[i]) * kDegToRad;
  return {std::cos(rx) * p.scale_x[i], std::cos(ry) * p.scale_y[i], std::sin(rx) * p.scale_x[i],
          std::sin(ry) * p.scale_y[i]};
}

Mat2 multiply(const Mat2& p, const Mat2& l) {
  return {p.a * l.a + p.b * l.c, p.a * l.b + p.b * l.d, p.c * l.a + p.d * l.c, p.c * l.b + p.d * l.d};
}

}  // namespace

// The parent's 2×2 reduced to what the inherit mode keeps.
Matrix2 inherited_frame(const Matrix2& p, Inherit mode) {
  const float det = p.a * p.d - p.b * p.c;
  const float len = std::sqrt(p.a * p.a + p.c * p.c);
  // Unit X axis of the parent (its rotation); a degenerate parent falls back to no rotation.
  const float cx = len > 1e-12f ? p.a / len : 1.0f;
  const float sx = len > 1e-12f ? p.c / len : 0.0f;
  switch (mode) {
    case Inherit::Normal:
      return p;
    case Inherit::OnlyTranslation:
      return {1, 0, 0, 1};
    case Inherit::NoRotationOrReflection: {
      // R(−θ) · P removes the rotation; flipping the Y column when P reflects removes the reflection.
      Mat2 m{cx * p.a + sx * p.c, cx * p.b + sx * p.d, -sx * p.a + cx * p.c, -sx * p.b + cx * p.d};
      if (det < 0) {
        m.b = -m.b;
        m.d = -m.d;
      }
      return m;
    }
    case Inherit::NoScale:
      return det < 0 ? Mat2{cx, sx, sx, -cx} : Mat2{cx, -sx, sx, cx};
    case Inherit::NoScaleOrReflection:
      return {cx, -sx, sx, cx};
  }
  return p;
}

Matrix2 inherited_frame(const SkeletonPose& p, int bone) {
  const int parent = p.data().bones.parent[static_cast<std::size_t>(bone)];
  if (parent < 0) return {1, 0, 0, 1};  // every inherit mode keeps all of an identity parent
  const auto pi = static_cast<std::size_t>(parent);
  return inherited_frame(Matrix2{p.a[pi], p.b[pi], p.c[pi], p.d[pi]}, p.inherit[static_cast<std::size_t>(bone)]);
}

void update_world_transform(SkeletonPose& p, int bone) {
  const auto i = static_cast<std::size_t>(bone);
  const SkeletonData& data = p.data();
  const Mat2 local = local_matrix(p, i);
  const int parent = data.bones.parent[i];
  Mat2 world;
  if (parent < 0) {
    world = local;  // every inherit mode keeps all of an identity parent
    p.world_x[i] = p.x[i];
    p.world_y[i] = p.y[i];
  } else {
    const auto pi = static_cast<std::size_t>(parent);
    const Mat2 pm{p.a[pi], p.b[pi], p.c[pi], p.d[pi]};
    p.world_x[i] = pm.a * p.x[i] + pm.b * p.y[i] + p.world_x[pi];
    p.world_y[i] = pm.c * p.x[i] + pm.d * p.y[i] + p.world_y[pi];
    world = multiply(inherited_frame(pm, p.inherit[i]), local);
  }
  p.a[i] = world.a;
  p.b[i] = world.b;
  p.c[i] = world.c;
  p.d[i] = world.d;
}

void update_world_transforms(SkeletonPose& p) { update_skeleton(p, FrameContext{}); }

}  // namespace mf::skel
