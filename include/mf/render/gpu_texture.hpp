#pragma once
// GpuTexture: a sampled RGBA8 UNORM image uploaded once (atlas pages, normal pages), with an
// optional full mip chain made by linear blits. Straight alpha as given; the shaders premultiply.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <string>

#include "mf/core/expected.hpp"
#include "mf/render/gpu_memory.hpp"
#include "mf/skel/skeleton_data.hpp"

namespace mf::render {

class Device;

class GpuTexture {
 public:
  GpuTexture() = default;
  // `rgba`: width × height × 4 bytes, rows top to bottom.
  static Expected<GpuTexture> create(Device& device, GpuMemory& memory, int width, int height,
                                     std::span<const std::uint8_t> rgba, bool mipmaps);
  // Decodes a page (PNG, or raw RGBA8 rows) and uploads it. Errors name `where` (e.g. the data and
  // page name) and say what is wrong: no bytes, a size mismatch, a PNG that does not decode.
  static Expected<GpuTexture> from_page(Device& device, GpuMemory& memory, const skel::Page& page, bool mipmaps,
                                        const std::string& where);
  ~GpuTexture();
  GpuTexture(GpuTexture&& other) noexcept;
  GpuTexture& operator=(GpuTexture&& other) noexcept;
  GpuTexture(const GpuTexture&) = delete;
  GpuTexture& operator=(const GpuTexture&) = delete;

  VkImage image() const { return image_; }
  VkImageView view() const { return view_; }
  std::uint32_t mip_levels() const { return mip_levels_; }

 private:
  void release();
  Device* device_ = nullptr;
  GpuMemory* memory_ = nullptr;
  GpuAllocation allocation_;
  VkImage image_ = VK_NULL_HANDLE;
  VkImageView view_ = VK_NULL_HANDLE;
  std::uint32_t mip_levels_ = 1;
};

}  // namespace mf::render
