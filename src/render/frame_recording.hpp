#pragma once
// Internal: end_frame's recording. Into the frame slot's command buffer, in this order:
//   1. the CPU path's vertices copied after the skinned ones in the frame slot's vertex buffer;
//   2. the skinning pass's dispatch writing the skinned vertices;
//   3. one barrier (compute shader write, transfer write → vertex attribute read);
//   4. the canvas pass: the target cleared, then the batched indexed draws.

#include <vulkan/vulkan.h>

#include <cstdint>

#include "mf/core/expected.hpp"
#include "mf/render/skeleton_renderer.hpp"

namespace mf::render::detail {

class CanvasPipelines;
class SkeletonFrame;
class SkinningPass;

// What the frame writes: the target's render pass and framebuffer (RenderTarget::Impl) and the
// frame slot's vertex buffer.
struct FrameTargets {
  VkRenderPass render_pass;
  VkFramebuffer framebuffer;
  VkBuffer vertex_buffer;            // the frame slot's: skinned vertices, then CPU vertices
  std::uint32_t cpu_vertex_offset;   // where the CPU vertices start (RendererOptions::max_gpu_vertices)
};

// Allocates the frame's remaining uploads (the indices in place, then the CPU vertices and the
// skinning pass's inputs) and records the frame. Records nothing and fails when the uploads exceed
// the slot's upload range.
Status record_frame(const SkeletonFrame& frame, SkinningPass& skinning, const CanvasPipelines& pipelines,
                    const FrameTargets& targets, RenderStats& stats);

}  // namespace mf::render::detail
