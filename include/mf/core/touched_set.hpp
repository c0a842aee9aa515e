#pragma once
// The indices touched since the last clear, in first-touch order, so per-frame work can visit
// and reset only what was written instead of every element. Sized once; nothing allocates after that.

#include <cstdint>
#include <span>
#include <vector>

namespace mf {

class TouchedSet {
 public:
  void resize(std::size_t n) {
    flags_.assign(n, 0);
    list_.clear();
    list_.reserve(n);
  }
  // Records `i`; true when it was not touched yet.
  bool mark(std::size_t i) {
    if (flags_[i]) return false;
    flags_[i] = 1;
    list_.push_back(static_cast<std::uint32_t>(i));
    return true;
  }
  std::span<const std::uint32_t> items() const { return list_; }
  void clear() {
    for (std::uint32_t i : list_) flags_[i] = 0;
    list_.clear();
  }

 private:
  std::vector<std::uint8_t> flags_;
  std::vector<std::uint32_t> list_;
};

}  // namespace mf
