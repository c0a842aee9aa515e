#pragma once
// Commands on slots (Setup mode). Slots are given by index into SkeletonSource::slots, which is the
// setup draw order.

#include <span>
#include <string>

#include "mf/editor/core/commands/patch_command.hpp"
#include "mf/editor/core/commands/set_object_command.hpp"

namespace mf::editor {

struct SlotTraits {
  using Value = offline::Slot;
  using Key = int;
  static Value* find(offline::SkeletonSource& s, int slot);
  static const Value* find(const offline::SkeletonSource& s, int slot);
  static std::string noun(const offline::SkeletonSource& s, int slot, const Value& v);
  static std::span<const FieldGroup<Value>> groups();
  // The name stays (RenameSlot); the setup attachment must exist for the slot in some skin.
  static Status validate(const Document& doc, int slot, const Value& before, const Value& after);
};

// A slot's bone, setup attachment, colour, dark colour or blend mode: "Set bone of", "Set setup
// attachment of", "Set colour of", "Set dark colour of", "Set blend mode of" slot "x". The
// attachments keep their coordinates, so they follow the new bone.
using SetSlot = SetObjectCommand<SlotTraits>;

// Adds `slot` at `draw_index` in the setup draw order (-1: on top, the end). An empty name becomes a
// free "slot", "slot2", ...; it has no setup attachment yet (it has no attachments). Draw-order keys
// place it after the slot drawn before it in the setup order (model/slot_order.hpp).
// "Create slot \"x\"".
class CreateSlot final : public PatchCommand {
 public:
  explicit CreateSlot(offline::Slot slot, int draw_index = -1)
      : PatchCommand("Create slot", true), slot_(std::move(slot)), draw_index_(draw_index) {}
  int index() const { return index_; }

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  offline::Slot slot_;
  int draw_index_;
  int index_ = -1;
};

// Deletes a slot with its attachments in every skin, the path constraints that follow it, its
// timelines and its places in draw-order keys. "Delete slot \"x\"".
class DeleteSlot final : public PatchCommand {
 public:
  explicit DeleteSlot(int slot) : PatchCommand("Delete slot", true), slot_(slot) {}

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  int slot_;
};

// Renames a slot; attachments, path constraints and clipping ends refer to it by index; the clips'
// slot timelines, deform timelines and draw-order moves are renamed. "Rename slot \"x\" to \"y\"".
class RenameSlot final : public PatchCommand {
 public:
  RenameSlot(int slot, std::string name) : PatchCommand("Rename slot", true), slot_(slot), name_(std::move(name)) {}

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  int slot_;
  std::string name_;
};

// Moves a slot to `to` in the setup draw order; every clip's draw-order keys keep the order they
// show. "Move slot \"x\" in the draw order".
class MoveSlot final : public PatchCommand {
 public:
  MoveSlot(int slot, int to) : PatchCommand("Move slot in the draw order", true), slot_(slot), to_(to) {}

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  int slot_;
  int to_;
};

}  // namespace mf::editor
