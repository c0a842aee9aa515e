#include "mf/render/swapchain.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "image_barrier.hpp"
#include "render_target_impl.hpp"
#include "mf/render/device.hpp"
#include "mf/render/vulkan_error.hpp"

namespace mf::render {

namespace {

Unexpected fail(const std::string& what, VkResult result) { return Unexpected{vulkan_error(what, result)}; }
Unexpected fail(std::string message) { return Unexpected{Error{{}, {}, {}, std::move(message)}}; }

bool is_srgb(VkFormat format) {
  return format == VK_FORMAT_B8G8R8A8_SRGB || format == VK_FORMAT_R8G8B8A8_SRGB || format == VK_FORMAT_A8B8G8R8_SRGB_PACK32;
}

// UNORM 8-bit formats first (the canvas is gamma-space colour), then whatever the surface lists first.
VkSurfaceFormatKHR choose_format(const std::vector<VkSurfaceFormatKHR>& formats) {
  if (formats.size() == 1 && formats[0].format == VK_FORMAT_UNDEFINED)
    return {VK_FORMAT_B8G8R8A8_UNORM, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR};
  for (VkFormat wanted : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM})
    for (const VkSurfaceFormatKHR& f : formats)
      if (f.format == wanted && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) return f;
  return formats.front();
}

VkPresentModeKHR choose_present_mode(const std::vector<VkPresentModeKHR>& modes, bool vsync) {
  if (!vsync) {
    for (VkPresentModeKHR wanted : {VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR})
      if (std::find(modes.begin(), modes.end(), wanted) != modes.end()) return wanted;
  }
  return VK_PRESENT_MODE_FIFO_KHR;  // always supported
}

VkCompositeAlphaFlagBitsKHR choose_composite(VkCompositeAlphaFlagsKHR supported) {
  for (VkCompositeAlphaFlagBitsKHR wanted : {VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR,
                                             VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR, VK_COMPOSITE_ALPHA_POST_MULTIPLIED_BIT_KHR})
    if (supported & wanted) return wanted;
  return VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
}


}  // namespace

Expected<std::unique_ptr<Swapchain>> Swapchain::create(Device& device, VkExtent2D window_size, const SwapchainOptions& options) {
  if (device.surface() == VK_NULL_HANDLE)
    return fail("the device has no window surface (DeviceOptions::create_surface was not given)");
  std::unique_ptr<Swapchain> self(new Swapchain());
  self->device_ = &device;
  self->options_ = options;
  VkDevice vk = device.device();

  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = device.queue_family();
  if (VkResult r = vkCreateCommandPool(vk, &pool_info, nullptr, &self->pool_); r != VK_SUCCESS)
    return fail("cannot create the swapchain's command pool", r);
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = self->pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = kSlots;
  if (VkResult r = vkAllocateCommandBuffers(vk, &alloc, self->commands_.data()); r != VK_SUCCESS)
    return fail("cannot allocate the swapchain's command buffers", r);
  for (int i = 0; i < kSlots; ++i) {
    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    fence_info.flags = VK_FENCE_CREATE_SIGNALED_BIT;
    if (VkResult r = vkCreateFence(vk, &fence_info, nullptr, &self->fences_[static_cast<std::size_t>(i)]); r != VK_SUCCESS)
      return fail("cannot create a swapchain fence", r);
    VkSemaphoreCreateInfo semaphore_info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    if (VkResult r = vkCreateSemaphore(vk, &semaphore_info, nullptr, &self->acquired_[static_cast<std::size_t>(i)]); r != VK_SUCCESS)
      return fail("cannot create a swapchain semaphore", r);
  }
  if (Status s = self->build(window_size); !s) return Unexpected{s.error()};
  return self;
}

Swapchain::~Swapchain() {
  if (!device_) return;
  VkDevice vk = device_->device();
  (void)wait_idle();
  destroy_images();
  if (swapchain_ != VK_NULL_HANDLE) vkDestroySwapchainKHR(vk, swapchain_, nullptr);
  for (VkSemaphore s : acquired_)
    if (s != VK_NULL_HANDLE) vkDestroySemaphore(vk, s, nullptr);
  for (VkFence f : fences_)
    if (f != VK_NULL_HANDLE) vkDestroyFence(vk, f, nullptr);
  if (pool_ != VK_NULL_HANDLE) vkDestroyCommandPool(vk, pool_, nullptr);
}

bool Swapchain::present_format_is_srgb() const { return is_srgb(format_); }

Status Swapchain::wait_idle() {
  for (VkFence fence : fences_) {
    if (fence == VK_NULL_HANDLE) continue;
    if (VkResult r = vkWaitForFences(device_->device(), 1, &fence, VK_TRUE, std::numeric_limits<std::uint64_t>::max()); r != VK_SUCCESS)
      return fail("waiting for the swapchain's blits failed", r);
  }
  return {};
}

void Swapchain::destroy_images() {
  VkDevice vk = device_->device();
  for (VkSemaphore s : presentable_) vkDestroySemaphore(vk, s, nullptr);
  presentable_.clear();
  images_.clear();
}

