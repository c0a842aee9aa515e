#include "mf/render/gpu_texture.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "image_barrier.hpp"
#include "mf/imaging/png.hpp"
#include "mf/render/device.hpp"
#include "mf/render/gpu_buffer.hpp"
#include "mf/render/vulkan_error.hpp"

namespace mf::render {

namespace {

Unexpected fail(std::string message) { return Unexpected{Error{{}, {}, {}, std::move(message)}}; }

}  // namespace

Expected<GpuTexture> GpuTexture::create(Device& device, GpuMemory& memory, int width, int height,
                                        std::span<const std::uint8_t> rgba, bool mipmaps) {
  if (width <= 0 || height <= 0 || rgba.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4)
    return fail("texture of " + std::to_string(width) + " × " + std::to_string(height) + " needs " +
                std::to_string(static_cast<std::size_t>(std::max(width, 0)) * static_cast<std::size_t>(std::max(height, 0)) * 4) +
                " bytes, got " + std::to_string(rgba.size()));
  GpuTexture out;
  out.device_ = &device;
  out.memory_ = &memory;
  VkDevice vk = device.device();
  if (mipmaps) {
    std::uint32_t side = static_cast<std::uint32_t>(std::max(width, height));
    out.mip_levels_ = 1;
    while (side > 1) {
      side /= 2;
      ++out.mip_levels_;
    }
  }
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = VK_FORMAT_R8G8B8A8_UNORM;
  info.extent = {static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height), 1};
  info.mipLevels = out.mip_levels_;
  info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  if (VkResult r = vkCreateImage(vk, &info, nullptr, &out.image_); r != VK_SUCCESS)
    return Unexpected{vulkan_error("cannot create a texture image", r)};
  VkMemoryRequirements requirements{};
  vkGetImageMemoryRequirements(vk, out.image_, &requirements);
  auto allocation = memory.allocate(requirements, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, ResourceClass::Image);
  if (!allocation) return Unexpected{allocation.error()};
  out.allocation_ = *allocation;
  vkBindImageMemory(vk, out.image_, out.allocation_.memory, out.allocation_.offset);

  auto staging = GpuBuffer::create(device, memory, rgba.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Upload);
  if (!staging) return Unexpected{staging.error()};
  std::memcpy(staging->mapped().data(), rgba.data(), rgba.size());
  const std::uint32_t levels = out.mip_levels_;
  VkImage image = out.image_;
  Status uploaded = device.run_once([&](VkCommandBuffer cmd) {
    detail::image_barrier(cmd, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                          0, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, levels);
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = info.extent;
    vkCmdCopyBufferToImage(cmd, staging->handle(), image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
    std::int32_t w = width, h = height;
    for (std::uint32_t level = 1; level < levels; ++level) {
      detail::image_barrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                            VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, level - 1, 1);
      VkImageBlit blit{};
      blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level - 1, 0, 1};
      blit.srcOffsets[1] = {w, h, 1};
      w = std::max(1, w / 2);
      h = std::max(1, h / 2);
      blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, 1};
      blit.dstOffsets[1] = {w, h, 1};
      vkCmdBlitImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit,
                     VK_FILTER_LINEAR);
      detail::image_barrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                            VK_ACCESS_TRANSFER_READ_BIT, VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, level - 1, 1);
    }
    detail::image_barrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                          VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, levels - 1, 1);
  });
  if (!uploaded) return Unexpected{uploaded.error()};

  VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view.image = out.image_;
  view.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view.format = VK_FORMAT_R8G8B8A8_UNORM;
  view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, 1};
  if (VkResult r = vkCreateImageView(vk, &view, nullptr, &out.view_); r != VK_SUCCESS)
    return Unexpected{vulkan_error("cannot create a texture view", r)};
  return out;
}

Expected<GpuTexture> GpuTexture::from_page(Device& device, GpuMemory& memory, const skel::Page& page, bool mipmaps,
                                           const std::string& where) {
  if (page.bytes.empty())
    return fail(where + ": the page has no pixels (the data was built without page bytes)");
  if (page.encoding == skel::PageEncoding::Rgba8) {
    const std::size_t expected = static_cast<std::size_t>(std::max(page.width, 0)) * static_cast<std::size_t>(std::max(page.height, 0)) * 4;
    if (page.width <= 0 || page.height <= 0 || page.bytes.size() != expected)
      return fail(where + ": RGBA8 page of " + std::to_string(page.width) + " × " + std::to_string(page.height) + " needs " +
                  std::to_string(expected) + " bytes, has " + std::to_string(page.bytes.size()));
    auto texture = create(device, memory, page.width, page.height, page.bytes, mipmaps);
    if (!texture) return fail(where + ": " + texture.error().message);
    return texture;
  }
  auto decoded = imaging::decode_png(page.bytes, where);
  if (!decoded) return Unexpected{decoded.error()};
  if (decoded->width != page.width || decoded->height != page.height)
    return fail(where + ": the PNG is " + std::to_string(decoded->width) + " × " + std::to_string(decoded->height) +
                " but the page says " + std::to_string(page.width) + " × " + std::to_string(page.height));
  auto texture = create(device, memory, decoded->width, decoded->height, decoded->rgba, mipmaps);
  if (!texture) return fail(where + ": " + texture.error().message);
  return texture;
}

GpuTexture::~GpuTexture() { release(); }

GpuTexture::GpuTexture(GpuTexture&& other) noexcept { *this = std::move(other); }

GpuTexture& GpuTexture::operator=(GpuTexture&& other) noexcept {
  if (this != &other) {
    release();
    device_ = std::exchange(other.device_, nullptr);
    memory_ = std::exchange(other.memory_, nullptr);
    allocation_ = std::exchange(other.allocation_, {});
    image_ = std::exchange(other.image_, VK_NULL_HANDLE);
    view_ = std::exchange(other.view_, VK_NULL_HANDLE);
    mip_levels_ = other.mip_levels_;
  }
  return *this;
}

void GpuTexture::release() {
  if (!device_) return;
  if (view_) vkDestroyImageView(device_->device(), view_, nullptr);
  if (image_) vkDestroyImage(device_->device(), image_, nullptr);
  if (allocation_.valid()) memory_->free(allocation_);
  view_ = VK_NULL_HANDLE;
  image_ = VK_NULL_HANDLE;
  allocation_ = {};
  device_ = nullptr;
}

}  // namespace mf::render
