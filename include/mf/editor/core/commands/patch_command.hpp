#pragma once
// The base of structural commands: the edit runs on a copy of the rig (RigModel), and the command
// keeps only the difference (RigPatch). A failed edit leaves the document untouched; undo and redo
// apply the difference backward and forward, which restores each version exactly.

#include <functional>
#include <string>
#include <vector>

#include "mf/editor/core/command.hpp"
#include "mf/editor/core/model/rig_patch.hpp"
#include "mf/editor/core/rig_model.hpp"

namespace mf::editor {

class PatchCommand : public Command {
 public:
  std::string name() const override { return name_; }
  Status execute(Document& doc) final;
  void undo(Document& doc) final { patch_.apply(doc, false); }
  void redo(Document& doc) final { patch_.apply(doc, true); }
  std::vector<Rename> renames() const override { return renames_; }

 protected:
  // `with_clips`: the edit reads or changes clips (renames and deletions do; setting a bone's field
  // does not), so the copy includes them.
  PatchCommand(std::string name, bool with_clips) : name_(std::move(name)), with_clips_(with_clips) {}

  // Edits `model`, a copy of the document (`doc` is the document itself, to read paths and such).
  virtual Status edit(RigModel& model, const Document& doc) = 0;

  void set_name(std::string name) { name_ = std::move(name); }
  void add_rename(Rename rename) { renames_.push_back(std::move(rename)); }

 private:
  std::string name_;
  bool with_clips_ = false;
  RigPatch patch_;
  std::vector<Rename> renames_;
};

// A structural command from a function: for edits that have no command of their own (importers,
// later tools). `edit` runs once, on execute.
class RigEditCommand final : public PatchCommand {
 public:
  using Edit = std::function<Status(RigModel&)>;
  RigEditCommand(std::string name, bool with_clips, Edit edit)
      : PatchCommand(std::move(name), with_clips), edit_(std::move(edit)) {}

 protected:
  Status edit(RigModel& model, const Document&) override { return edit_(model); }

 private:
  Edit edit_;
};

}  // namespace mf::editor