Status Swapchain::resize(VkExtent2D window_size) { return build(window_size); }

Status Swapchain::build(VkExtent2D window_size) {
  VkDevice vk = device_->device();
  VkPhysicalDevice physical = device_->physical_device();
  VkSurfaceKHR surface = device_->surface();
  wanted_ = window_size;
  needs_rebuild_ = false;
  // Every blit into the old images has finished, and the queue is idle for presentation's sake.
  if (Status s = wait_idle(); !s) return s;
  if (VkResult r = vkQueueWaitIdle(device_->queue()); r != VK_SUCCESS) return fail("waiting for the queue failed", r);

  VkSurfaceCapabilitiesKHR caps{};
  if (VkResult r = vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical, surface, &caps); r != VK_SUCCESS)
    return fail("cannot read the window surface's capabilities", r);
  VkExtent2D extent = caps.currentExtent;
  if (extent.width == std::numeric_limits<std::uint32_t>::max()) {
    extent.width = std::clamp(window_size.width, caps.minImageExtent.width, caps.maxImageExtent.width);
    extent.height = std::clamp(window_size.height, caps.minImageExtent.height, caps.maxImageExtent.height);
  }
  if (extent.width == 0 || extent.height == 0) {
    // Minimised: keep the old images (if any) unused until the window has an area again.
    extent_ = {0, 0};
    needs_rebuild_ = true;
    return {};
  }
  if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT))
    return fail("the window surface's images cannot be written by transfers (no TRANSFER_DST usage)");

  std::uint32_t count = 0;
  vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface, &count, nullptr);
  std::vector<VkSurfaceFormatKHR> formats(count);
  vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface, &count, formats.data());
  if (formats.empty()) return fail("the window surface offers no formats");
  const VkSurfaceFormatKHR format = choose_format(formats);
  VkFormatProperties format_props{};
  vkGetPhysicalDeviceFormatProperties(physical, format.format, &format_props);
  if (!(format_props.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_DST_BIT))
    return fail("the window surface's format " + std::to_string(static_cast<int>(format.format)) + " cannot be blitted to");
  vkGetPhysicalDeviceSurfacePresentModesKHR(physical, surface, &count, nullptr);
  std::vector<VkPresentModeKHR> modes(count);
  vkGetPhysicalDeviceSurfacePresentModesKHR(physical, surface, &count, modes.data());

  std::uint32_t image_count = std::max<std::uint32_t>(caps.minImageCount + 1, 2);
  if (caps.maxImageCount > 0) image_count = std::min(image_count, caps.maxImageCount);

  VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  info.surface = surface;
  info.minImageCount = image_count;
  info.imageFormat = format.format;
  info.imageColorSpace = format.colorSpace;
  info.imageExtent = extent;
  info.imageArrayLayers = 1;
  info.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = (caps.supportedTransforms & VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR) ? VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR
                                                                                          : caps.currentTransform;
  info.compositeAlpha = choose_composite(caps.supportedCompositeAlpha);
  info.presentMode = choose_present_mode(modes, options_.vsync);
  info.clipped = VK_TRUE;
  info.oldSwapchain = swapchain_;
  VkSwapchainKHR created = VK_NULL_HANDLE;
  if (VkResult r = vkCreateSwapchainKHR(vk, &info, nullptr, &created); r != VK_SUCCESS)
    return fail("cannot create the swapchain (" + std::to_string(extent.width) + " × " + std::to_string(extent.height) + ")", r);
  if (swapchain_ != VK_NULL_HANDLE) {
    vkDestroySwapchainKHR(vk, swapchain_, nullptr);
    ++recreated_;
  }
  destroy_images();
  swapchain_ = created;
  format_ = format.format;
  color_space_ = format.colorSpace;
  extent_ = extent;

  vkGetSwapchainImagesKHR(vk, swapchain_, &count, nullptr);
  images_.resize(count);
  vkGetSwapchainImagesKHR(vk, swapchain_, &count, images_.data());
  presentable_.resize(count, VK_NULL_HANDLE);
  for (VkSemaphore& s : presentable_) {
    VkSemaphoreCreateInfo semaphore_info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    if (VkResult r = vkCreateSemaphore(vk, &semaphore_info, nullptr, &s); r != VK_SUCCESS)
      return fail("cannot create a swapchain semaphore", r);
  }
  return {};
}

