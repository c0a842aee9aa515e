#include <algorithm>
#include <cstring>

#include "canvas_render_pass.hpp"
#include "render_target_impl.hpp"
#include "mf/render/device.hpp"
#include "mf/render/gpu_buffer.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/render/vulkan_error.hpp"

namespace mf::render {

namespace detail {

VkResult create_canvas_render_pass(VkDevice device, VkRenderPass* out) {
  VkAttachmentDescription colour{};
  colour.format = kCanvasFormat;
  colour.samples = VK_SAMPLE_COUNT_1_BIT;
  colour.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  colour.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  colour.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  colour.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  colour.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  colour.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  VkAttachmentReference reference{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &reference;
  // Earlier transfer reads of the image (read-back) finish before the clear; the colour writes are
  // visible to the transfer that reads the target back.
  VkSubpassDependency dependencies[2] = {};
  dependencies[0].srcSubpass = VK_SUBPASS_EXTERNAL;
  dependencies[0].dstSubpass = 0;
  dependencies[0].srcStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
  dependencies[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  dependencies[0].srcAccessMask = 0;
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
  return vkCreateRenderPass(device, &info, nullptr, out);
}

}  // namespace detail


Expected<std::unique_ptr<RenderTarget>> RenderTarget::create(Device& device, GpuMemory& memory, int width, int height) {
  if (width <= 0 || height <= 0 || width > 16384 || height > 16384)
    return Unexpected{Error{{}, {}, {}, "render target size " + std::to_string(width) + " × " + std::to_string(height) +
                                            " is out of range (1 … 16384)"}};
  std::unique_ptr<RenderTarget> target(new RenderTarget());
  target->impl_ = std::make_unique<Impl>();
  target->device_ = &device;
  target->width_ = width;
  target->height_ = height;
  Impl& impl = *target->impl_;
  impl.memory = &memory;
  VkDevice vk = device.device();

  VkImageCreateInfo image_info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  image_info.imageType = VK_IMAGE_TYPE_2D;
  image_info.format = detail::kCanvasFormat;
  image_info.extent = {static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height), 1};
  image_info.mipLevels = 1;
  image_info.arrayLayers = 1;
  image_info.samples = VK_SAMPLE_COUNT_1_BIT;
  image_info.tiling = VK_IMAGE_TILING_OPTIMAL;
  image_info.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  image_info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  if (VkResult r = vkCreateImage(vk, &image_info, nullptr, &target->image_); r != VK_SUCCESS)
    return Unexpected{vulkan_error("cannot create the render target image", r)};
  VkMemoryRequirements requirements{};
  vkGetImageMemoryRequirements(vk, target->image_, &requirements);
  auto allocation = memory.allocate(requirements, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, ResourceClass::Image);
  if (!allocation) return Unexpected{allocation.error()};
  impl.allocation = *allocation;
  vkBindImageMemory(vk, target->image_, impl.allocation.memory, impl.allocation.offset);

  VkImageViewCreateInfo view_info{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view_info.image = target->image_;
  view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view_info.format = detail::kCanvasFormat;
  view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  if (VkResult r = vkCreateImageView(vk, &view_info, nullptr, &target->view_); r != VK_SUCCESS)
    return Unexpected{vulkan_error("cannot create the render target view", r)};
  if (VkResult r = detail::create_canvas_render_pass(vk, &impl.render_pass); r != VK_SUCCESS)
    return Unexpected{vulkan_error("cannot create the canvas render pass", r)};
  VkFramebufferCreateInfo fb_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fb_info.renderPass = impl.render_pass;
  fb_info.attachmentCount = 1;
  fb_info.pAttachments = &target->view_;
  fb_info.width = static_cast<std::uint32_t>(width);
  fb_info.height = static_cast<std::uint32_t>(height);
  fb_info.layers = 1;
  if (VkResult r = vkCreateFramebuffer(vk, &fb_info, nullptr, &impl.framebuffer); r != VK_SUCCESS)
    return Unexpected{vulkan_error("cannot create the render target framebuffer", r)};
  auto readback = GpuBuffer::create(device, memory, static_cast<VkDeviceSize>(width) * static_cast<VkDeviceSize>(height) * 4,
                                    VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback);
  if (!readback) return Unexpected{readback.error()};
  impl.readback = std::move(*readback);
  return target;
}

RenderTarget::~RenderTarget() {
  if (!device_) return;
  VkDevice vk = device_->device();
  vkDeviceWaitIdle(vk);
  if (impl_) {
    if (impl_->framebuffer) vkDestroyFramebuffer(vk, impl_->framebuffer, nullptr);
    if (impl_->render_pass) vkDestroyRenderPass(vk, impl_->render_pass, nullptr);
  }
  if (view_) vkDestroyImageView(vk, view_, nullptr);
  if (image_) vkDestroyImage(vk, image_, nullptr);
  if (impl_ && impl_->allocation.valid()) impl_->memory->free(impl_->allocation);
}

Expected<imaging::Image> RenderTarget::read_back(Alpha alpha) {
  imaging::Image image = imaging::Image::blank(width_, height_);
  if (!impl_->rendered) return image;  // nothing drawn yet: transparent
  Status copied = device_->run_once([&](VkCommandBuffer cmd) {
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {static_cast<std::uint32_t>(width_), static_cast<std::uint32_t>(height_), 1};
    vkCmdCopyImageToBuffer(cmd, image_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, impl_->readback.handle(), 1, &region);
    VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  });
  if (!copied) return Unexpected{copied.error()};
  std::memcpy(image.rgba.data(), impl_->readback.mapped().data(), image.rgba.size());
  if (alpha == Alpha::Straight) {
    for (std::size_t i = 0; i < image.rgba.size(); i += 4) {
      const unsigned a = image.rgba[i + 3];
      if (a == 0) {
        image.rgba[i] = image.rgba[i + 1] = image.rgba[i + 2] = 0;
      } else if (a < 255) {
        for (std::size_t c = 0; c < 3; ++c) image.rgba[i + c] = static_cast<std::uint8_t>(std::min(255u, (image.rgba[i + c] * 255u + a / 2) / a));
      }
    }
  }
  return image;
}

}  // namespace mf::render
