#include "forward_targets.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "forward_pipelines.hpp"
#include "mf/render/device.hpp"
#include "mf/render/frame_ring.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/render/vulkan_error.hpp"

namespace mf::render::detail {

namespace {

Unexpected fail(const std::string& what, VkResult r) { return Unexpected{vulkan_error(what, r)}; }

}  // namespace

Expected<std::unique_ptr<ForwardTargets>> ForwardTargets::create(Device& device, GpuMemory& memory, const ForwardPipelines& pipelines,
                                                                 std::uint32_t shadow_map_size) {
  std::unique_ptr<ForwardTargets> self(new ForwardTargets());
  self->device_ = &device;
  self->memory_ = &memory;
  self->pipelines_ = &pipelines;
  if (shadow_map_size == 0 || shadow_map_size > device.properties().limits.maxImageDimension2D)
    return Unexpected{Error{{}, {}, {}, "ForwardOptions::shadow_map_size " + std::to_string(shadow_map_size) + " is out of range (1 … " +
                                            std::to_string(device.properties().limits.maxImageDimension2D) + ")"}};
  if (Status s = self->create_shadow_map(shadow_map_size); !s) return Unexpected{s.error()};
  return self;
}

ForwardTargets::~ForwardTargets() {
  if (!device_) return;
  for (auto& t : targets_) destroy(*t);
  VkDevice vk = device_->device();
  if (shadow_.framebuffer) vkDestroyFramebuffer(vk, shadow_.framebuffer, nullptr);
  if (shadow_.sampler) vkDestroySampler(vk, shadow_.sampler, nullptr);
  destroy(shadow_.image);
}

Expected<ImageAttachment> ForwardTargets::create_attachment(VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect,
                                                            std::uint32_t width, std::uint32_t height) {
  VkDevice vk = device_->device();
  ImageAttachment out;
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {width, height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  if (VkResult r = vkCreateImage(vk, &info, nullptr, &out.image); r != VK_SUCCESS) return fail("cannot create a forward pass image", r);
  VkMemoryRequirements requirements{};
  vkGetImageMemoryRequirements(vk, out.image, &requirements);
  auto allocation = memory_->allocate(requirements, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, ResourceClass::Image);
  if (!allocation) {
    vkDestroyImage(vk, out.image, nullptr);
    return Unexpected{allocation.error()};
  }
  out.allocation = *allocation;
  vkBindImageMemory(vk, out.image, out.allocation.memory, out.allocation.offset);
  VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view.image = out.image;
  view.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view.format = format;
  view.subresourceRange = {aspect, 0, 1, 0, 1};
  if (VkResult r = vkCreateImageView(vk, &view, nullptr, &out.view); r != VK_SUCCESS) {
    destroy(out);
    return fail("cannot create a forward pass image view", r);
  }
  return out;
}

void ForwardTargets::destroy(ImageAttachment& attachment) {
  VkDevice vk = device_->device();
  if (attachment.view) vkDestroyImageView(vk, attachment.view, nullptr);
  if (attachment.image) vkDestroyImage(vk, attachment.image, nullptr);
  if (attachment.allocation.valid()) memory_->free(attachment.allocation);
  attachment = {};
}

void ForwardTargets::destroy(TargetImages& images) {
  VkDevice vk = device_->device();
  if (images.prepass) vkDestroyFramebuffer(vk, images.prepass, nullptr);
  if (images.main) vkDestroyFramebuffer(vk, images.main, nullptr);
  images.prepass = images.main = VK_NULL_HANDLE;
  destroy(images.depth);
  destroy(images.ids);
  destroy(images.motion);
}

Status ForwardTargets::create_shadow_map(std::uint32_t size) {
  VkDevice vk = device_->device();
  shadow_.size = size;
  auto image = create_attachment(pipelines_->shadow_format(), VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                 VK_IMAGE_ASPECT_DEPTH_BIT, size, size);
  if (!image) return Unexpected{image.error()};
  shadow_.image = *image;
  VkFramebufferCreateInfo fb{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fb.renderPass = pipelines_->shadow_pass();
  fb.attachmentCount = 1;
  fb.pAttachments = &shadow_.image.view;
  fb.width = fb.height = size;
  fb.layers = 1;
  if (VkResult r = vkCreateFramebuffer(vk, &fb, nullptr, &shadow_.framebuffer); r != VK_SUCCESS)
    return fail("cannot create the shadow map framebuffer", r);
  // Outside the map (clamped to a white border) nothing casts a shadow.
  VkSamplerCreateInfo sampler{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  const VkFilter filter = pipelines_->shadow_linear() ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  sampler.magFilter = sampler.minFilter = filter;
  sampler.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  sampler.addressModeU = sampler.addressModeV = sampler.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  sampler.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
  sampler.compareEnable = VK_TRUE;
  sampler.compareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
  if (VkResult r = vkCreateSampler(vk, &sampler, nullptr, &shadow_.sampler); r != VK_SUCCESS)
    return fail("cannot create the shadow map sampler", r);
  // Frames without a shadow pass still bind the map: it starts cleared (lit) in the layout the
  // main pass samples it in.
  VkImage shadow_image = shadow_.image.image;
  return device_->run_once([&](VkCommandBuffer cmd) {
    VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.image = shadow_image;
    barrier.subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
    barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1, &barrier);
    VkClearDepthStencilValue one{1.0f, 0};
    VkImageSubresourceRange range{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
    vkCmdClearDepthStencilImage(cmd, shadow_image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &one, 1, &range);
    barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    barrier.newLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL;
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0, nullptr, 0, nullptr, 1,
                         &barrier);
  });
}

Expected<std::unique_ptr<TargetImages>> ForwardTargets::create_images(RenderTarget& target, std::uint64_t serial) {
  VkDevice vk = device_->device();
  auto images = std::make_unique<TargetImages>();
  images->serial = serial;
  images->width = target.width();
  images->height = target.height();
  images->colour = target.image();
  const auto w = static_cast<std::uint32_t>(target.width()), h = static_cast<std::uint32_t>(target.height());
  auto depth = create_attachment(kForwardDepthFormat, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT, w, h);
  if (!depth) return Unexpected{depth.error()};
  images->depth = *depth;
  const VkImageUsageFlags colour_use = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  auto ids = create_attachment(kObjectIdFormat, colour_use, VK_IMAGE_ASPECT_COLOR_BIT, w, h);
  if (!ids) {
    destroy(*images);
    return Unexpected{ids.error()};
  }
  images->ids = *ids;
  auto motion = create_attachment(kMotionFormat, colour_use, VK_IMAGE_ASPECT_COLOR_BIT, w, h);
  if (!motion) {
    destroy(*images);
    return Unexpected{motion.error()};
  }
  images->motion = *motion;
  VkFramebufferCreateInfo fb{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fb.width = w;
  fb.height = h;
  fb.layers = 1;
  const VkImageView prepass_views[3] = {images->depth.view, images->ids.view, images->motion.view};
  fb.renderPass = pipelines_->prepass_pass();
  fb.attachmentCount = 3;
  fb.pAttachments = prepass_views;
  if (VkResult r = vkCreateFramebuffer(vk, &fb, nullptr, &images->prepass); r != VK_SUCCESS) {
    destroy(*images);
    return fail("cannot create the prepass framebuffer", r);
  }
  const VkImageView main_views[2] = {target.view(), images->depth.view};
  fb.renderPass = pipelines_->main_pass();
  fb.attachmentCount = 2;
  fb.pAttachments = main_views;
  if (VkResult r = vkCreateFramebuffer(vk, &fb, nullptr, &images->main); r != VK_SUCCESS) {
    destroy(*images);
    return fail("cannot create the forward main framebuffer", r);
  }
  auto readback = GpuBuffer::create(*device_, *memory_, VkDeviceSize{w} * h * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback);
  if (!readback) {
    destroy(*images);
    return Unexpected{readback.error()};
  }
  images->readback = std::move(*readback);
  return images;
}

Expected<TargetImages*> ForwardTargets::acquire(RenderTarget& target, std::uint64_t serial, std::uint64_t frame) {
  for (auto& t : targets_)
    if (t->serial == serial && t->width == target.width() && t->height == target.height()) {
      t->last_frame = frame;
      return t.get();
    }
  // Drop what no frame in flight uses: another target's images (or this one's at an old size) last
  // drawn kFrameSlots frames ago or earlier, whose slots begin_frame has waited for.
  std::erase_if(targets_, [&](std::unique_ptr<TargetImages>& t) {
    if (t->last_frame + kFrameSlots > frame) return false;
    destroy(*t);
    return true;
  });
  auto images = create_images(target, serial);
  if (!images) return Unexpected{images.error()};
  (*images)->last_frame = frame;
  targets_.push_back(std::move(*images));
  return targets_.back().get();
}

}  // namespace mf::render::detail
