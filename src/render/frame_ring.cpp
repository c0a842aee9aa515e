#include "mf/render/frame_ring.hpp"

#include <cstdint>
#include <limits>
#include <utility>

#include "mf/render/device.hpp"
#include "mf/render/vulkan_error.hpp"

namespace mf::render {

Expected<FrameRing> FrameRing::create(Device& device, GpuMemory& memory, VkDeviceSize upload_bytes_per_slot) {
  FrameRing ring;
  ring.device_ = &device;
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = device.queue_family();
  if (VkResult r = vkCreateCommandPool(device.device(), &pool_info, nullptr, &ring.pool_); r != VK_SUCCESS)
    return Unexpected{vulkan_error("cannot create the frame command pool", r)};

  // One buffer for every slot; each slot's range starts on a storage-buffer alignment boundary.
  const VkDeviceSize align = std::max<VkDeviceSize>(device.properties().limits.minStorageBufferOffsetAlignment, 256);
  const VkDeviceSize stride = (upload_bytes_per_slot + align - 1) / align * align;
  auto buffer = GpuBuffer::create(device, memory, stride * kFrameSlots,
                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                                      VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                  MemoryUse::Upload);
  if (!buffer) return Unexpected{buffer.error()};
  ring.upload_buffer_ = std::move(*buffer);

  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = ring.pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  for (int i = 0; i < kFrameSlots; ++i) {
    FrameSlot& slot = ring.slots_[static_cast<std::size_t>(i)];
    slot.index = i;
    if (VkResult r = vkAllocateCommandBuffers(device.device(), &alloc, &slot.commands); r != VK_SUCCESS)
      return Unexpected{vulkan_error("cannot allocate a frame command buffer", r)};
    slot.uploads = UploadRing(ring.upload_buffer_.handle(), stride * static_cast<VkDeviceSize>(i), upload_bytes_per_slot,
                              ring.upload_buffer_.mapped().data() + stride * static_cast<VkDeviceSize>(i));
    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    fence_info.flags = VK_FENCE_CREATE_SIGNALED_BIT;  // a slot never used counts as finished
    if (VkResult r = vkCreateFence(device.device(), &fence_info, nullptr, &ring.fences_[static_cast<std::size_t>(i)]); r != VK_SUCCESS)
      return Unexpected{vulkan_error("cannot create a frame fence", r)};
  }
  return ring;
}

FrameRing::~FrameRing() { release(); }

FrameRing::FrameRing(FrameRing&& other) noexcept { *this = std::move(other); }

FrameRing& FrameRing::operator=(FrameRing&& other) noexcept {
  if (this != &other) {
    release();
    device_ = std::exchange(other.device_, nullptr);
    pool_ = std::exchange(other.pool_, VK_NULL_HANDLE);
    upload_buffer_ = std::move(other.upload_buffer_);
    slots_ = other.slots_;
    fences_ = std::exchange(other.fences_, {});
    next_frame_ = other.next_frame_;
    current_ = std::exchange(other.current_, -1);
  }
  return *this;
}

void FrameRing::release() {
  if (device_ == nullptr) return;
  (void)wait_idle();
  for (VkFence& fence : fences_) {
    if (fence != VK_NULL_HANDLE) vkDestroyFence(device_->device(), fence, nullptr);
    fence = VK_NULL_HANDLE;
  }
  if (pool_ != VK_NULL_HANDLE) vkDestroyCommandPool(device_->device(), pool_, nullptr);  // frees the command buffers
  pool_ = VK_NULL_HANDLE;
  upload_buffer_ = GpuBuffer();
  device_ = nullptr;
}

Expected<FrameSlot*> FrameRing::begin_frame() {
  const int index = static_cast<int>(next_frame_ % kFrameSlots);
  VkFence fence = fences_[static_cast<std::size_t>(index)];
  if (VkResult r = vkWaitForFences(device_->device(), 1, &fence, VK_TRUE, std::numeric_limits<std::uint64_t>::max());
      r != VK_SUCCESS)
    return Unexpected{vulkan_error("waiting for a frame slot failed", r)};
  vkResetFences(device_->device(), 1, &fence);
  FrameSlot& slot = slots_[static_cast<std::size_t>(index)];
  slot.frame = next_frame_++;
  slot.uploads.reset();
  vkResetCommandBuffer(slot.commands, 0);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (VkResult r = vkBeginCommandBuffer(slot.commands, &begin); r != VK_SUCCESS)
    return Unexpected{vulkan_error("cannot begin a frame command buffer", r)};
  current_ = index;
  return &slot;
}

Status FrameRing::submit() {
  if (current_ < 0) return Unexpected{Error{{}, {}, {}, "submit() without begin_frame()"}};
  FrameSlot& slot = slots_[static_cast<std::size_t>(current_)];
  if (VkResult r = vkEndCommandBuffer(slot.commands); r != VK_SUCCESS)
    return Unexpected{vulkan_error("cannot end a frame command buffer", r)};
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &slot.commands;
  const VkFence fence = fences_[static_cast<std::size_t>(current_)];
  current_ = -1;
  if (VkResult r = vkQueueSubmit(device_->queue(), 1, &submit, fence); r != VK_SUCCESS)
    return Unexpected{vulkan_error("frame submit failed", r)};
  return {};
}

Status FrameRing::wait_idle() {
  for (VkFence fence : fences_) {
    if (fence == VK_NULL_HANDLE) continue;
    if (VkResult r = vkWaitForFences(device_->device(), 1, &fence, VK_TRUE, std::numeric_limits<std::uint64_t>::max());
        r != VK_SUCCESS)
      return Unexpected{vulkan_error("waiting for the frame ring failed", r)};
  }
  return {};
}

}  // namespace mf::render
