#pragma once
// GpuMemory: a simple suballocator. Vulkan limits how many device allocations a program may hold
// (often 4096), so buffers and images take ranges of large blocks instead of one allocation each.
// Blocks are per memory type and per resource class (linear buffers, optimal-tiling images, kept
// apart so buffer-image granularity never matters); ranges are handed out first-fit from a sorted
// free list and merged with their neighbours when freed. Host-visible blocks stay mapped.
// Allocation happens at load time, never per frame.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

#include "mf/core/expected.hpp"

namespace mf::render {

class Device;

enum class ResourceClass : std::uint8_t { Buffer, Image };

struct GpuAllocation {
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize offset = 0, size = 0;
  std::uint8_t* mapped = nullptr;  // host-visible memory: the first byte of this range
  std::int32_t block = -1;
  bool valid() const { return memory != VK_NULL_HANDLE; }
};

class GpuMemory {
 public:
  explicit GpuMemory(Device& device, VkDeviceSize block_size = VkDeviceSize{64} << 20);
  ~GpuMemory();
  GpuMemory(const GpuMemory&) = delete;
  GpuMemory& operator=(const GpuMemory&) = delete;

  // A range for `requirements` in memory with all of `required` (and `preferred` when a type has it).
  Expected<GpuAllocation> allocate(const VkMemoryRequirements& requirements, VkMemoryPropertyFlags required,
                                   VkMemoryPropertyFlags preferred, ResourceClass resource);
  void free(const GpuAllocation& allocation);

  std::size_t block_count() const;
  VkDeviceSize bytes_in_use() const;

 private:
  struct Range {
    VkDeviceSize offset, size;
  };
  struct Block {
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0;
    std::uint32_t memory_type = 0;
    ResourceClass resource = ResourceClass::Buffer;
    std::uint8_t* mapped = nullptr;
    std::vector<Range> free;  // sorted by offset, never adjacent
    VkDeviceSize used = 0;
  };
  Device& device_;
  VkDeviceSize block_size_;
  std::vector<Block> blocks_;
};

}  // namespace mf::render
