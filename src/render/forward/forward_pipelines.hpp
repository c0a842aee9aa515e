#pragma once
// Internal: ForwardPipelines, what the forward passes draw with: the three render passes (shadow:
// depth only; prepass: depth, object ID, motion; main: the target's colour with the prepass's depth
// read-only), the set layouts (set 0: a material's albedo and normal map, defined as the canvas's
// page set so a skeleton's page sets bind here; set 1: the frame), the pipeline layout (push
// constant: the record index), the frame sets (one per frame slot) and every pipeline variant, all
// made by create() so that no frame makes one.

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <memory>

#include "mf/core/expected.hpp"
#include "mf/render/frame_ring.hpp"
#include "mf/render/shader_module.hpp"
#include "mf/render/upload_ring.hpp"
#include "mf/skel/rig_modes.hpp"
#include "mf/render/forward/material.hpp"

namespace mf::render {
class Device;
}  // namespace mf::render

namespace mf::render::detail {

inline constexpr VkFormat kForwardDepthFormat = VK_FORMAT_D32_SFLOAT;
inline constexpr VkFormat kObjectIdFormat = VK_FORMAT_R32_UINT;
inline constexpr VkFormat kMotionFormat = VK_FORMAT_R16G16_SFLOAT;

enum class Cull : std::uint8_t { None, Back, Front };
inline constexpr int kCullModes = 3;
inline constexpr int kMainAlphaVariants = 6;  // Opaque, Cutout, Blend × 4 blend modes

class ForwardPipelines {
 public:
  static Expected<std::unique_ptr<ForwardPipelines>> create(Device& device);
  ~ForwardPipelines();
  ForwardPipelines(const ForwardPipelines&) = delete;
  ForwardPipelines& operator=(const ForwardPipelines&) = delete;

  VkPipeline main(AlphaMode alpha, skel::BlendMode blend, bool normal_map, Cull cull) const {
    const int a = alpha == AlphaMode::Blend ? 2 + (static_cast<int>(blend) & 3) : static_cast<int>(alpha);
    return main_[static_cast<std::size_t>((a * 2 + (normal_map ? 1 : 0)) * kCullModes + static_cast<int>(cull))];
  }
  VkPipeline prepass(bool alpha_test, Cull cull) const {
    return prepass_[static_cast<std::size_t>((alpha_test ? 1 : 0) * kCullModes + static_cast<int>(cull))];
  }
  // Sprites' prepass: alpha-tested, its depth pushed away by a bias so that every slot of the sprite
  // passes the main pass's LESS_OR_EQUAL against it (coplanar triangles interpolate slightly
  // different depths).
  VkPipeline sprite_prepass(Cull cull) const { return sprite_prepass_[static_cast<std::size_t>(cull)]; }
  VkPipeline shadow(bool alpha_test, Cull cull) const {
    return shadow_[static_cast<std::size_t>((alpha_test ? 1 : 0) * kCullModes + static_cast<int>(cull))];
  }
  std::uint32_t pipeline_count() const { return static_cast<std::uint32_t>(main_.size() + prepass_.size() + sprite_prepass_.size() + shadow_.size()); }

  VkRenderPass shadow_pass() const { return shadow_pass_; }
  VkRenderPass prepass_pass() const { return prepass_pass_; }
  VkRenderPass main_pass() const { return main_pass_; }
  VkFormat shadow_format() const { return shadow_format_; }
  bool shadow_linear() const { return shadow_linear_; }
  VkPipelineLayout layout() const { return layout_; }
  VkDescriptorSetLayout material_set_layout() const { return material_set_layout_; }

  // Set 1 of a frame slot. The fixed bindings (the previous frame's vertex buffer, the shadow map)
  // are written once; the frame block and the records every frame, after the slot's fence.
  VkDescriptorSet frame_set(int frame_slot) const { return frame_sets_[static_cast<std::size_t>(frame_slot)]; }
  void write_fixed(int frame_slot, VkBuffer previous_vertices, VkImageView shadow_map, VkSampler shadow_sampler) const;
  void write_frame(int frame_slot, const UploadSpan& block, const UploadSpan& records) const;

 private:
  ForwardPipelines() = default;
  Status create_render_passes();
  Status create_layouts();
  Status create_frame_sets();
  Status create_pipelines();

  Device* device_ = nullptr;
  VkFormat shadow_format_ = VK_FORMAT_D32_SFLOAT;
  bool shadow_linear_ = true;
  VkRenderPass shadow_pass_ = VK_NULL_HANDLE, prepass_pass_ = VK_NULL_HANDLE, main_pass_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout material_set_layout_ = VK_NULL_HANDLE, frame_set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorPool frame_pool_ = VK_NULL_HANDLE;
  std::array<VkDescriptorSet, kFrameSlots> frame_sets_{};
  ShaderModule main_vert_, main_frag_, depth_vert_, depth_frag_, shadow_vert_, shadow_frag_;
  std::array<VkPipeline, kMainAlphaVariants * 2 * kCullModes> main_{};
  std::array<VkPipeline, 2 * kCullModes> prepass_{}, shadow_{};
  std::array<VkPipeline, kCullModes> sprite_prepass_{};
};

}  // namespace mf::render::detail
