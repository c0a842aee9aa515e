// Transform constraints: copy or offset a target bone's rotation, translation, scale and shear onto the
// constrained bones, each channel with its own mix (pose.transform) and offset (TransformData).
//
// World space (default) works on world transforms: the bone's world 2×2 and position are changed and
// written back as the bone's local pose (bone_world_edit.hpp), so the update order recomputes the
// descendants from local values like any other bone. Channels, with m the channel's mix and o its
// offset, "bone" and "target" the world values:
//   rotation (X axis direction)  absolute: turn by wrap(target + o − bone)·m   relative: turn by wrap(target + o)·m
//   translation                  the target's transform applied to (offset x, offset y) is the point p;
//                                absolute: bone += (p − bone)·m                relative: bone += p·m
//   scale X / Y (axis lengths)   absolute: s += (target + o − s)·m             relative: s ·= 1 + (target − 1 + o)·m
//   shear Y (Y axis vs X + 90°)  absolute: turn the Y axis by wrap(target + o − bone)·m
//                                relative: turn the Y axis by wrap(target + o)·m
// Rotation turns both axes, so it keeps the bone's world scale and shear; world angles are compared on
// the shortest arc (a world angle has no turn count).
//
// Local space (TransformData::local) works on the local pose values with the same formulas, reading the
// target's local pose: rotation, x, y, scale X/Y and shear Y. Local angles are plain numbers (no
// wrapping), as keyed values are. Then the bone's world transform is recomputed.
//
// A channel whose mix is 0 leaves its values untouched. An inactive target leaves the bones alone.
// Bones that are inactive (skin-required, not in the skin) while the constraint is active: in world
// space the constraint still changes the world transform such a bone holds (the identity at the origin
// until it is first changed; the update order never recomputes an inactive bone, so with mixes below 1
// it moves further each frame), written as the world transform itself, its local pose untouched. It
// draws nothing, but reads of its world transform see it. Local space skips inactive bones.

#include <cmath>

#include "bone_world_edit.hpp"
#include "mf/skel/constraints.hpp"
#include "mf/skel/world_transform.hpp"

namespace mf::skel {
namespace {

using detail::BoneWorld;
using detail::wrap_degrees;

void apply_world(SkeletonPose& pose, int bone, const BoneWorld& target, const TransformData& c, const TransformPose& m) {
  const auto i = static_cast<std::size_t>(bone);
  const bool active = pose.active[i] != 0;
  // The parent may have been changed by this constraint already (a constrained bone's descendant). An
  // inactive bone is never recomputed: it starts from the world transform it holds.
  if (active) update_world_transform(pose, bone);
  BoneWorld w = detail::bone_world(pose, bone);
  bool matrix = false, position = false;
  if (m.mix_rotate != 0) {
    const float turn = c.relative ? target.rotation() + c.offset_rotation
                                  : target.rotation() + c.offset_rotation - w.rotation();
    w.rotate(wrap_degrees(turn) * m.mix_rotate);
    matrix = true;
  }
  if (m.mix_x != 0 || m.mix_y != 0) {
    const float px = target.a * c.offset_x + target.b * c.offset_y + target.x;
    const float py = target.c * c.offset_x + target.d * c.offset_y + target.y;
    if (c.relative) {
      w.x += px * m.mix_x;
      w.y += py * m.mix_y;
    } else {
      w.x += (px - w.x) * m.mix_x;
      w.y += (py - w.y) * m.mix_y;
    }
    position = true;
  }
  constexpr float kTiny = 1e-6f;
  if (m.mix_scale_x != 0) {
    const float s = w.scale_x();
    if (s > kTiny) {
      const float ts = target.scale_x();
      const float f = c.relative ? 1 + (ts - 1 + c.offset_scale_x) * m.mix_scale_x
                                 : (s + (ts + c.offset_scale_x - s) * m.mix_scale_x) / s;
      w.a *= f;
      w.c *= f;
      matrix = true;
    }
  }
  if (m.mix_scale_y != 0) {
    const float s = w.scale_y();
    if (s > kTiny) {
      const float ts = target.scale_y();
      const float f = c.relative ? 1 + (ts - 1 + c.offset_scale_y) * m.mix_scale_y
                                 : (s + (ts + c.offset_scale_y - s) * m.mix_scale_y) / s;
      w.b *= f;
      w.d *= f;
      matrix = true;
    }
  }
  if (m.mix_shear_y != 0) {
    const float turn = c.relative ? target.shear_y() + c.offset_shear_y
                                  : target.shear_y() + c.offset_shear_y - w.shear_y();
    w.rotate_y_axis(wrap_degrees(turn) * m.mix_shear_y);
    matrix = true;
  }
  if (!(matrix || position)) return;
  if (active) {
    detail::set_bone_world(pose, bone, w, position, matrix);
  } else {
    pose.a[i] = w.a, pose.b[i] = w.b, pose.c[i] = w.c, pose.d[i] = w.d;
    pose.world_x[i] = w.x, pose.world_y[i] = w.y;
  }
}

void apply_local(SkeletonPose& pose, int bone, int target, const TransformData& c, const TransformPose& m) {
  const auto i = static_cast<std::size_t>(bone);
  const auto t = static_cast<std::size_t>(target);
  if (c.relative) {
    pose.rotation[i] += (pose.rotation[t] + c.offset_rotation) * m.mix_rotate;
    pose.x[i] += (pose.x[t] + c.offset_x) * m.mix_x;
    pose.y[i] += (pose.y[t] + c.offset_y) * m.mix_y;
    pose.scale_x[i] *= 1 + (pose.scale_x[t] - 1 + c.offset_scale_x) * m.mix_scale_x;
    pose.scale_y[i] *= 1 + (pose.scale_y[t] - 1 + c.offset_scale_y) * m.mix_scale_y;
    pose.shear_y[i] += (pose.shear_y[t] + c.offset_shear_y) * m.mix_shear_y;
  } else {
    pose.rotation[i] += (pose.rotation[t] + c.offset_rotation - pose.rotation[i]) * m.mix_rotate;
    pose.x[i] += (pose.x[t] + c.offset_x - pose.x[i]) * m.mix_x;
    pose.y[i] += (pose.y[t] + c.offset_y - pose.y[i]) * m.mix_y;
    pose.scale_x[i] += (pose.scale_x[t] + c.offset_scale_x - pose.scale_x[i]) * m.mix_scale_x;
    pose.scale_y[i] += (pose.scale_y[t] + c.offset_scale_y - pose.scale_y[i]) * m.mix_scale_y;
    pose.shear_y[i] += (pose.shear_y[t] + c.offset_shear_y - pose.shear_y[i]) * m.mix_shear_y;
  }
  update_world_transform(pose, bone);
}

}  // namespace

void solve_transform(SkeletonPose& pose, int index) {
  const SkeletonData& data = pose.data();
  const TransformData& c = data.transform[static_cast<std::size_t>(index)];
  const TransformPose& m = pose.transform[static_cast<std::size_t>(index)];
  if (m.mix_rotate == 0 && m.mix_x == 0 && m.mix_y == 0 && m.mix_scale_x == 0 && m.mix_scale_y == 0 &&
      m.mix_shear_y == 0)
    return;
  if (!pose.active[static_cast<std::size_t>(c.target)]) return;
  const BoneWorld target = detail::bone_world(pose, c.target);
  for (const std::int32_t bone : c.bones) {
    if (c.local) {
      if (pose.active[static_cast<std::size_t>(bone)]) apply_local(pose, bone, c.target, c, m);
    } else {
      apply_world(pose, bone, target, c, m);
    }
  }
}

}  // namespace mf::skel
