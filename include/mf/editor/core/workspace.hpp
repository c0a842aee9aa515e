#pragma once
// What the application drives: one document with its history and selection. Every change of the
// document goes through execute(), undo() and redo(), which keep the three consistent: the
// selection follows the renames that commands report and loses the objects that no longer exist.
// Views read document() and selection(); the UI changes the selection directly (selecting is not
// an edit and is not undone).

#include <memory>
#include <string>

#include "mf/core/expected.hpp"
#include "mf/editor/core/command.hpp"
#include "mf/editor/core/document.hpp"
#include "mf/editor/core/history.hpp"
#include "mf/editor/core/selection.hpp"

namespace mf::editor {

class Workspace {
 public:
  explicit Workspace(Document document, std::size_t history_limit = 0)
      : document_(std::move(document)), history_(history_limit) {}

  const Document& document() const { return document_; }
  const History& history() const { return history_; }
  Selection& selection() { return selection_; }
  const Selection& selection() const { return selection_; }

  // Runs a command. With a gesture id (from begin_gesture) the command may merge into the previous
  // one of the same gesture.
  Status execute(std::unique_ptr<Command> command, GestureId gesture = 0);
  bool undo();
  bool redo();

  // A fresh gesture id for the commands of one drag; end_gesture() when the drag ends.
  GestureId begin_gesture() { return ++last_gesture_; }
  void end_gesture() { history_.end_gesture(); }

  // Saves the dirty files (save_as for a new rig) and marks the history's saved point.
  Status save();
  Status save_as(const std::string& mskel_path);
  // True when any file differs from what was last saved.
  bool dirty() const { return document_.dirty(); }

 private:
  void follow_renames(const Command& command, bool undone);

  Document document_;
  History history_;
  Selection selection_;
  GestureId last_gesture_ = 0;
};

}  // namespace mf::editor
