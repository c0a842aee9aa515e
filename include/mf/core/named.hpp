#pragma once
// Lookups by name over small tables, for tools and load-time code (linear: not for frame loops).

#include <array>
#include <optional>
#include <string_view>
#include <vector>

namespace mf {

// Index of the first item whose `name` equals `name`, or −1.
template <class T>
int find_named(const std::vector<T>& items, std::string_view name) {
  for (std::size_t i = 0; i < items.size(); ++i)
    if (items[i].name == name) return static_cast<int>(i);
  return -1;
}

// The enum value whose name (by position in `names`) is `s`.
template <class E, std::size_t N>
std::optional<E> parse_enum(std::string_view s, const std::array<const char*, N>& names) {
  for (std::size_t i = 0; i < N; ++i)
    if (s == names[i]) return static_cast<E>(i);
  return std::nullopt;
}

}  // namespace mf
