#pragma once
// World-space vertices on the CPU: the fallback path of the renderer, the path clipped slots always
// take, and what hitboxes and tests read. Allocates nothing after construction: every buffer is sized
// for the largest case of the data when the CpuVertices object is made.

#include <cstdint>
#include <span>
#include <vector>

#include "mf/skel/clip_data.hpp"
#include "mf/skel/skeleton_data.hpp"
#include "mf/skel/skeleton_pose.hpp"

namespace mf::skel {

struct CpuVertex {
  float x, y;         // skeleton space
  float u, v;         // atlas page UV
  ColorF light;       // slot colour × attachment colour, straight alpha
  ColorF dark;        // dark colour (alpha unused); zero without one
};

// A run of triangles drawn with one (page, blend, clip state); runs are in draw order.
struct DrawRun {
  std::int32_t page;
  BlendMode blend;
  bool clipped;                 // went through the clipping path
  std::uint32_t index_start;    // into CpuVertices::indices()
  std::uint32_t index_count;
  std::int32_t first_slot;      // draw-order position of the run's first slot
};

// One visible attachment's vertex range in the output (for tools: `mfe skel pose --vertices`).
struct DrawnAttachment {
  std::int32_t slot;
  std::int32_t attachment;
  std::uint32_t vertex_start, vertex_count;  // unclipped world vertices in CpuVertices::vertices()
};

class CpuVertices {
 public:
  explicit CpuVertices(const SkeletonData& data);

  // Computes every visible attachment's vertices from the pose's world transforms and deform, in draw
  // order, clipping the slots inside clipping ranges, and groups triangles into draw runs.
  void update(const SkeletonPose& pose);

  std::span<const CpuVertex> vertices() const;
  std::span<const std::uint32_t> indices() const;
  std::span<const DrawRun> runs() const;
  std::span<const DrawnAttachment> drawn() const;

  // Bounds of the visible attachments' vertices (after clipping), skeleton space.
  Bounds bounds() const;

 private:
  struct State;
  std::vector<CpuVertex> vertices_;
  std::vector<std::uint32_t> indices_;
  std::vector<DrawRun> runs_;
  std::vector<DrawnAttachment> drawn_;
  std::vector<float> scratch_;
  std::size_t vertex_count_ = 0, index_count_ = 0, run_count_ = 0, drawn_count_ = 0;
  const SkeletonData* data_;
};

// World positions of one attachment's vertices (x, y pairs into `out`, vertex_count × 2 floats), with
// the pose's deform when it belongs to this attachment. For bounding boxes, paths, points and tests.
void compute_world_vertices(const SkeletonPose& pose, std::int32_t slot, std::int32_t attachment, std::span<float> out);

}  // namespace mf::skel
