#include "mf/render/upload_ring.hpp"

namespace mf::render {

std::optional<UploadSpan> UploadRing::allocate(VkDeviceSize size, VkDeviceSize alignment) {
  const VkDeviceSize start = (used_ + alignment - 1) & ~(alignment - 1);
  if (start > capacity_ || size > capacity_ - start) return std::nullopt;
  used_ = start + size;
  return UploadSpan{buffer_, base_ + start, size, data_ + start};
}

UploadSpan UploadRing::free_space(VkDeviceSize alignment) const {
  const VkDeviceSize start = (used_ + alignment - 1) & ~(alignment - 1);
  if (start >= capacity_) return UploadSpan{buffer_, base_ + capacity_, 0, data_ ? data_ + capacity_ : nullptr};
  return UploadSpan{buffer_, base_ + start, capacity_ - start, data_ + start};
}

}  // namespace mf::render
