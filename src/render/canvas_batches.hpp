#pragma once
// Internal: CanvasBatches, a frame's indexed draws for the canvas pass. Indices are written,
// rebased to their skeleton's place in the frame's vertex buffer, straight into the frame slot's
// upload ring (its free space after the frame block); consecutive draws with the same (blend, lit
// variant, page set) merge into one, across skeletons too.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

#include "mf/render/upload_ring.hpp"

namespace mf::render::detail {

struct CanvasDraw {
  std::int32_t blend;
  std::int32_t variant;
  VkDescriptorSet set;
  std::uint32_t first, count;  // into the frame's indices
};

// Writes `count` indices offset by `base`: a plain loop the compiler vectorises (200 skeletons
// rebase about 700 000 indices a frame, straight into the frame's upload ring). Not inlined: inside
// the caller g++ 12 leaves the loop scalar.
template <typename Index>
[[gnu::noinline]] void write_rebased(std::uint32_t* dst, const Index* indices, std::size_t count, std::uint32_t base) {
  for (std::size_t i = 0; i < count; ++i) dst[i] = base + static_cast<std::uint32_t>(indices[i]);
}

class CanvasBatches {
 public:
  // Starts a frame writing into `space`. Past its end indices are only counted, and the frame's
  // recording reports the uploads too big for the slot.
  void begin(const UploadSpan& space) {
    space_ = space;
    count_ = 0;
    draws_.clear();
  }
  // Appends `count` indices offset by `base` (unless `write` is false: they are already in place)
  // and queues their draw.
  template <typename Index>
  void draw_indices(const Index* local, std::uint32_t count, std::uint32_t base, std::int32_t blend, std::int32_t variant,
                    VkDescriptorSet set, bool write = true) {
    const std::uint32_t first = count_;
    const VkDeviceSize room = space_.size / sizeof(std::uint32_t);
    if (first <= room && count <= room - first) {
      if (write) write_rebased(reinterpret_cast<std::uint32_t*>(space_.data) + first, local, count, base);
    } else {
      space_.size = 0;  // full: later indices are only counted
    }
    count_ += count;
    add_draw(blend, variant, set, first, count);
  }

  // Where the next index goes.
  const std::uint32_t* next() const { return reinterpret_cast<const std::uint32_t*>(space_.data) + count_; }
  // Whether every index so far was written.
  bool fits() const { return VkDeviceSize{count_} * sizeof(std::uint32_t) <= space_.size; }
  std::uint32_t index_count() const { return count_; }
  VkDeviceSize index_offset() const { return space_.offset; }
  const std::vector<CanvasDraw>& draws() const { return draws_; }

 private:
  void add_draw(std::int32_t blend, std::int32_t variant, VkDescriptorSet set, std::uint32_t first, std::uint32_t count) {
    if (count == 0) return;
    if (!draws_.empty()) {
      CanvasDraw& last = draws_.back();
      if (last.blend == blend && last.variant == variant && last.set == set && last.first + last.count == first) {
        last.count += count;
        return;
      }
    }
    draws_.push_back({blend, variant, set, first, count});
  }

  UploadSpan space_;
  std::uint32_t count_ = 0;
  std::vector<CanvasDraw> draws_;
};

}  // namespace mf::render::detail
