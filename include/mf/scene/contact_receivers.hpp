#pragma once
// ContactReceivers<R>: how a physics space node (2D or 3D) finds the node behind a body in a contact
// event. A node registers as a receiver and gets a key that is never reused; it puts key and a part
// number into its bodies' or fixtures' user data (user_data(key, part)); the space looks the receiver
// up from the user data of each event. A removed receiver's entry stays null, so events that arrive
// after it left (the end events of bodies removed in an earlier step) reach no one.

#include <cstdint>
#include <vector>

namespace mf::scene {

static_assert(sizeof(std::uintptr_t) >= 8, "contact user data packs a 32-bit key and a 32-bit part");

template <class R>
class ContactReceivers {
 public:
  ContactReceivers() { receivers_.reserve(64); }

  std::uint32_t add(R* receiver) {
    receivers_.push_back(receiver);
    return static_cast<std::uint32_t>(receivers_.size());
  }
  void remove(std::uint32_t key) {
    if (key >= 1 && key <= receivers_.size()) receivers_[key - 1] = nullptr;
  }
  R* find(std::uintptr_t user_data) const {
    const auto key = static_cast<std::size_t>(user_data >> 32);
    return key >= 1 && key <= receivers_.size() ? receivers_[key - 1] : nullptr;
  }
  static std::uintptr_t user_data(std::uint32_t key, std::uint32_t part) { return (static_cast<std::uintptr_t>(key) << 32) | part; }
  static std::uint32_t part(std::uintptr_t user_data) { return static_cast<std::uint32_t>(user_data & 0xFFFFFFFFu); }

  // Calls f(R&) for each receiver still registered; by index, so f may register more.
  template <class F>
  void for_each(F&& f) {
    for (std::size_t i = 0; i < receivers_.size(); ++i)
      if (R* r = receivers_[i]) f(*r);
  }

 private:
  std::vector<R*> receivers_;  // index = key − 1; null once removed
};

}  // namespace mf::scene
