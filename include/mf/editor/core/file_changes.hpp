#pragma once
// What a change did to the document's files, for dirty flags that stay right across undo and redo.
//
// Every file of a document (the rig file, each clip) has a state number. A change that edits a file
// gives it a fresh number; undo puts the number from before back and redo the one from after. A file
// is dirty when its number is not the one it had when it was last saved, so undoing back to a save
// makes it clean again, and redoing past it makes it dirty.

#include <cstdint>
#include <vector>

namespace mf::editor {

// One file of a document: kRigFile for the .mskel, then one id per clip, given when the document is
// opened and kept for its life (ids never move when clips are added or removed).
using FileId = std::uint32_t;
inline constexpr FileId kRigFile = 0;

struct FileChange {
  FileId file = kRigFile;
  std::uint64_t before = 0;  // the file's state number before the change
  std::uint64_t after = 0;   // and after it

  friend bool operator==(const FileChange&, const FileChange&) = default;
};

// The files one change edited, each once.
using FileChanges = std::vector<FileChange>;

// `first` followed by `next` as one change: each file keeps its state from before `first` (or before
// `next` when `first` did not edit it) and its state after `next` (or after `first`).
FileChanges combine(FileChanges first, const FileChanges& next);

}  // namespace mf::editor
