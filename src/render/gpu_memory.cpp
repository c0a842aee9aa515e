#include "mf/render/gpu_memory.hpp"

#include <algorithm>

#include "mf/render/device.hpp"
#include "mf/render/vulkan_error.hpp"

namespace mf::render {

namespace {

VkDeviceSize align_up(VkDeviceSize value, VkDeviceSize alignment) {
  return alignment <= 1 ? value : (value + alignment - 1) / alignment * alignment;
}

}  // namespace

GpuMemory::GpuMemory(Device& device, VkDeviceSize block_size) : device_(device), block_size_(block_size) {}

GpuMemory::~GpuMemory() {
  for (Block& block : blocks_) {
    if (block.memory == VK_NULL_HANDLE) continue;
    if (block.mapped) vkUnmapMemory(device_.device(), block.memory);
    vkFreeMemory(device_.device(), block.memory, nullptr);
  }
}

Expected<GpuAllocation> GpuMemory::allocate(const VkMemoryRequirements& requirements, VkMemoryPropertyFlags required,
                                            VkMemoryPropertyFlags preferred, ResourceClass resource) {
  const int type = device_.find_memory_type(requirements.memoryTypeBits, required, preferred);
  if (type < 0) return Unexpected{Error{{}, {}, {}, "no memory type fits a resource of " + std::to_string(requirements.size) + " bytes"}};
  const auto memory_type = static_cast<std::uint32_t>(type);

  // First fit in an existing block of the same type and class.
  for (std::size_t b = 0; b < blocks_.size(); ++b) {
    Block& block = blocks_[b];
    if (block.memory == VK_NULL_HANDLE || block.memory_type != memory_type || block.resource != resource) continue;
    for (std::size_t r = 0; r < block.free.size(); ++r) {
      Range& range = block.free[r];
      const VkDeviceSize start = align_up(range.offset, requirements.alignment);
      const VkDeviceSize end = start + requirements.size;
      if (end > range.offset + range.size) continue;
      // Split the free range into what is left before and after.
      const Range before{range.offset, start - range.offset};
      const Range after{end, range.offset + range.size - end};
      block.free.erase(block.free.begin() + static_cast<std::ptrdiff_t>(r));
      auto at = block.free.begin() + static_cast<std::ptrdiff_t>(r);
      if (after.size > 0) at = block.free.insert(at, after);
      if (before.size > 0) block.free.insert(at, before);
      block.used += end - start;
      return GpuAllocation{block.memory, start, requirements.size, block.mapped ? block.mapped + start : nullptr,
                           static_cast<std::int32_t>(b)};
    }
  }

  // A new block, large enough for this resource.
  Block block;
  block.size = std::max(block_size_, align_up(requirements.size, 4096));
  block.memory_type = memory_type;
  block.resource = resource;
  VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  info.allocationSize = block.size;
  info.memoryTypeIndex = memory_type;
  if (VkResult r = vkAllocateMemory(device_.device(), &info, nullptr, &block.memory); r != VK_SUCCESS)
    return Unexpected{vulkan_error("cannot allocate " + std::to_string(block.size) + " bytes of GPU memory", r)};
  if (device_.memory_properties().memoryTypes[memory_type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
    void* pointer = nullptr;
    if (VkResult r = vkMapMemory(device_.device(), block.memory, 0, VK_WHOLE_SIZE, 0, &pointer); r != VK_SUCCESS) {
      vkFreeMemory(device_.device(), block.memory, nullptr);
      return Unexpected{vulkan_error("cannot map GPU memory", r)};
    }
    block.mapped = static_cast<std::uint8_t*>(pointer);
  }
  block.free.push_back({0, block.size});
  // Reuse the slot of a released block, if any.
  auto slot = std::find_if(blocks_.begin(), blocks_.end(), [](const Block& b) { return b.memory == VK_NULL_HANDLE; });
  if (slot == blocks_.end()) {
    blocks_.push_back(std::move(block));
  } else {
    *slot = std::move(block);
  }
  return allocate(requirements, required, preferred, resource);
}

void GpuMemory::free(const GpuAllocation& allocation) {
  if (!allocation.valid() || allocation.block < 0 || static_cast<std::size_t>(allocation.block) >= blocks_.size()) return;
  Block& block = blocks_[static_cast<std::size_t>(allocation.block)];
  Range range{allocation.offset, allocation.size};
  auto at = std::lower_bound(block.free.begin(), block.free.end(), range.offset,
                             [](const Range& r, VkDeviceSize offset) { return r.offset < offset; });
  at = block.free.insert(at, range);
  // Merge with the next and the previous free range.
  if (auto next = at + 1; next != block.free.end() && at->offset + at->size == next->offset) {
    at->size += next->size;
    at = block.free.erase(next) - 1;
  }
  if (at != block.free.begin()) {
    auto prev = at - 1;
    if (prev->offset + prev->size == at->offset) {
      prev->size += at->size;
      block.free.erase(at);
    }
  }
  block.used -= allocation.size;
  // Give an empty block back to the driver, so a level that loads and unloads rigs does not grow.
  if (block.used == 0) {
    if (block.mapped) vkUnmapMemory(device_.device(), block.memory);
    vkFreeMemory(device_.device(), block.memory, nullptr);
    block = Block{};
  }
}

std::size_t GpuMemory::block_count() const {
  return static_cast<std::size_t>(std::count_if(blocks_.begin(), blocks_.end(), [](const Block& b) { return b.memory != VK_NULL_HANDLE; }));
}

VkDeviceSize GpuMemory::bytes_in_use() const {
  VkDeviceSize total = 0;
  for (const Block& block : blocks_) total += block.used;
  return total;
}

}  // namespace mf::render
