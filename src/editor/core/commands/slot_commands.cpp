#include "mf/editor/core/commands/slot_commands.hpp"

#include "mf/editor/core/model/clip_references.hpp"
#include "mf/editor/core/model/names.hpp"
#include "mf/editor/core/model/rig_deletion.hpp"
#include "mf/editor/core/model/slot_order.hpp"
#include "mf/editor/core/model/validate.hpp"

namespace mf::editor {

using namespace offline;

namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }
bool valid_slot(const SkeletonSource& s, int i) { return i >= 0 && at(i) < s.slots.size(); }
Unexpected no_slot(int i) { return edit_error("there is no slot at index " + std::to_string(i)); }

const FieldGroup<Slot> kSlotGroups[] = {
    {"Set bone of", [](const Slot& a, const Slot& b) { return a.bone != b.bone; }},
    {"Set setup attachment of", [](const Slot& a, const Slot& b) { return a.attachment != b.attachment; }},
    {"Set colour of", [](const Slot& a, const Slot& b) { return a.color != b.color; }},
    {"Set dark colour of", [](const Slot& a, const Slot& b) { return a.dark != b.dark; }},
    {"Set blend mode of", [](const Slot& a, const Slot& b) { return a.blend != b.blend; }},
};

}  // namespace

Slot* SlotTraits::find(SkeletonSource& s, int slot) { return valid_slot(s, slot) ? &s.slots[at(slot)] : nullptr; }
const Slot* SlotTraits::find(const SkeletonSource& s, int slot) {
  return valid_slot(s, slot) ? &s.slots[at(slot)] : nullptr;
}
std::string SlotTraits::noun(const SkeletonSource&, int, const Slot& v) { return "slot " + quoted(v.name); }
std::span<const FieldGroup<Slot>> SlotTraits::groups() { return kSlotGroups; }

Status SlotTraits::validate(const Document& doc, int slot, const Slot& before, const Slot& after) {
  if (after.name != before.name) return edit_error("slot " + quoted(before.name) + ": rename it with RenameSlot");
  return validate_slot(doc.skeleton(), slot, after);
}

Status CreateSlot::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  const auto taken = [&](std::string_view n) { return s.find_slot(n) >= 0; };
  if (slot_.name.empty()) slot_.name = unique_name("slot", taken);
  if (Status st = check_name("slot", slot_.name, "", taken); !st) return st;
  if (!slot_.attachment.empty())
    return edit_error("slot " + quoted(slot_.name) + " has no attachments yet: set its setup attachment after adding one");
  if (Status st = validate_slot(s, -1, slot_); !st) return st;
  const int count = static_cast<int>(s.slots.size());
  const int to = draw_index_ < 0 || draw_index_ > count ? count : draw_index_;
  std::vector<Slot> slots = s.slots;
  slots.insert(slots.begin() + to, slot_);
  std::vector<int> new_index(s.slots.size());
  for (int i = 0; i < count; ++i) new_index[at(i)] = i < to ? i : i + 1;
  reorder_slots(model, std::move(slots), new_index);
  index_ = to;
  set_name("Create slot " + quoted(slot_.name));
  return {};
}

Status DeleteSlot::edit(RigModel& model, const Document&) {
  if (!valid_slot(model.skeleton, slot_)) return no_slot(slot_);
  set_name("Delete slot " + quoted(model.skeleton.slots[at(slot_)].name));
  delete_slots(model, {slot_});
  return {};
}

Status RenameSlot::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  if (!valid_slot(s, slot_)) return no_slot(slot_);
  const std::string old = s.slots[at(slot_)].name;
  if (Status st = check_name("slot", name_, old, [&](std::string_view n) { return s.find_slot(n) >= 0; }); !st) return st;
  s.slots[at(slot_)].name = name_;
  for (ClipSource& clip : model.clips) rename_slot(clip, old, name_);
  set_name("Rename slot " + quoted(old) + " to " + quoted(name_));
  add_rename({SlotId{old}, SlotId{name_}});
  return {};
}

Status MoveSlot::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  if (!valid_slot(s, slot_)) return no_slot(slot_);
  if (!valid_slot(s, to_)) return edit_error("draw order place " + std::to_string(to_) + " is outside the " +
                                             std::to_string(s.slots.size()) + " slots");
  if (to_ == slot_) return {};
  set_name("Move slot " + quoted(s.slots[at(slot_)].name) + " in the draw order");
  const std::vector<int> new_index = order_for_move(s.slots.size(), slot_, to_);
  std::vector<Slot> slots(s.slots.size());
  for (std::size_t i = 0; i < s.slots.size(); ++i) slots[at(new_index[i])] = s.slots[i];
  reorder_slots(model, std::move(slots), new_index);
  return {};
}

}  // namespace mf::editor
