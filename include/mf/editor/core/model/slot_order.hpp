#pragma once
// Changing the setup draw order (the slot list): inserting, deleting and moving slots with every
// index that refers to a slot renumbered and every clip's draw-order keys rewritten.
//
// Draw-order keys keep the order they show (draw_order_keys.hpp): a key is turned into its whole
// order over the old setup order, deleted slots are dropped from it, a new slot is placed right
// after the slot that precedes it in the new setup order (first when none does), and the result is
// written as moves against the new setup order. An empty key (the setup order) stays empty and so
// shows the new setup order.

#include <vector>

#include "mf/editor/core/rig_model.hpp"

namespace mf::editor {

// Replaces the slot list with `new_slots`. `new_index[i]` is the new index of old slot i, or -1 when
// it is deleted; slots of `new_slots` that no old slot maps to are new. Renumbers attachments'
// slots, clipping end slots and path constraint targets, and rewrites the clips' draw-order keys.
// Attachments in deleted slots and path constraints that target them must be gone already; a
// clipping attachment whose end slot is deleted ends at the slot drawn before it (the whole rest of
// the draw order when that is not after the clipping slot).
void reorder_slots(RigModel& model, std::vector<offline::Slot> new_slots, const std::vector<int>& new_index);

// new_index for moving slot `from` to index `to` (the others keep their order).
std::vector<int> order_for_move(std::size_t count, int from, int to);

}  // namespace mf::editor
