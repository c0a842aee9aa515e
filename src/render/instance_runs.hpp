#pragma once
// Internal: the per-instance run cache and culling. An instance keeps the drawn attachments of its
// last pose in draw order (CachedItem), with where each one's skinned vertices and triangles go, and
// rebuilds them only when the draw order, the shown attachments, their pages or the active bones
// change; draw() walks the cached items every frame.

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "mf/render/frame_ring.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/skel/bounds.hpp"
#include "mf/skel/cpu_vertices.hpp"
#include "skeleton_gpu_data.hpp"

namespace mf::render::detail {

// One drawn attachment of an instance, in draw order, as the cached runs list them.
struct CachedItem {
  bool clipped;                  // drawn through the CPU clipping path
  std::int32_t slot, attachment;
  std::int32_t page;
  VkDescriptorSet set;           // the page's set; VK_NULL_HANDLE when the page has none (not drawn)
  skel::ColorF color;            // the attachment's colour
  skel::BlendMode blend;
  std::uint32_t local_vertex;    // GPU items: first output vertex relative to the skeleton's base
  std::uint32_t index_start, index_count;  // GPU items: into SkeletonGpuData::indices (attachment-local)
};

struct InstanceRuns {
  SkeletonGpuData* data = nullptr;  // outlives the instance: data with instances cannot be removed
  std::unique_ptr<skel::CpuVertices> cpu;
  // What the cached items were built from: rebuilt when any differs.
  bool valid = false;
  std::vector<std::uint16_t> draw_order;
  std::vector<std::int32_t> attachment;
  std::vector<std::int32_t> page;
  std::vector<std::uint8_t> active;
  std::vector<std::int32_t> page_now;  // this frame's page per slot (scratch)
  std::vector<CachedItem> items;
  std::uint32_t gpu_vertices = 0;
  std::uint32_t version = 0;       // counts rebuilds
  bool has_clipped = false;        // an item takes the CPU clipping path (its indices change every frame)
  // Where the last frame on each frame slot left this instance's rebased indices. A slot's upload
  // range is written only by this renderer's frames on that slot, so when the previous frame there
  // wrote the same runs (version) with the same vertex base at the same place, they are still there
  // and draw() only queues their draws.
  struct WrittenIndices {
    std::uint64_t slot_use = 0;    // frames begun on that slot when written; 0: none
    const std::uint32_t* where = nullptr;
    std::uint32_t base = 0, version = 0;
  };
  std::array<WrittenIndices, kFrameSlots> written{};
};

// An instance of `data` with its lists reserved for the data's slots and bones (allocates).
std::unique_ptr<InstanceRuns> make_instance_runs(SkeletonGpuData& data);

// Rebuilds the cached items when the pose shows something else than they were built from; returns
// whether it did.
bool refresh_runs(InstanceRuns& instance, const skel::SkeletonPose& pose);

// Whether skeleton-space `bounds`, through `transform`, miss `view` (empty bounds always do).
bool culled(const skel::Bounds& bounds, const Affine2& transform, const View& view);

}  // namespace mf::render::detail
