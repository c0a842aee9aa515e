#pragma once
// Internal: what the renderer needs of a RenderTarget besides its image (render pass, framebuffer,
// whether a frame was drawn into it).

#include "mf/render/gpu_buffer.hpp"
#include "mf/render/skeleton_renderer.hpp"

namespace mf::render {

struct RenderTarget::Impl {
  GpuMemory* memory = nullptr;
  GpuAllocation allocation;
  VkRenderPass render_pass = VK_NULL_HANDLE;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  GpuBuffer readback;
  bool rendered = false;  // the image holds a finished frame (layout TRANSFER_SRC_OPTIMAL)
};

}  // namespace mf::render
