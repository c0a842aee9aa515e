#pragma once
// Internal: the one loop that turns an attachment's influences into skeleton-space positions, shared by
// CpuVertices, compute_world_vertices and pose_bounds so they cannot disagree.

#include <cstdint>

#include "mf/skel/skeleton_pose.hpp"

namespace mf::skel::detail {

// The deform floats (2 per influence, bone space) that apply to `att` on `slot`, or nullptr: they apply
// when the slot's deform belongs to the attachment's deform source and the slot's range holds them all.
inline const float* attachment_deform(const SkeletonPose& pose, std::int32_t slot, const AttachmentRecord& att) {
  const auto s = static_cast<std::size_t>(slot);
  if (att.deform_source < 0 || pose.deform_attachment[s] != att.deform_source) return nullptr;
  const std::size_t start = pose.deform_start[s];
  if (start + 2 * static_cast<std::size_t>(att.influence_count) > pose.deform.size()) return nullptr;
  return pose.deform.data() + start;
}

// A bone's world transform packed together, for loops that read many bones' transforms per vertex.
struct PackedBone {
  float a, b, c, d, x, y;
};

// Calls fn(i, x, y) for each vertex i of `att` (shown on `slot`) with its world position: the weighted
// sum over its influences of the influence bone's world transform applied to the influence position
// plus its deform offset. `bone_of(index)` gives a bone's world transform as a PackedBone.
template <class BoneOf, class Fn>
void for_each_world_vertex(const SkeletonPose& pose, std::int32_t slot, const AttachmentRecord& att, BoneOf&& bone_of,
                           Fn&& fn) {
  const SkeletonData& data = pose.data();
  const float* deform = attachment_deform(pose, slot, att);
  const VertexInfluences* vertices = data.vertices.data() + att.vertex_start;
  std::uint32_t influence_number = 0;  // within the attachment: indexes its deform floats
  for (std::uint32_t i = 0; i < att.vertex_count; ++i) {
    const VertexInfluences& v = vertices[i];
    float wx = 0, wy = 0;
    for (std::uint32_t k = 0; k < v.count; ++k, ++influence_number) {
      const Influence& in = data.influences[v.first + k];
      const PackedBone m = bone_of(in.bone);
      float lx = in.x, ly = in.y;
      if (deform) {
        lx += deform[2 * influence_number];
        ly += deform[2 * influence_number + 1];
      }
      wx += in.weight * (m.a * lx + m.b * ly + m.x);
      wy += in.weight * (m.c * lx + m.d * ly + m.y);
    }
    fn(i, wx, wy);
  }
}

// The same, reading the bones' transforms from the pose.
template <class Fn>
void for_each_world_vertex(const SkeletonPose& pose, std::int32_t slot, const AttachmentRecord& att, Fn&& fn) {
  for_each_world_vertex(
      pose, slot, att,
      [&pose](std::int32_t bone) {
        const auto b = static_cast<std::size_t>(bone);
        return PackedBone{pose.a[b], pose.b[b], pose.c[b], pose.d[b], pose.world_x[b], pose.world_y[b]};
      },
      fn);
}

}  // namespace mf::skel::detail
