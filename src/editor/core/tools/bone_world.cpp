#include "mf/editor/core/tools/bone_world.hpp"

#include "mf/core/math/bone_local.hpp"
#include "mf/offline/format/setup_world.hpp"
#include "mf/skel/world_transform.hpp"

namespace mf::editor {

using offline::Bone;
using offline::Inherit;

Matrix2d inherited_frame_of(const Matrix2d& parent, Inherit mode) {
  if (mode == Inherit::Normal) return parent;
  const Matrix2 f = skel::inherited_frame(
      Matrix2{static_cast<float>(parent.a), static_cast<float>(parent.b), static_cast<float>(parent.c),
              static_cast<float>(parent.d)},
      mode);
  return {f.a, f.b, f.c, f.d};
}

Matrix2d local_matrix(const Bone& b) {
  return bone_local_matrix<double>(b.rotation, b.scale_x, b.scale_y, b.shear_x, b.shear_y);
}

Affine2d world_of(const Bone& b, const std::optional<Affine2d>& parent_world) {
  const Affine2d local = Affine2d::from(local_matrix(b), b.x, b.y);
  if (!parent_world) return local;  // every inherit mode keeps all of an identity parent
  if (b.inherit == Inherit::Normal) return *parent_world * local;
  const Matrix2d frame = inherited_frame_of(parent_world->linear(), b.inherit);
  const Vec2d origin = parent_world->apply(Vec2d{b.x, b.y});
  return Affine2d::from(frame * local.linear(), origin.x, origin.y);
}

std::vector<Affine2d> bone_worlds(const offline::SkeletonSource& s) {
  // The Normal chains come from the offline rule itself, so the two never disagree.
  const std::vector<std::optional<Affine2d>> normal = offline::setup_world_transforms(s);
  std::vector<Affine2d> out(s.bones.size());
  for (std::size_t i = 0; i < s.bones.size(); ++i) {
    if (normal[i]) {
      out[i] = *normal[i];
      continue;
    }
    const Bone& b = s.bones[i];
    out[i] = world_of(b, b.parent < 0 ? std::nullopt : std::optional<Affine2d>(out[static_cast<std::size_t>(b.parent)]));
  }
  return out;
}

}  // namespace mf::editor
