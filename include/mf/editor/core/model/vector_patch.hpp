#pragma once
// The difference between two versions of a list, as the one run of items that differs between their
// common start and common end. Inserting, deleting or changing one item (the usual edit) keeps just
// that item; applying the patch forward or backward gives either version exactly.

#include <algorithm>
#include <cstddef>
#include <vector>

namespace mf::editor {

template <class T>
struct VectorPatch {
  std::size_t at = 0;     // where the differing run starts
  std::vector<T> before;  // the run in the old version
  std::vector<T> after;   // the run in the new version
  bool changed = false;

  static VectorPatch diff(const std::vector<T>& old_items, const std::vector<T>& new_items) {
    VectorPatch p;
    const std::size_t n = std::min(old_items.size(), new_items.size());
    std::size_t prefix = 0;
    while (prefix < n && old_items[prefix] == new_items[prefix]) ++prefix;
    if (prefix == old_items.size() && prefix == new_items.size()) return p;
    std::size_t suffix = 0;
    while (suffix < n - prefix &&
           old_items[old_items.size() - 1 - suffix] == new_items[new_items.size() - 1 - suffix])
      ++suffix;
    p.changed = true;
    p.at = prefix;
    p.before.assign(old_items.begin() + static_cast<std::ptrdiff_t>(prefix),
                    old_items.end() - static_cast<std::ptrdiff_t>(suffix));
    p.after.assign(new_items.begin() + static_cast<std::ptrdiff_t>(prefix),
                   new_items.end() - static_cast<std::ptrdiff_t>(suffix));
    return p;
  }

  // Turns the old version into the new one (forward) or back.
  void apply(std::vector<T>& items, bool forward) const {
    if (!changed) return;
    const std::vector<T>& from = forward ? before : after;
    const std::vector<T>& to = forward ? after : before;
    const auto first = items.begin() + static_cast<std::ptrdiff_t>(at);
    items.erase(first, first + static_cast<std::ptrdiff_t>(from.size()));
    items.insert(items.begin() + static_cast<std::ptrdiff_t>(at), to.begin(), to.end());
  }
};

}  // namespace mf::editor
