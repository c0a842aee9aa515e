#include "mf/render/overlay_pass.hpp"

#include "canvas_render_pass.hpp"
#include "render_target_impl.hpp"
#include "mf/render/device.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/render/vulkan_error.hpp"

namespace mf::render {

Expected<std::unique_ptr<OverlayPass>> OverlayPass::create(Device& device) {
  std::unique_ptr<OverlayPass> self(new OverlayPass());
  self->device_ = &device;
  VkAttachmentDescription colour{};
  colour.format = detail::kCanvasFormat;
  colour.samples = VK_SAMPLE_COUNT_1_BIT;
  colour.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;  // the canvas pass's frame stays under the overlay
  colour.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  colour.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  colour.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  colour.initialLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;  // where the canvas pass left it
  colour.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  VkAttachmentReference reference{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &reference;
  // In: the canvas pass's colour writes and earlier transfer reads (a presentation blit, a read-back)
  // come before the overlay reads and writes the image. Out: the overlay's writes are visible to the
  // transfers that read the target next.
  VkSubpassDependency dependencies[2] = {};
  dependencies[0].srcSubpass = VK_SUBPASS_EXTERNAL;
  dependencies[0].dstSubpass = 0;
  dependencies[0].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  dependencies[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  dependencies[0].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  dependencies[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT;
  dependencies[1].srcSubpass = 0;
  dependencies[1].dstSubpass = VK_SUBPASS_EXTERNAL;
  dependencies[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  dependencies[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
  dependencies[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  dependencies[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  info.attachmentCount = 1;
  info.pAttachments = &colour;
  info.subpassCount = 1;
  info.pSubpasses = &subpass;
  info.dependencyCount = 2;
  info.pDependencies = dependencies;
  if (VkResult r = vkCreateRenderPass(device.device(), &info, nullptr, &self->render_pass_); r != VK_SUCCESS)
    return Unexpected{vulkan_error("cannot create the overlay render pass", r)};
  return self;
}

OverlayPass::~OverlayPass() {
  if (!device_) return;
  if (framebuffer_ != VK_NULL_HANDLE) vkDestroyFramebuffer(device_->device(), framebuffer_, nullptr);
  if (render_pass_ != VK_NULL_HANDLE) vkDestroyRenderPass(device_->device(), render_pass_, nullptr);
}

Status OverlayPass::begin(VkCommandBuffer cmd, RenderTarget& target) {
  if (!target.impl_->rendered) return Unexpected{Error{{}, {}, {}, "overlay: the render target holds no finished frame yet"}};
  // Keyed by the target's serial: a new target may get a destroyed one's handles.
  if (framebuffer_ == VK_NULL_HANDLE || framebuffer_target_ != target.serial_) {
    if (framebuffer_ != VK_NULL_HANDLE) vkDestroyFramebuffer(device_->device(), framebuffer_, nullptr);
    framebuffer_ = VK_NULL_HANDLE;
    VkImageView view = target.view();
    VkFramebufferCreateInfo fb{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fb.renderPass = render_pass_;
    fb.attachmentCount = 1;
    fb.pAttachments = &view;
    fb.width = static_cast<std::uint32_t>(target.width());
    fb.height = static_cast<std::uint32_t>(target.height());
    fb.layers = 1;
    if (VkResult r = vkCreateFramebuffer(device_->device(), &fb, nullptr, &framebuffer_); r != VK_SUCCESS)
      return Unexpected{vulkan_error("cannot create the overlay framebuffer", r)};
    framebuffer_target_ = target.serial_;
  }
  VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  begin.renderPass = render_pass_;
  begin.framebuffer = framebuffer_;
  begin.renderArea = {{0, 0}, {static_cast<std::uint32_t>(target.width()), static_cast<std::uint32_t>(target.height())}};
  vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
  return {};
}

void OverlayPass::end(VkCommandBuffer cmd) { vkCmdEndRenderPass(cmd); }

}  // namespace mf::render
