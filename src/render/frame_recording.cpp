#include "frame_recording.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include "canvas_pipelines.hpp"
#include "mf/render/canvas_vertex.hpp"
#include "skeleton_frame.hpp"
#include "skinning_pass.hpp"

namespace mf::render::detail {

namespace {

Unexpected fail(std::string message) { return Unexpected{Error{{}, {}, {}, std::move(message)}}; }

struct FrameUploads {
  UploadSpan indices, cpu_vertices;
  StagedSkinning skinning;
};

// The frame block was written by begin_frame and the indices by draw(), in place: allocating what
// they wrote gives back the place they were written to.
std::optional<FrameUploads> allocate_uploads(const SkeletonFrame& frame, const SkinningPass& skinning) {
  UploadRing& uploads = frame.slot().uploads;
  const CanvasBatches& batches = frame.batches();
  const VkDeviceSize index_bytes = VkDeviceSize{batches.index_count()} * sizeof(std::uint32_t);
  auto indices = uploads.allocate(std::max<VkDeviceSize>(index_bytes, 16), 16);
  if (indices && indices->offset != batches.index_offset()) indices.reset();  // cannot happen: nothing was allocated in between
  const auto cpu = frame.cpu_vertices();
  auto cpu_vertices = uploads.allocate(std::max<VkDeviceSize>(cpu.size_bytes(), 16), 16);
  if (cpu_vertices && !cpu.empty()) std::memcpy(cpu_vertices->data, cpu.data(), cpu.size_bytes());
  if (!frame.frame_block() || !indices || !cpu_vertices) return std::nullopt;
  const auto staged = skinning.stage(uploads, frame.skinning_inputs());
  if (!staged) return std::nullopt;
  return FrameUploads{*indices, *cpu_vertices, *staged};
}

// Steps 1–3: what writes the frame's vertex buffer, and the barrier making it vertex input.
void record_vertices(VkCommandBuffer cmd, const SkeletonFrame& frame, const FrameUploads& uploads, SkinningPass& skinning,
                     const FrameTargets& targets, RenderStats& stats) {
  VkPipelineStageFlags producers = 0;
  const auto cpu = frame.cpu_vertices();
  if (!cpu.empty()) {
    VkBufferCopy copy{uploads.cpu_vertices.offset, VkDeviceSize{targets.cpu_vertex_offset} * sizeof(CanvasVertex), cpu.size_bytes()};
    vkCmdCopyBuffer(cmd, uploads.cpu_vertices.buffer, targets.vertex_buffer, 1, &copy);
    producers |= VK_PIPELINE_STAGE_TRANSFER_BIT;
  }
  if (skinning.record(cmd, frame.slot().index, uploads.skinning, targets.vertex_buffer)) {
    producers |= VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    ++stats.dispatches;
  }
  if (producers == 0) return;
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  if (producers & VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT) barrier.srcAccessMask |= VK_ACCESS_SHADER_WRITE_BIT;
  if (producers & VK_PIPELINE_STAGE_TRANSFER_BIT) barrier.srcAccessMask |= VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT;
  vkCmdPipelineBarrier(cmd, producers, VK_PIPELINE_STAGE_VERTEX_INPUT_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

void record_draws(VkCommandBuffer cmd, const SkeletonFrame& frame, const FrameUploads& uploads, const CanvasPipelines& pipelines,
                  const FrameTargets& targets, RenderStats& stats) {
  const RenderTarget& target = frame.target();
  VkViewport viewport{0, 0, static_cast<float>(target.width()), static_cast<float>(target.height()), 0, 1};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  VkRect2D scissor{{0, 0}, {static_cast<std::uint32_t>(target.width()), static_cast<std::uint32_t>(target.height())}};
  vkCmdSetScissor(cmd, 0, 1, &scissor);
  const VkDeviceSize zero = 0;
  vkCmdBindVertexBuffers(cmd, 0, 1, &targets.vertex_buffer, &zero);
  vkCmdBindIndexBuffer(cmd, uploads.indices.buffer, uploads.indices.offset, VK_INDEX_TYPE_UINT32);
  const VkDescriptorSet frame_set = pipelines.write_frame_set(frame.slot().index, *frame.frame_block());
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines.layout(), 1, 1, &frame_set, 0, nullptr);
  VkPipeline bound = VK_NULL_HANDLE;
  VkDescriptorSet bound_set = VK_NULL_HANDLE;
  for (const CanvasDraw& d : frame.batches().draws()) {
    const VkPipeline pipeline = pipelines.pipeline(d.blend, d.variant);
    if (pipeline == VK_NULL_HANDLE) continue;  // cannot happen: add_data built every variant its data uses
    if (pipeline != bound) {
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
      bound = pipeline;
    }
    if (d.set != bound_set) {
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines.layout(), 0, 1, &d.set, 0, nullptr);
      bound_set = d.set;
    }
    vkCmdDrawIndexed(cmd, d.count, 1, d.first, 0, 0);
    ++stats.draw_calls;
  }
}

// Step 4: the target is cleared even when nothing is drawn. `clear` is straight alpha; the target
// holds premultiplied colour.
void record_canvas_pass(VkCommandBuffer cmd, const SkeletonFrame& frame, const FrameUploads& uploads,
                        const CanvasPipelines& pipelines, const FrameTargets& targets, RenderStats& stats) {
  const RenderTarget& target = frame.target();
  const Color c = frame.clear();
  VkClearValue clear{};
  clear.color.float32[0] = c.r * c.a;
  clear.color.float32[1] = c.g * c.a;
  clear.color.float32[2] = c.b * c.a;
  clear.color.float32[3] = c.a;
  VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  begin.renderPass = targets.render_pass;
  begin.framebuffer = targets.framebuffer;
  begin.renderArea.extent = {static_cast<std::uint32_t>(target.width()), static_cast<std::uint32_t>(target.height())};
  begin.clearValueCount = 1;
  begin.pClearValues = &clear;
  vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
  if (!frame.batches().draws().empty()) record_draws(cmd, frame, uploads, pipelines, targets, stats);
  vkCmdEndRenderPass(cmd);
}

}  // namespace

Status record_frame(const SkeletonFrame& frame, SkinningPass& skinning, const CanvasPipelines& pipelines,
                    const FrameTargets& targets, RenderStats& stats) {
  const auto uploads = allocate_uploads(frame, skinning);
  if (!uploads) return fail("end_frame: the frame's uploads exceed RendererOptions::upload_bytes_per_slot");
  const VkCommandBuffer cmd = frame.slot().commands;
  record_vertices(cmd, frame, *uploads, skinning, targets, stats);
  record_canvas_pass(cmd, frame, *uploads, pipelines, targets, stats);
  return {};
}

}  // namespace mf::render::detail
