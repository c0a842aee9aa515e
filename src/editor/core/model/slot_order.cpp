#include "mf/editor/core/model/slot_order.hpp"

#include <algorithm>
#include <cassert>
#include <string>

#include "mf/editor/core/model/draw_order_keys.hpp"

namespace mf::editor {

using namespace offline;

namespace {

std::vector<std::string> names_of(const std::vector<Slot>& slots) {
  std::vector<std::string> out;
  out.reserve(slots.size());
  for (const Slot& s : slots) out.push_back(s.name);
  return out;
}

// A clipping attachment's end slot after renumbering: a deleted end moves to the nearest kept slot
// drawn before it, if that is still after the clipping slot.
int renumber_end(int end, int clip_slot_new, const std::vector<int>& new_index) {
  if (end < 0) return end;
  for (int s = end; s >= 0; --s) {
    const int n = new_index[static_cast<std::size_t>(s)];
    if (n < 0) continue;
    if (s != end && n <= clip_slot_new) return -1;
    return n;
  }
  return -1;
}

}  // namespace

void reorder_slots(RigModel& model, std::vector<Slot> new_slots, const std::vector<int>& new_index) {
  SkeletonSource& s = model.skeleton;
  assert(new_index.size() == s.slots.size());
  const std::vector<std::string> old_names = names_of(s.slots);
  const std::vector<std::string> new_names = names_of(new_slots);
  std::vector<bool> is_new(new_slots.size(), true);
  for (int n : new_index)
    if (n >= 0) is_new[static_cast<std::size_t>(n)] = false;

  for (Skin& skin : s.skins)
    for (Attachment& a : skin.attachments) {
      a.slot = new_index[static_cast<std::size_t>(a.slot)];
      assert(a.slot >= 0 && "an attachment of a deleted slot is left");
      if (auto* clip = std::get_if<ClippingAttachment>(&a.data))
        clip->end_slot = renumber_end(clip->end_slot, a.slot, new_index);
    }
  for (PathConstraint& c : s.path) {
    c.target = new_index[static_cast<std::size_t>(c.target)];
    assert(c.target >= 0 && "a path constraint on a deleted slot is left");
  }
  s.slots = std::move(new_slots);

  for (ClipSource& clip : model.clips) {
    for (std::vector<DrawOrderMove>& key : clip.draw_order.keys) {
      if (key.empty()) continue;
      std::vector<std::string> order = draw_order_of(old_names, key);
      order.erase(std::remove_if(order.begin(), order.end(),
                                 [&](const std::string& n) {
                                   return std::find(new_names.begin(), new_names.end(), n) == new_names.end();
                                 }),
                  order.end());
      for (std::size_t j = 0; j < new_names.size(); ++j) {
        if (!is_new[j]) continue;
        auto at = order.begin();
        for (std::size_t k = j; k-- > 0;) {
          const auto it = std::find(order.begin(), order.end(), new_names[k]);
          if (it != order.end()) {
            at = it + 1;
            break;
          }
        }
        order.insert(at, new_names[j]);
      }
      key = moves_for(new_names, order);
    }
  }
}

std::vector<int> order_for_move(std::size_t count, int from, int to) {
  std::vector<int> order;  // old indices in new order
  for (std::size_t i = 0; i < count; ++i)
    if (static_cast<int>(i) != from) order.push_back(static_cast<int>(i));
  order.insert(order.begin() + to, from);
  std::vector<int> new_index(count);
  for (std::size_t i = 0; i < count; ++i) new_index[static_cast<std::size_t>(order[i])] = static_cast<int>(i);
  return new_index;
}

}  // namespace mf::editor
