#include "mf/editor/core/tools/bone_tools.hpp"

#include <cmath>

#include "mf/core/math/angle.hpp"
#include "mf/editor/core/model/bone_hierarchy.hpp"
#include "mf/editor/core/model/names.hpp"
#include "mf/editor/core/tools/bone_world.hpp"

namespace mf::editor {

using offline::Bone;
using offline::SkeletonSource;

namespace {

constexpr double kTiny = 1e-12;

double wrap_degrees(double d) { return std::remainder(d, 360.0); }

std::optional<Matrix2d> inverse(const Matrix2d& m) {
  const double det = m.det();
  if (!(std::abs(det) > kTiny) || !std::isfinite(det)) return std::nullopt;
  const Matrix2d adj = m.adjugate();
  return Matrix2d{adj.a / det, adj.b / det, adj.c / det, adj.d / det};
}

std::optional<Affine2d> parent_world_of(const std::vector<Affine2d>& worlds, int parent) {
  if (parent < 0) return std::nullopt;
  return worlds[static_cast<std::size_t>(parent)];
}

// Writes the rotation, scale and shear Y that give local matrix `l` into `out`, keeping its shear X
// and the sign of its scale X (the inverse of mf::bone_local_matrix).
void decompose(Bone& out, const Matrix2d& l) {
  const double shx = out.shear_x;
  const double s1 = out.scale_x < 0 ? -1.0 : 1.0;
  const double x_angle = std::atan2(s1 * l.c, s1 * l.a) * kRadToDegD;
  const double rotation = out.rotation + wrap_degrees(x_angle - shx - out.rotation);
  const double s2 = l.det() < 0 ? -s1 : s1;
  const double y_angle = std::atan2(s2 * l.d, s2 * l.b) * kRadToDegD;
  double shear_y = shx + wrap_degrees(y_angle - x_angle - 90.0);
  // Float noise must not give an unsheared bone a shear of 1e-7 degrees in its file.
  if (out.shear_y == 0 && std::abs(shear_y) < 1e-6) shear_y = 0;
  out.rotation = static_cast<float>(rotation);
  out.scale_x = static_cast<float>(s1 * std::hypot(l.a, l.c));
  out.scale_y = static_cast<float>(s2 * std::hypot(l.b, l.d));
  out.shear_y = static_cast<float>(shear_y);
}

}  // namespace

Expected<Bone> bone_for_world(const Bone& bone, const std::optional<Affine2d>& parent_world, const Affine2d& world) {
  Bone out = bone;
  Vec2d origin = world.origin();
  Matrix2d frame = Matrix2d::identity();
  if (parent_world) {
    const std::optional<Affine2d> inv = parent_world->inverse();
    if (!inv) return edit_error("bone " + quoted(bone.name) + ": its parent has a zero scale, so no local pose gives this world pose");
    origin = inv->apply(origin);
    frame = inherited_frame_of(parent_world->linear(), bone.inherit);
  }
  const std::optional<Matrix2d> frame_inv = inverse(frame);
  if (!frame_inv) return edit_error("bone " + quoted(bone.name) + ": the frame it inherits has a zero scale");
  const Matrix2d l = *frame_inv * world.linear();
  if (!(std::abs(l.det()) > kTiny)) return edit_error("bone " + quoted(bone.name) + ": the world pose has a zero scale");
  decompose(out, l);
  out.x = static_cast<float>(origin.x);
  out.y = static_cast<float>(origin.y);
  return out;
}

Expected<Bone> bone_at(const SkeletonSource& s, int parent, Vec2d origin, std::optional<Vec2d> tip) {
  Bone b;
  b.parent = parent;
  Matrix2d frame = Matrix2d::identity();
  Vec2d local = origin;
  if (parent >= 0) {
    const Affine2d pw = bone_worlds(s)[static_cast<std::size_t>(parent)];
    const std::optional<Affine2d> inv = pw.inverse();
    if (!inv) return edit_error("bone " + quoted(s.bones[static_cast<std::size_t>(parent)].name) + " has a zero scale: no bone can be placed under it");
    local = inv->apply(origin);
    frame = pw.linear();
  }
  b.x = static_cast<float>(local.x);
  b.y = static_cast<float>(local.y);
  if (tip) {
    const std::optional<Matrix2d> frame_inv = inverse(frame);
    if (!frame_inv) return edit_error("the parent's frame has a zero scale");
    // With local scale 1 the world X axis is frame · (cos r, sin r): the tip direction in the
    // parent's frame gives the rotation, and its length the bone's length.
    const Vec2d dl = *frame_inv * (*tip - origin);
    b.rotation = static_cast<float>(std::atan2(dl.y, dl.x) * kRadToDegD);
    b.length = static_cast<float>(std::hypot(dl.x, dl.y));
  }
  return b;
}

Expected<Bone> reparented(const SkeletonSource& s, int bone, int new_parent) {
  const std::vector<Affine2d> worlds = bone_worlds(s);
  Bone b = s.bones[static_cast<std::size_t>(bone)];
  b.parent = new_parent;
  return bone_for_world(b, parent_world_of(worlds, new_parent), worlds[static_cast<std::size_t>(bone)]);
}

Expected<std::vector<std::pair<int, Bone>>> move_without_children(const SkeletonSource& s, int bone, const Bone& value) {
  const std::vector<Affine2d> worlds = bone_worlds(s);
  const Affine2d moved = world_of(value, parent_world_of(worlds, value.parent));
  std::vector<std::pair<int, Bone>> out;
  out.emplace_back(bone, value);
  for (int c : children(s, bone)) {
    Expected<Bone> child = bone_for_world(s.bones[static_cast<std::size_t>(c)], moved, worlds[static_cast<std::size_t>(c)]);
    if (!child) return Unexpected{child.error()};
    out.emplace_back(c, std::move(child).value());
  }
  return out;
}

}  // namespace mf::editor
