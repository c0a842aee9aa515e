#pragma once
// Internal: RangeAllocator, first-fit ranges of a fixed-size arena (the skinning pass's static
// influence and vertex arenas), with freed ranges merged with their free neighbours.

#include <cstdint>
#include <optional>
#include <vector>

namespace mf::render::detail {

class RangeAllocator {
 public:
  explicit RangeAllocator(std::uint32_t capacity = 0) {
    if (capacity > 0) free_.push_back({0, capacity});
  }
  // The first free range of `count` elements (count 0: offset 0, nothing taken).
  std::optional<std::uint32_t> allocate(std::uint32_t count) {
    if (count == 0) return 0u;
    for (std::size_t i = 0; i < free_.size(); ++i) {
      Range& r = free_[i];
      if (r.count < count) continue;
      const std::uint32_t offset = r.offset;
      r.offset += count;
      r.count -= count;
      if (r.count == 0) free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(i));
      return offset;
    }
    return std::nullopt;
  }
  void free(std::uint32_t offset, std::uint32_t count) {
    if (count == 0) return;
    std::size_t i = 0;
    while (i < free_.size() && free_[i].offset < offset) ++i;
    free_.insert(free_.begin() + static_cast<std::ptrdiff_t>(i), Range{offset, count});
    if (i + 1 < free_.size() && free_[i].offset + free_[i].count == free_[i + 1].offset) {
      free_[i].count += free_[i + 1].count;
      free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(i + 1));
    }
    if (i > 0 && free_[i - 1].offset + free_[i - 1].count == free_[i].offset) {
      free_[i - 1].count += free_[i].count;
      free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }

 private:
  struct Range {
    std::uint32_t offset, count;
  };
  std::vector<Range> free_;  // sorted by offset, never touching
};

}  // namespace mf::render::detail
