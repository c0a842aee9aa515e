#pragma once
// Commands on event definitions (Setup mode). Events are given by index into SkeletonSource::events.

#include <span>
#include <string>

#include "mf/editor/core/commands/patch_command.hpp"
#include "mf/editor/core/commands/set_object_command.hpp"

namespace mf::editor {

struct EventTraits {
  using Value = offline::EventDef;
  using Key = int;
  static Value* find(offline::SkeletonSource& s, int event);
  static const Value* find(const offline::SkeletonSource& s, int event);
  static std::string noun(const offline::SkeletonSource& s, int event, const Value& v);
  static std::span<const FieldGroup<Value>> groups();
  // The name stays (RenameEvent); volume 0–1, balance −1–1.
  static Status validate(const Document& doc, int event, const Value& before, const Value& after);
};

// An event's default payload and audio: "Set int value of", "Set float value of", "Set string
// value of", "Set audio of", "Set volume of", "Set balance of" event "x", or "Edit" for several.
using SetEvent = SetObjectCommand<EventTraits>;

// Adds an event definition (an empty name becomes a free "event", "event2", ...). "Create event \"x\"".
class CreateEvent final : public PatchCommand {
 public:
  explicit CreateEvent(offline::EventDef event) : PatchCommand("Create event", false), event_(std::move(event)) {}

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  offline::EventDef event_;
};

// Deletes an event definition and its keys in the loaded clips. "Delete event \"x\"".
class DeleteEvent final : public PatchCommand {
 public:
  explicit DeleteEvent(int event) : PatchCommand("Delete event", true), event_(event) {}

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  int event_;
};

// Renames an event definition and its keys in the loaded clips. "Rename event \"x\" to \"y\"".
class RenameEvent final : public PatchCommand {
 public:
  RenameEvent(int event, std::string name) : PatchCommand("Rename event", true), event_(event), name_(std::move(name)) {}

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  int event_;
  std::string name_;
};

}  // namespace mf::editor
