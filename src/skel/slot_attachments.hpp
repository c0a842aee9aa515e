#pragma once
// Internal: every attachment each slot can show (its own, and any a skin maps to it), for sizing
// per-instance buffers once at construction.

#include <cstdint>

#include "mf/skel/skeleton_data.hpp"

namespace mf::skel::detail {

// Calls fn(slot, attachment) for each slot (in range) and attachment it can show; pairs may repeat.
template <class Fn>
void for_each_slot_attachment(const SkeletonData& data, Fn&& fn) {
  const std::size_t slots = data.slots.size();
  auto consider = [&](std::int32_t slot, const AttachmentRecord& a) {
    if (slot >= 0 && static_cast<std::size_t>(slot) < slots) fn(static_cast<std::size_t>(slot), a);
  };
  for (const AttachmentRecord& a : data.attachments) consider(a.slot, a);
  for (const SkinData& skin : data.skins)
    for (const SkinEntry& e : skin.entries)
      if (e.attachment >= 0 && static_cast<std::size_t>(e.attachment) < data.attachments.size())
        consider(e.slot, data.attachments[static_cast<std::size_t>(e.attachment)]);
}

inline bool draws(AttachmentKind kind) { return kind == AttachmentKind::Region || kind == AttachmentKind::Mesh; }

}  // namespace mf::skel::detail
