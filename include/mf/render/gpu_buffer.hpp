#pragma once
// GpuBuffer: a VkBuffer with its memory range. Host-visible buffers are mapped for their lifetime.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>

#include "mf/core/expected.hpp"
#include "mf/render/gpu_memory.hpp"

namespace mf::render {

enum class MemoryUse : std::uint8_t {
  DeviceLocal,  // GPU only; filled by copies or shaders
  Upload,       // host-visible and coherent, written by the CPU, read by the GPU
  Readback,     // host-visible and coherent (cached when available), written by the GPU, read by the CPU
};

class GpuBuffer {
 public:
  GpuBuffer() = default;
  static Expected<GpuBuffer> create(Device& device, GpuMemory& memory, VkDeviceSize size, VkBufferUsageFlags usage,
                                    MemoryUse use);
  ~GpuBuffer();
  GpuBuffer(GpuBuffer&& other) noexcept;
  GpuBuffer& operator=(GpuBuffer&& other) noexcept;
  GpuBuffer(const GpuBuffer&) = delete;
  GpuBuffer& operator=(const GpuBuffer&) = delete;

  VkBuffer handle() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  // The mapped bytes of a host-visible buffer (empty otherwise).
  std::span<std::uint8_t> mapped() const { return {allocation_.mapped, allocation_.mapped ? static_cast<std::size_t>(size_) : 0}; }

 private:
  void release();
  Device* device_ = nullptr;
  GpuMemory* memory_ = nullptr;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceSize size_ = 0;
  GpuAllocation allocation_;
};

}  // namespace mf::render
