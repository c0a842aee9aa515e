#pragma once
// One edit of the document, undoable. The application never changes a Document directly: it makes a
// command and gives it to a History (or a Workspace), which runs it and keeps it for undo.
//
// Contract:
//   - execute() applies the edit for the first time, deciding everything that depends on the
//     document (names, indices, computed values). It returns an error, and leaves the document as it
//     was, when the edit is not valid. An edit that would change nothing returns success without
//     touching the document, and leaves no history entry.
//   - undo() puts the document back exactly as it was before execute() (or the last redo()); redo()
//     applies exactly what execute() did. History calls them only in that alternation, on the state
//     the command left or found, so they cannot fail.
//   - Commands change the document through Document::edit_skeleton() / edit_clip(), which is how
//     the document knows which files became dirty.

#include <cstdint>
#include <string>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/editor/core/document.hpp"
#include "mf/editor/core/object_id.hpp"

namespace mf::editor {

// Groups the commands of one interaction (a drag in the viewport, a slider held down). 0 is none.
using GestureId = std::uint64_t;

class Command {
 public:
  virtual ~Command() = default;

  // For the history list, e.g. "Rotate bone \"arm\"". Final once execute() has run.
  virtual std::string name() const = 0;

  virtual Status execute(Document& doc) = 0;
  virtual void undo(Document& doc) = 0;
  virtual void redo(Document& doc) = 0;

  // Called on the newest command of the history with the command that has just executed after it,
  // while merging is open (History::end_gesture closes it). Returns true when this command absorbed
  // `next`, becoming one undo step that goes from this command's before to `next`'s after. The rule
  // the editing commands follow: both carry the same non-zero gesture and set the same properties
  // of the same object.
  virtual bool merge_with(const Command& next) {
    (void)next;
    return false;
  }

  // The objects this command renamed (after execute() or redo()), for the selection to follow.
  virtual std::vector<Rename> renames() const { return {}; }

  GestureId gesture() const { return gesture_; }
  void set_gesture(GestureId gesture) { gesture_ = gesture; }

 private:
  GestureId gesture_ = 0;
};

}  // namespace mf::editor