void Swapchain::record_blit(VkCommandBuffer cmd, RenderTarget& target, VkImage image, Color border) const {
  // The target is in TRANSFER_SRC_OPTIMAL after its frame; the canvas render pass made its colour
  // writes visible to transfers and waits for transfers before its next clear.
  detail::image_barrier(cmd, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);

  // Fit the target into the image keeping its aspect ratio, centred.
  const float sx = static_cast<float>(extent_.width) / static_cast<float>(target.width());
  const float sy = static_cast<float>(extent_.height) / static_cast<float>(target.height());
  const float scale = std::min(sx, sy);
  const auto w = std::clamp(static_cast<std::int32_t>(std::lround(static_cast<float>(target.width()) * scale)), 1,
                            static_cast<std::int32_t>(extent_.width));
  const auto h = std::clamp(static_cast<std::int32_t>(std::lround(static_cast<float>(target.height()) * scale)), 1,
                            static_cast<std::int32_t>(extent_.height));
  const std::int32_t x = (static_cast<std::int32_t>(extent_.width) - w) / 2;
  const std::int32_t y = (static_cast<std::int32_t>(extent_.height) - h) / 2;
  const bool letterboxed = w != static_cast<std::int32_t>(extent_.width) || h != static_cast<std::int32_t>(extent_.height);
  if (letterboxed) {
    VkClearColorValue clear{};
    clear.float32[0] = border.r;
    clear.float32[1] = border.g;
    clear.float32[2] = border.b;
    clear.float32[3] = 1;
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &clear, 1, &range);
    // The clear and the blit both write the image: order them.
    VkMemoryBarrier between{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    between.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    between.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &between, 0, nullptr, 0, nullptr);
  }
  VkImageBlit blit{};
  blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  blit.srcOffsets[1] = {target.width(), target.height(), 1};
  blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  blit.dstOffsets[0] = {x, y, 0};
  blit.dstOffsets[1] = {x + w, y + h, 1};
  const bool same_size = w == target.width() && h == target.height();
  vkCmdBlitImage(cmd, target.image(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit,
                 same_size ? VK_FILTER_NEAREST : VK_FILTER_LINEAR);
  detail::image_barrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_ACCESS_TRANSFER_WRITE_BIT, 0,
                        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
}

Expected<PresentResult> Swapchain::present(RenderTarget& target, Color border) {
  if (!target.impl_->rendered) return fail("present: the render target holds no finished frame yet");
  if (needs_rebuild_) {
    if (Status s = build(wanted_); !s) return Unexpected{s.error()};
    if (needs_rebuild_) return PresentResult::Skipped;  // still no area
  }
  VkDevice vk = device_->device();
  const auto slot = static_cast<std::size_t>(frame_ % kSlots);
  VkFence fence = fences_[slot];
  if (VkResult r = vkWaitForFences(vk, 1, &fence, VK_TRUE, std::numeric_limits<std::uint64_t>::max()); r != VK_SUCCESS)
    return fail("waiting for a swapchain slot failed", r);

  std::uint32_t index = 0;
  VkResult acquired = vkAcquireNextImageKHR(vk, swapchain_, std::numeric_limits<std::uint64_t>::max(), acquired_[slot],
                                            VK_NULL_HANDLE, &index);
  if (acquired == VK_ERROR_OUT_OF_DATE_KHR) {
    // The window changed under us: rebuild at the surface's size and try once more.
    if (Status s = build(wanted_); !s) return Unexpected{s.error()};
    if (needs_rebuild_) return PresentResult::Skipped;
    acquired = vkAcquireNextImageKHR(vk, swapchain_, std::numeric_limits<std::uint64_t>::max(), acquired_[slot], VK_NULL_HANDLE,
                                     &index);
  }
  if (acquired != VK_SUCCESS && acquired != VK_SUBOPTIMAL_KHR) return fail("cannot acquire a swapchain image", acquired);

  vkResetFences(vk, 1, &fence);
  VkCommandBuffer cmd = commands_[slot];
  vkResetCommandBuffer(cmd, 0);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (VkResult r = vkBeginCommandBuffer(cmd, &begin); r != VK_SUCCESS) return fail("cannot begin the present commands", r);
  record_blit(cmd, target, images_[index], border);
  if (VkResult r = vkEndCommandBuffer(cmd); r != VK_SUCCESS) return fail("cannot end the present commands", r);

  const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.waitSemaphoreCount = 1;
  submit.pWaitSemaphores = &acquired_[slot];
  submit.pWaitDstStageMask = &wait_stage;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  submit.signalSemaphoreCount = 1;
  submit.pSignalSemaphores = &presentable_[index];
  if (VkResult r = vkQueueSubmit(device_->queue(), 1, &submit, fence); r != VK_SUCCESS) return fail("present submit failed", r);
  ++frame_;

  VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  present.waitSemaphoreCount = 1;
  present.pWaitSemaphores = &presentable_[index];
  present.swapchainCount = 1;
  present.pSwapchains = &swapchain_;
  present.pImageIndices = &index;
  const VkResult shown = vkQueuePresentKHR(device_->queue(), &present);
  if (shown == VK_ERROR_OUT_OF_DATE_KHR) {
    needs_rebuild_ = true;  // the window changed before the image reached it: rebuilt next time
    return PresentResult::Skipped;
  }
  if (shown != VK_SUCCESS && shown != VK_SUBOPTIMAL_KHR) return fail("cannot present to the window", shown);
  if (shown == VK_SUBOPTIMAL_KHR || acquired == VK_SUBOPTIMAL_KHR) needs_rebuild_ = true;
  ++presented_;
  return PresentResult::Presented;
}

}  // namespace mf::render
