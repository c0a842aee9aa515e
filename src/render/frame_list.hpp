#pragma once
// Internal: FrameList, the per-frame list of plain records the renderer fills every frame (bone
// palette, slot records, deform floats, skinning jobs, CPU vertices).

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>

namespace mf::render::detail {

// Keeps its capacity and appends without initialising: append(n) hands back room for n records to
// write in place, so filling the palette, slot records and jobs is one pass, and the copy into the
// upload ring the only other. It allocates only to grow (during the first frames).
template <typename T>
class FrameList {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  T* append(std::size_t count) {
    if (count > capacity_ - size_) grow(size_ + count);
    T* out = data_.get() + size_;
    size_ += count;
    return out;
  }
  void push_back(const T& value) { *append(1) = value; }
  void clear() { size_ = 0; }
  const T* data() const { return data_.get(); }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  void grow(std::size_t needed) {
    const std::size_t capacity = std::max<std::size_t>({needed, 2 * capacity_, 256});
    std::unique_ptr<T[]> bigger(new T[capacity]);  // default-initialised: plain records stay unwritten
    if (size_ > 0) std::memcpy(bigger.get(), data_.get(), size_ * sizeof(T));
    data_ = std::move(bigger);
    capacity_ = capacity;
  }
  std::unique_ptr<T[]> data_;
  std::size_t size_ = 0, capacity_ = 0;
};

}  // namespace mf::render::detail
