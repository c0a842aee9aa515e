#pragma once
// Internal: the images the forward passes render besides the target's colour: per RenderTarget (and
// size) the depth buffer (D32_SFLOAT), the object IDs (R32_UINT) and the motion vectors
// (RG16_SFLOAT) with the prepass's and the main pass's framebuffers and a read-back buffer; and the
// one shadow map with its comparison sampler. Targets' images are made the first time a target is
// drawn into (never again while it keeps its size) and dropped once unused for a whole ring of
// frames when another target needs room.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/render/gpu_buffer.hpp"
#include "mf/render/gpu_memory.hpp"

namespace mf::render {
class Device;
class RenderTarget;
}  // namespace mf::render

namespace mf::render::detail {

class ForwardPipelines;

// An image, its view and its memory.
struct ImageAttachment {
  VkImage image = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
  GpuAllocation allocation;
};

struct TargetImages {
  std::uint64_t serial = 0;  // RenderTarget's
  int width = 0, height = 0;
  VkImage colour = VK_NULL_HANDLE;
  ImageAttachment depth, ids, motion;
  VkFramebuffer prepass = VK_NULL_HANDLE, main = VK_NULL_HANDLE;
  GpuBuffer readback;        // width × height × 4 bytes, host-visible: picks and motion vectors
  std::uint64_t last_frame = 0;
};

struct ShadowMap {
  ImageAttachment image;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  VkSampler sampler = VK_NULL_HANDLE;
  std::uint32_t size = 0;
};

class ForwardTargets {
 public:
  static Expected<std::unique_ptr<ForwardTargets>> create(Device& device, GpuMemory& memory, const ForwardPipelines& pipelines,
                                                          std::uint32_t shadow_map_size);
  ~ForwardTargets();
  ForwardTargets(const ForwardTargets&) = delete;
  ForwardTargets& operator=(const ForwardTargets&) = delete;

  // The images of `target` (whose serial is `serial`) for frame number `frame`, made when it has
  // none of its size; images of other targets unused since frame `frame` − kFrameSlots (finished)
  // are dropped first.
  Expected<TargetImages*> acquire(RenderTarget& target, std::uint64_t serial, std::uint64_t frame);
  const ShadowMap& shadow() const { return shadow_; }

 private:
  ForwardTargets() = default;
  Status create_shadow_map(std::uint32_t size);
  Expected<std::unique_ptr<TargetImages>> create_images(RenderTarget& target, std::uint64_t serial);
  Expected<ImageAttachment> create_attachment(VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect,
                                              std::uint32_t width, std::uint32_t height);
  void destroy(ImageAttachment& attachment);
  void destroy(TargetImages& images);

  Device* device_ = nullptr;
  GpuMemory* memory_ = nullptr;
  const ForwardPipelines* pipelines_ = nullptr;
  ShadowMap shadow_;
  std::vector<std::unique_ptr<TargetImages>> targets_;
};

}  // namespace mf::render::detail
