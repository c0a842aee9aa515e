#include "mf/editor/core/workspace.hpp"

namespace mf::editor {

void Workspace::follow_renames(const Command& command, bool undone) {
  std::vector<Rename> renames = command.renames();
  if (undone) {
    // Undone in reverse order, each reversed.
    for (auto it = renames.rbegin(); it != renames.rend(); ++it) selection_.apply(reversed(*it));
  } else {
    for (const Rename& r : renames) selection_.apply(r);
  }
  selection_.prune(document_.skeleton());
}

Status Workspace::execute(std::unique_ptr<Command> command, GestureId gesture) {
  command->set_gesture(gesture);
  bool pushed = false;
  Status s = history_.execute(document_, std::move(command), &pushed);
  if (!s) return s;
  // A merged command sets properties and renames nothing; one that changed nothing has no entry.
  if (pushed) follow_renames(history_.command(history_.position() - 1), false);
  return {};
}

bool Workspace::undo() {
  if (!history_.can_undo()) return false;
  const Command& c = history_.command(history_.position() - 1);
  history_.undo(document_);
  follow_renames(c, true);
  return true;
}

bool Workspace::redo() {
  if (!history_.can_redo()) return false;
  history_.redo(document_);
  follow_renames(history_.command(history_.position() - 1), false);
  return true;
}

Status Workspace::save() {
  if (Status s = document_.save(); !s) return s;
  history_.mark_saved();
  return {};
}

Status Workspace::save_as(const std::string& mskel_path) {
  if (Status s = document_.save_as(mskel_path); !s) return s;
  history_.mark_saved();
  return {};
}

}  // namespace mf::editor
