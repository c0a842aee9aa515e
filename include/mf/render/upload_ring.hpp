#pragma once
// UploadRing: a linear allocator over one frame slot's range of a host-visible buffer. The CPU
// writes a frame's dynamic data (bone palettes, slot data, deform floats) into it and shaders read
// it in place; the range is reused when the slot comes round again, after its fence, so nothing
// allocates per frame.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <optional>

namespace mf::render {

struct UploadSpan {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;  // within `buffer`
  VkDeviceSize size = 0;
  std::uint8_t* data = nullptr;
};

class UploadRing {
 public:
  UploadRing() = default;
  UploadRing(VkBuffer buffer, VkDeviceSize base, VkDeviceSize capacity, std::uint8_t* data)
      : buffer_(buffer), base_(base), capacity_(capacity), data_(data) {}

  // `size` bytes aligned to `alignment` (a power of two); nothing when the slot's range is full.
  std::optional<UploadSpan> allocate(VkDeviceSize size, VkDeviceSize alignment = 16);
  // The free space after the last allocation, starting at `alignment` (empty when none is left), for
  // data whose size is known only once written (a frame's indices): write into it, then allocate()
  // the bytes written with the same alignment, nothing allocated in between, to get this place back.
  UploadSpan free_space(VkDeviceSize alignment = 16) const;
  void reset() { used_ = 0; }

  VkDeviceSize used() const { return used_; }
  VkDeviceSize capacity() const { return capacity_; }

 private:
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceSize base_ = 0, capacity_ = 0, used_ = 0;
  std::uint8_t* data_ = nullptr;
};

}  // namespace mf::render
