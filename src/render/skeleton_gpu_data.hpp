#pragma once
// Internal: SkeletonGpuData, what the renderer keeps of one added SkeletonData: its share of the
// skinning pass's static arenas (influences, vertices with UVs and tangents), its valid triangles,
// its pages and normal pages, the sampler and one descriptor set per page. Destroying it frees all
// of that at once, so the renderer keeps a removed one until no frame in flight uses it.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/render/gpu_texture.hpp"
#include "mf/skel/skeleton_data.hpp"
#include "mf/skel/skeleton_pose.hpp"
#include "skinning_pass.hpp"

namespace mf::render::detail {

inline bool is_drawn_kind(skel::AttachmentKind kind) {
  return kind == skel::AttachmentKind::Region || kind == skel::AttachmentKind::Mesh;
}

// The region an attachment shows on a slot (the slot's sequence frame, else the setup frame), as the
// CPU path picks it.
const skel::Region* region_for(const skel::SkeletonData& data, const skel::SkeletonPose& pose, std::size_t slot,
                               const skel::AttachmentRecord& att);

// Per vertex of the data, its +u direction in its first influence's bone space (2 floats, unit):
// the UV gradient of the triangles around it, measured on the first influences' bone-space
// positions.
std::vector<float> vertex_tangents(const skel::SkeletonData& data);

struct SkeletonGpuData {
  const skel::SkeletonData* data = nullptr;
  StaticRange range;
  std::vector<float> tangents;              // vertex_tangents
  // Per attachment, its triangles whose three vertices exist (attachment-local, as data.indices
  // holds them): the same for every instance and frame, so draw() rebases them from here, where
  // they stay in cache across the instances of one data.
  std::vector<std::uint16_t> indices;
  std::vector<std::uint32_t> index_starts;  // per attachment (and one past the last) into indices
  std::vector<GpuTexture> pages, normal_pages;
  VkSampler sampler = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  std::vector<VkDescriptorSet> page_sets;
  int variant = 0;                          // the lit variant: 1 with normal pages (normal-mapped), else 0
  std::uint32_t instances = 0;              // live instances of this data

  SkeletonGpuData() = default;
  SkeletonGpuData(const SkeletonGpuData&) = delete;
  SkeletonGpuData& operator=(const SkeletonGpuData&) = delete;
  ~SkeletonGpuData();

  // The page's descriptor set, VK_NULL_HANDLE for none (such attachments are not drawn).
  VkDescriptorSet page_set(std::int32_t page) const {
    return page >= 0 && static_cast<std::size_t>(page) < page_sets.size() ? page_sets[static_cast<std::size_t>(page)]
                                                                            : VK_NULL_HANDLE;
  }

  Device* device = nullptr;
  SkinningPass* pass = nullptr;  // range's owner; nullptr until the range is allocated
};

// Checks the data, uploads its static arrays and decodes and uploads its pages, with one descriptor
// set per page of `page_set_layout` (binding 0: the page, binding 1: its normal page, or the page
// itself without normal pages). The consumer makes the pipelines the data draws with (the canvas:
// CanvasPipelines::prepare with `variant`). Errors name the data.
Expected<std::unique_ptr<SkeletonGpuData>> upload_skeleton_data(Device& device, GpuMemory& memory, SkinningPass& pass,
                                                                VkDescriptorSetLayout page_set_layout,
                                                                const skel::SkeletonData& data);

}  // namespace mf::render::detail
