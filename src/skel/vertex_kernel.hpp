#pragma once
// Internal: the vertex loop of the per-frame paths (CpuVertices, WorldPositions). It reads the bones'
// world transforms packed once per update and writes each vertex's (x, y) as a pair, two lanes at a
// time where the processor has SSE2. Every lane does the operations of the scalar loop in
// world_vertices.hpp in the same order, so both give the same floats: compute_world_vertices and
// pose_bounds (which use that loop) cannot disagree with what is drawn.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mf/skel/skeleton_pose.hpp"

namespace mf::skel::detail {

// Floats per packed bone: a, c, b, d (the two columns), x, y (the translation), two unused.
inline constexpr std::size_t kPackedBoneFloats = 8;

// Packs every bone's world transform into `out` (kPackedBoneFloats per bone).
void pack_bones(const SkeletonPose& pose, float* out);

// Per attachment, the bone every vertex follows when each has one influence of weight 1 on that bone
// and the influences lie in vertex order (regions, unweighted meshes); −1 otherwise. Made once per
// data, for write_world_vertices' rigid path.
std::vector<std::int32_t> rigid_bones(const SkeletonData& data);

// The world position of each vertex of `att` shown on `slot` (its influences' weighted sum, deform
// included), vertex i's x and y written to out[i·stride] and out[i·stride + 1]. `rigid_bone` is the
// attachment's entry of rigid_bones (−1 when unknown).
void write_world_vertices(const SkeletonPose& pose, std::int32_t slot, const AttachmentRecord& att,
                          std::int32_t rigid_bone, const float* packed_bones, float* out, std::size_t stride);

}  // namespace mf::skel::detail
