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

// Calls fn(i, x, y) for each vertex i of `att` (shown on `slot`) with its world position: the weighted
// sum over its influences of the influence bone's world transform applied to the influence position
// plus its deform offset.
template <class Fn>
void for_each_world_vertex(const SkeletonPose& pose, std::int32_t slot, const AttachmentRecord& att, Fn&& fn) {
  const SkeletonData& data = pose.data();
  const float* deform = attachment_deform(pose, slot, att);
  const VertexInfluences* vertices = data.vertices.data() + att.vertex_start;
  std::uint32_t influence_number = 0;  // within the attachment: indexes its deform floats
  for (std::uint32_t i = 0; i < att.vertex_count; ++i) {
    const VertexInfluences& v = vertices[i];
    float wx = 0, wy = 0;
    for (std::uint32_t k = 0; k < v.count; ++k, ++influence_number) {
      const Influence& in = data.influences[v.first + k];
      const auto bone = static_cast<std::size_t>(in.bone);
      float lx = in.x, ly = in.y;
      if (deform) {
        lx += deform[2 * influence_number];
        ly += deform[2 * influence_number + 1];
      }
      wx += in.weight * (pose.a[bone] * lx + pose.b[bone] * ly + pose.world_x[bone]);
      wy += in.weight * (pose.c[bone] * lx + pose.d[bone] * ly + pose.world_y[bone]);
    }
    fn(i, wx, wy);
  }
}

}  // namespace mf::skel::detail
