#pragma once
// OverlayPass: drawing of one's own over a RenderTarget's finished frame (after
// SkeletonRenderer::end_frame, before Swapchain::present or read_back), e.g. an editor's UI over the
// rig. It owns a render pass that loads the frame instead of clearing it and leaves the target as the
// canvas pass does (TRANSFER_SRC_OPTIMAL, writes visible to transfers), and a framebuffer on the
// target, remade when the target is replaced.
//
//   renderer.end_frame();                       // the canvas pass drew into target
//   overlay.begin(cmd, target);                 // in a command buffer of the caller's
//   ... vkCmdDraw…                              // pipelines made with overlay.render_pass()
//   overlay.end(cmd);
//   submit cmd on device.queue(); swapchain.present(target);
//
// Submission order on the one queue orders it after the frame and before the presentation blit:
// the render pass's dependencies wait for the canvas pass's colour writes and for earlier transfers
// of the target, and make its own writes visible to the transfers that follow.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>

#include "mf/core/expected.hpp"

namespace mf::render {

class Device;
class RenderTarget;

class OverlayPass {
 public:
  static Expected<std::unique_ptr<OverlayPass>> create(Device& device);
  ~OverlayPass();
  OverlayPass(const OverlayPass&) = delete;
  OverlayPass& operator=(const OverlayPass&) = delete;

  // Compatible with every RenderTarget (RGBA8 UNORM, one sample, one subpass).
  VkRenderPass render_pass() const { return render_pass_; }

  // Begins the render pass on the target (its frame must be finished), with the viewport and scissor
  // state left to the caller. A different target than last time gets a new framebuffer: the caller
  // makes sure no submitted overlay of the old one is still running.
  Status begin(VkCommandBuffer cmd, RenderTarget& target);
  void end(VkCommandBuffer cmd);

 private:
  OverlayPass() = default;
  Device* device_ = nullptr;
  VkRenderPass render_pass_ = VK_NULL_HANDLE;
  VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
  std::uint64_t framebuffer_target_ = 0;  // the serial of the target it was made on
};

}  // namespace mf::render
