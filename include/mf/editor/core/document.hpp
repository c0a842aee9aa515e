#pragma once
// The editor's document: one rig as its source files hold it (the .mskel's SkeletonSource, the
// ClipSource of every clip in its clips folder, and the .mgraph files beside it that animate it),
// with per-file dirty flags and a revision counter.
//
// The application reads the document through the const accessors and changes it only through
// commands run by a History (history.hpp): the mutable accessors at the end are for commands.
//
// Saving writes the canonical text (offline::write_skeleton, offline::write_clip) through a temporary
// file and a rename (mf/core/file_io.hpp), so a failed save never damages a file. A rig read from
// canonical files and saved unchanged gives the same bytes.
//
// The source positions (line:column per JSON path) that the readers keep are dropped on open: they
// describe the file as it was read and would name wrong lines after the first edit.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mf/core/error.hpp"
#include "mf/core/expected.hpp"
#include "mf/editor/core/file_changes.hpp"
#include "mf/editor/core/rig_model.hpp"
#include "mf/offline/format/clip_model.hpp"
#include "mf/offline/format/skeleton_model.hpp"

namespace mf::editor {

// A clip of the document.
struct DocumentClip {
  FileId file = kRigFile;
  std::string name;  // the clip's name: its path in the clips folder without ".manim"
  std::string path;  // the .manim file it is read from and saved to
  offline::ClipSource clip;
};

// A .manim file of the clips folder that did not read (a syntax error, a name the skeleton lacks):
// listed so the application can show why, never written, and not updated by renames.
struct UnreadClip {
  std::string name;
  std::string path;
  Error error;
};

class Document {
 public:
  // Reads the .mskel, lists and reads its clips (validated against the skeleton; a clip that fails
  // becomes an UnreadClip) and finds the graphs beside it. Errors name the file and the place.
  static Expected<Document> open(const std::string& mskel_path);

  // An unsaved rig with a fresh UID and one root bone. It has no path until save_as.
  static Document new_rig(std::string_view root_bone = "root");

  // ---- reading ----
  const std::string& path() const { return path_; }  // the .mskel; empty for a new rig never saved
  const offline::SkeletonSource& skeleton() const { return skeleton_; }
  const std::vector<DocumentClip>& clips() const { return clips_; }
  const DocumentClip* find_clip(std::string_view name) const;
  const std::vector<UnreadClip>& unread_clips() const { return unread_clips_; }
  // .mgraph files in the rig's folder and below whose skeleton path is this rig, sorted.
  const std::vector<std::string>& graph_paths() const { return graph_paths_; }
  // The folder the rig's images are in (import.images relative to the .mskel's folder).
  std::string images_folder() const;

  // Counts every change of content: commands, undo and redo. Views cache what they derive from the
  // document and rebuild it when the number moves.
  std::uint64_t revision() const { return revision_; }

  bool dirty() const;  // any file
  bool dirty(FileId file) const;
  std::vector<FileId> dirty_files() const;
  // The path a file is saved to (the .mskel or the clip's .manim).
  std::string file_path(FileId file) const;

  // The canonical bytes each file would be saved as.
  std::string skeleton_text() const;
  std::string clip_text(std::size_t clip) const;

  // ---- saving ----
  // Writes every dirty file; a new rig needs save_as first. After a failure the files written
  // before it are clean and the rest stay dirty.
  Status save();
  // Writes every file, dirty or not.
  Status save_all();
  // Saves the rig as `mskel_path`, its clips in that file's clips folder, and makes that the
  // document's path. The graphs keep naming the old file.
  Status save_as(const std::string& mskel_path);

  // ---- changing: for commands and History ----
  // The model to change. While a change is open (begin_change) the file is recorded as edited.
  offline::SkeletonSource& edit_skeleton();
  offline::ClipSource& edit_clip(std::size_t clip);
  // A copy of the rig as plain data, with the clips or without them.
  RigModel model(bool with_clips) const;

  // Opens a change: files edited until end_change are recorded.
  void begin_change();
  // Closes it: gives each edited file a fresh state, counts a revision when anything was edited,
  // and returns what changed.
  FileChanges end_change();
  // Puts the files' states from before (after = false) or after the change back: for undo and redo.
  void restore_files(const FileChanges& changes, bool after);

 private:
  struct FileState {
    std::uint64_t current = 0;
    std::uint64_t saved = 0;
  };
  static constexpr std::uint64_t kNeverSaved = ~std::uint64_t{0};

  FileState& state(FileId file);
  const FileState& state(FileId file) const;
  void touch(FileId file);
  Status save_file(FileId file);

  std::string path_;
  offline::SkeletonSource skeleton_;
  std::vector<DocumentClip> clips_;
  std::vector<UnreadClip> unread_clips_;
  std::vector<std::string> graph_paths_;
  std::vector<FileState> files_;  // indexed by FileId
  std::uint64_t next_state_ = 1;
  std::uint64_t revision_ = 0;
  bool change_open_ = false;
  std::vector<FileId> touched_;
};

}  // namespace mf::editor
