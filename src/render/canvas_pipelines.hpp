#pragma once
// Internal: CanvasPipelines, what the canvas pass draws with: the render pass, the set layouts
// (set 0: a page and its normal page; set 1: the frame block), one pipeline per (blend mode, lit
// variant: flat or normal-mapped), made on demand by prepare() so that a frame never makes one, and
// the frame block's descriptor set per frame slot.

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <memory>

#include "mf/core/expected.hpp"
#include "mf/render/frame_ring.hpp"
#include "mf/render/shader_module.hpp"
#include "mf/render/upload_ring.hpp"
#include "mf/skel/skeleton_data.hpp"

namespace mf::render {
class Device;
}  // namespace mf::render

namespace mf::render::detail {

inline constexpr int kBlendModes = 4;
inline constexpr int kVariants = 2;  // 0: lit flat, 1: normal-mapped

class CanvasPipelines {
 public:
  static Expected<std::unique_ptr<CanvasPipelines>> create(Device& device);
  ~CanvasPipelines();
  CanvasPipelines(const CanvasPipelines&) = delete;
  CanvasPipelines& operator=(const CanvasPipelines&) = delete;

  // Makes every pipeline of `variant` that `data`'s slots blend with (and Normal, always) that does
  // not exist yet; `created` counts those made.
  Status prepare(const skel::SkeletonData& data, int variant, std::uint32_t& created);
  // VK_NULL_HANDLE when prepare() never made it.
  VkPipeline pipeline(int blend, int variant) const { return pipelines_[static_cast<std::size_t>(blend * kVariants + variant)]; }

  VkRenderPass render_pass() const { return render_pass_; }
  VkPipelineLayout layout() const { return layout_; }
  VkDescriptorSetLayout page_set_layout() const { return page_set_layout_; }
  // The frame slot's set 1, pointing at `block` (a FrameBlock in the slot's upload ring).
  VkDescriptorSet write_frame_set(int frame_slot, const UploadSpan& block) const;

 private:
  CanvasPipelines() = default;
  Status create_layouts();
  Status create_frame_sets();
  Status create_pipeline(int blend, int variant, VkPipeline& out) const;

  Device* device_ = nullptr;
  VkRenderPass render_pass_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout page_set_layout_ = VK_NULL_HANDLE, frame_set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  ShaderModule vert_shader_, frag_shader_;
  std::array<VkPipeline, kBlendModes * kVariants> pipelines_{};
  VkDescriptorPool frame_pool_ = VK_NULL_HANDLE;
  std::array<VkDescriptorSet, kFrameSlots> frame_sets_{};
};

}  // namespace mf::render::detail
