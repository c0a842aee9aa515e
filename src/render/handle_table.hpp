#pragma once
// Internal: HandleTable, the renderer's generational slots for datas and instances.

#include <cstdint>
#include <memory>
#include <vector>

namespace mf::render::detail {

// A handle is (index, generation) and names its entry only while the slot holds that generation:
// removing bumps it, so a removed handle, or one whose slot a later add reused, never finds an entry.
// Slots freed by remove() are reused by later adds (last freed first).
template <typename T>
class HandleTable {
 public:
  struct Key {
    std::int32_t index;
    std::uint32_t generation;
  };

  Key add(std::unique_ptr<T> entry) {
    std::size_t i = slots_.size();
    if (!free_.empty()) {
      i = free_.back();
      free_.pop_back();
    } else {
      slots_.emplace_back();
    }
    slots_[i].entry = std::move(entry);
    return {static_cast<std::int32_t>(i), slots_[i].generation};
  }
  // The entry `key` names; nullptr when it names none (never added, removed, or reused).
  T* find(std::int32_t index, std::uint32_t generation) const {
    if (index < 0 || static_cast<std::size_t>(index) >= slots_.size()) return nullptr;
    const Slot& slot = slots_[static_cast<std::size_t>(index)];
    return slot.generation == generation ? slot.entry.get() : nullptr;
  }
  // Whether `index` is a slot this table ever handed out (to tell stale handles from foreign ones).
  bool known_index(std::int32_t index) const { return index >= 0 && static_cast<std::size_t>(index) < slots_.size(); }
  // Takes the entry out and bumps the slot's generation; nullptr when `key` names none.
  std::unique_ptr<T> remove(std::int32_t index, std::uint32_t generation) {
    if (!find(index, generation)) return nullptr;
    Slot& slot = slots_[static_cast<std::size_t>(index)];
    ++slot.generation;
    if (slot.generation == 0) slot.generation = 1;  // 0 is what default handles carry
    free_.push_back(static_cast<std::size_t>(index));
    return std::move(slot.entry);
  }
  template <typename F>
  void for_each(F&& f) {
    for (Slot& slot : slots_)
      if (slot.entry) f(*slot.entry);
  }

 private:
  struct Slot {
    std::unique_ptr<T> entry;
    std::uint32_t generation = 1;
  };
  std::vector<Slot> slots_;
  std::vector<std::size_t> free_;
};

}  // namespace mf::render::detail
