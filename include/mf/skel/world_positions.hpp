#pragma once
// WorldPositions: the skeleton-space position of every vertex of every visible region and mesh, in
// draw order, and nothing else (no UVs, colours, indices or clipping). It is the per-frame work a host
// needs for its own vertex buffers, hit tests or effects, and what the CPU vertices stage of
// `mfe skel bench` measures. Buffers are sized from the data at construction; update() allocates
// nothing. Positions are the same floats CpuVertices and compute_world_vertices give.

#include <cstdint>
#include <span>
#include <vector>

#include "mf/skel/skeleton_data.hpp"
#include "mf/skel/skeleton_pose.hpp"

namespace mf::skel {

// One attachment's vertices in WorldPositions::positions(): vertices [first, first + count).
struct PositionRange {
  std::int32_t slot;
  std::int32_t attachment;
  std::uint32_t first, count;
};

class WorldPositions {
 public:
  explicit WorldPositions(const SkeletonData& data);

  // Positions of the region and mesh attachments shown on slots of active bones, in draw order. A
  // draw order that lists a slot more than once gets it once per listing as long as room remains;
  // what does not fit is left out.
  void update(const SkeletonPose& pose);

  std::span<const float> positions() const { return {positions_.data(), 2 * vertex_count_}; }  // x, y
  std::span<const PositionRange> ranges() const { return {ranges_.data(), range_count_}; }
  std::size_t vertex_count() const { return vertex_count_; }

 private:
  std::vector<float> positions_;
  std::vector<PositionRange> ranges_;
  std::vector<float> bones_;  // the pose's world transforms packed for the vertex loop
  std::vector<std::int32_t> rigid_bones_;  // per attachment: its one bone, or −1 (vertex_kernel.hpp)
  std::size_t vertex_count_ = 0, range_count_ = 0;
};

}  // namespace mf::skel
