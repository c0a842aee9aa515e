#include "mf/skel/world_transform.hpp"

#include <cmath>

#include "mf/core/math/bone_local.hpp"
#include "mf/skel/constraints.hpp"

namespace mf::skel {
namespace {

Matrix2 local_matrix(const SkeletonPose& p, std::size_t i) {
  return bone_local_matrix(p.rotation[i], p.scale_x[i], p.scale_y[i], p.shear_x[i], p.shear_y[i]);
}

}  // namespace

// The parent's 2×2 reduced to what the inherit mode keeps.
Matrix2 inherited_frame(const Matrix2& p, Inherit mode) {
  if (mode == Inherit::Normal) return p;  // most bones: nothing to take out
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
      Matrix2 m{cx * p.a + sx * p.c, cx * p.b + sx * p.d, -sx * p.a + cx * p.c, -sx * p.b + cx * p.d};
      if (det < 0) {
        m.b = -m.b;
        m.d = -m.d;
      }
      return m;
    }
    case Inherit::NoScale:
      return det < 0 ? Matrix2{cx, sx, sx, -cx} : Matrix2{cx, -sx, sx, cx};
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
  const Matrix2 local = local_matrix(p, i);
  const int parent = data.bones.parent[i];
  Matrix2 world;
  if (parent < 0) {
    world = local;  // every inherit mode keeps all of an identity parent
    p.world_x[i] = p.x[i];
    p.world_y[i] = p.y[i];
  } else {
    const auto pi = static_cast<std::size_t>(parent);
    const Matrix2 pm{p.a[pi], p.b[pi], p.c[pi], p.d[pi]};
    p.world_x[i] = pm.a * p.x[i] + pm.b * p.y[i] + p.world_x[pi];
    p.world_y[i] = pm.c * p.x[i] + pm.d * p.y[i] + p.world_y[pi];
    world = inherited_frame(pm, p.inherit[i]) * local;
  }
  p.a[i] = world.a;
  p.b[i] = world.b;
  p.c[i] = world.c;
  p.d[i] = world.d;
}

void update_world_transforms(SkeletonPose& p) { update_skeleton(p, FrameContext{}); }

}  // namespace mf::skel
