#include "mf/offline/format/setup_world.hpp"

#include "mf/core/math/bone_local.hpp"

namespace mf::offline {

std::vector<std::optional<Affine2d>> setup_world_transforms(const SkeletonSource& skeleton) {
  std::vector<std::optional<Affine2d>> world(skeleton.bones.size());
  for (std::size_t i = 0; i < skeleton.bones.size(); ++i) {
    const Bone& b = skeleton.bones[i];
    if (b.inherit != Inherit::Normal) continue;
    const Matrix2d m = bone_local_matrix<double>(b.rotation, b.scale_x, b.scale_y, b.shear_x, b.shear_y);
    const Affine2d local = Affine2d::from(m, b.x, b.y);
    if (b.parent < 0) {
      world[i] = local;
      continue;
    }
    const std::optional<Affine2d>& p = world[static_cast<std::size_t>(b.parent)];
    if (!p) continue;
    world[i] = *p * local;
  }
  return world;
}

}  // namespace mf::offline
