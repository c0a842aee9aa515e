#pragma once
// Internal: the canvas render pass (one RGBA8 UNORM colour attachment, cleared, left ready for
// transfer reads). Targets make their framebuffers with it and the renderer its pipelines; two
// render passes made by this function are compatible.

#include <vulkan/vulkan.h>

namespace mf::render::detail {

inline constexpr VkFormat kCanvasFormat = VK_FORMAT_R8G8B8A8_UNORM;

VkResult create_canvas_render_pass(VkDevice device, VkRenderPass* out);

}  // namespace mf::render::detail
