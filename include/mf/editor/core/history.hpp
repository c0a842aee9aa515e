#pragma once
// The undo stack: commands done on a document, the point up to which they are done, and the point
// at which the document was last saved.
//
// execute() runs a command and, unless it changed nothing or merged into the newest entry, pushes
// it, dropping the entries that could have been redone. Merging (Command::merge_with) is open from
// one execute to the next and closed by end_gesture(), undo, redo, mark_saved and clear: a drag of
// thirty mouse moves that carry one gesture id is one undo step.
//
// The saved point: at_saved_point() is true while the document's content is what was last saved
// (mark_saved), through any undo and redo that come back to it. Per-file dirty flags live in the
// Document (file_changes.hpp) and follow the same moves.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/editor/core/command.hpp"
#include "mf/editor/core/document.hpp"
#include "mf/editor/core/file_changes.hpp"

namespace mf::editor {

class History {
 public:
  // `limit`: the most entries kept (the oldest go first); 0 keeps everything.
  explicit History(std::size_t limit = 0) : limit_(limit) {}

  // Runs `command` on `doc` (the "do"). An error leaves the document and the history as they were.
  // `pushed`, when given, says whether the command became a new entry (it did not when it changed
  // nothing or merged into the newest entry).
  Status execute(Document& doc, std::unique_ptr<Command> command, bool* pushed = nullptr);

  bool can_undo() const { return position_ > 0; }
  bool can_redo() const { return position_ < entries_.size(); }
  // Undoes the newest done entry; false when there is none.
  bool undo(Document& doc);
  // Redoes the oldest undone entry; false when there is none.
  bool redo(Document& doc);

  // Closes merging: the next command starts a new entry.
  void end_gesture() { merge_open_ = false; }
  // Forgets every entry. The document stays as it is; its saved point is kept only if it is now.
  void clear();

  // Entry names, oldest first; entries [0, position()) are done, the rest can be redone.
  std::vector<std::string> names() const;
  std::size_t size() const { return entries_.size(); }
  std::size_t position() const { return position_; }
  // The command of entry i (for the history panel and tests).
  const Command& command(std::size_t i) const { return *entries_.at(i).command; }

  // Records that the document was saved now.
  void mark_saved();
  bool at_saved_point() const { return saved_ == position_; }

 private:
  struct Entry {
    std::unique_ptr<Command> command;
    FileChanges files;
  };

  std::vector<Entry> entries_;
  std::size_t position_ = 0;
  // The position at which the document was saved; empty when that state can no longer be reached.
  std::optional<std::size_t> saved_ = 0;
  std::size_t limit_ = 0;
  bool merge_open_ = false;
};

}  // namespace mf::editor
