#include "mf/render/gpu_buffer.hpp"

#include <utility>

#include "mf/render/device.hpp"
#include "mf/render/vulkan_error.hpp"

namespace mf::render {

Expected<GpuBuffer> GpuBuffer::create(Device& device, GpuMemory& memory, VkDeviceSize size, VkBufferUsageFlags usage,
                                      MemoryUse use) {
  GpuBuffer out;
  out.device_ = &device;
  out.memory_ = &memory;
  out.size_ = size;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (VkResult r = vkCreateBuffer(device.device(), &info, nullptr, &out.buffer_); r != VK_SUCCESS)
    return Unexpected{vulkan_error("cannot create a buffer of " + std::to_string(size) + " bytes", r)};

  VkMemoryRequirements requirements{};
  vkGetBufferMemoryRequirements(device.device(), out.buffer_, &requirements);
  VkMemoryPropertyFlags required = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, preferred = 0;
  if (use == MemoryUse::Upload) {
    required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;  // resizable BAR when present
  } else if (use == MemoryUse::Readback) {
    required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  }
  auto allocation = memory.allocate(requirements, required, preferred, ResourceClass::Buffer);
  if (!allocation) return Unexpected{allocation.error()};
  out.allocation_ = *allocation;
  if (VkResult r = vkBindBufferMemory(device.device(), out.buffer_, out.allocation_.memory, out.allocation_.offset); r != VK_SUCCESS)
    return Unexpected{vulkan_error("cannot bind buffer memory", r)};
  return out;
}

GpuBuffer::~GpuBuffer() { release(); }

GpuBuffer::GpuBuffer(GpuBuffer&& other) noexcept { *this = std::move(other); }

GpuBuffer& GpuBuffer::operator=(GpuBuffer&& other) noexcept {
  if (this != &other) {
    release();
    device_ = std::exchange(other.device_, nullptr);
    memory_ = std::exchange(other.memory_, nullptr);
    buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
    size_ = std::exchange(other.size_, 0);
    allocation_ = std::exchange(other.allocation_, GpuAllocation{});
  }
  return *this;
}

void GpuBuffer::release() {
  if (buffer_ != VK_NULL_HANDLE) vkDestroyBuffer(device_->device(), buffer_, nullptr);
  if (allocation_.valid()) memory_->free(allocation_);
  buffer_ = VK_NULL_HANDLE;
  allocation_ = {};
}

}  // namespace mf::render
