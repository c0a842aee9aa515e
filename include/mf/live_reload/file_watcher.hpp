#pragma once
// FileWatcher: which files changed on disk, for live reload and the editor (Linux, inotify).
//
// No thread: the inotify descriptor is non-blocking and poll() reads what the kernel queued since the
// last call, from the thread that owns the watcher (the game's or the editor's main thread). Nothing
// runs between polls, so there is nothing to shut down; the destructor closes the descriptor.
//
// What is watched is always a directory, never a file's inode: an editor that saves by writing a new
// file and renaming it over the old one replaces the inode, and a watch on the old inode would see
// nothing more. watch_file() watches the file's folder and reports only that name; watch_folder()
// reports every entry, and with `recursive` the sub-folders too (sub-folders created or moved in later
// are watched as they appear, and their files reported, since they may have been written before the
// watch was in place).
//
// Reported: writes (modify, close after writing, attribute changes such as `touch`), creation, moves
// in and out, deletion. Changes are coalesced: a path is reported once per burst, and a burst is
// reported when no new change has been seen for `settle` (or, for a burst that never settles, once its
// first change is `max_delay` old). The watcher learns of a change when poll() reads it, so the times
// have the resolution of the polling (a game polls once a frame).
//
// Paths are reported absolute and lexically normal (not resolved through symbolic links), as the
// watched path was given, so callers compare them with paths normalised the same way
// (normal_path()).
//
// Lost events: when the kernel's queue overflows, every watched path is reported (files, and
// folders as folders: "anything in it may have changed") with an error saying so. A watched folder
// (or a watched file's folder) that is deleted or moved away is reported and watched again as soon as
// it exists again.

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "mf/core/expected.hpp"

namespace mf::live_reload {

using WatchClock = std::chrono::steady_clock;

struct FileWatcherOptions {
  // Quiet time after the last change before a burst is reported.
  std::chrono::milliseconds settle{50};
  // A burst that keeps going is reported anyway once its first change is this old.
  std::chrono::milliseconds max_delay{1000};
};

struct FileChange {
  std::string path;     // absolute, lexically normal
  bool folder = false;  // a folder created, deleted or moved: anything in it may have changed
};

struct FileChanges {
  std::vector<FileChange> changes;  // sorted by path, each path once
  // Problems met while watching, each naming its path: a new sub-folder that could not be watched
  // (the inotify watch limit), lost events.
  std::vector<Error> errors;

  bool empty() const { return changes.empty() && errors.empty(); }
};

// `path` made absolute and lexically normal, as the watcher reports paths.
std::string normal_path(const std::string& path);

class FileWatcher {
 public:
  // An inotify instance. The error names the per-user instance limit when that is what failed.
  static Expected<FileWatcher> create(const FileWatcherOptions& options = {});

  FileWatcher(FileWatcher&& other) noexcept;
  FileWatcher& operator=(FileWatcher&& other) noexcept;
  FileWatcher(const FileWatcher&) = delete;
  FileWatcher& operator=(const FileWatcher&) = delete;
  ~FileWatcher();

  // Watches one file (through its folder). The file must exist; the error names the path (missing,
  // not a file, the inotify watch limit reached, no permission).
  Status watch_file(const std::string& path);
  // Watches a folder's entries, and with `recursive` every sub-folder's. The folder must exist. A
  // recursive watch needs one inotify watch per folder: the error names the folder that reached the
  // limit, and nothing of this call stays watched.
  Status watch_folder(const std::string& path, bool recursive = true);
  // Stops watching what watch_file / watch_folder named with this path (no effect when nothing was).
  void unwatch(const std::string& path);
  // The paths watched (normalised), for tools and messages.
  std::vector<std::string> watched() const;

  // The changes of the bursts that settled since the last poll, and the errors met. Never blocks.
  FileChanges poll() { return poll(WatchClock::now()); }
  // The same at a given time (tests use it to step the settle delay without sleeping); times must not
  // go backwards.
  FileChanges poll(WatchClock::time_point now);

  const FileWatcherOptions& options() const { return options_; }

 private:
  enum class Kind : std::uint8_t { File, Folder };
  // One watch_file / watch_folder call.
  struct Request {
    std::string path;  // the file, or the folder
    Kind kind = Kind::File;
    bool recursive = false;
    bool lost = false;        // its folder is gone: watched again once it exists
    std::string last_error;   // the last re-watch error reported, so it is reported once
  };
  // Why a folder is watched: a request, and for a file request the file's name.
  struct Owner {
    std::uint32_t request = 0;
    Kind kind = Kind::File;
    bool recursive = false;
    std::string name;  // File: the name reported
  };
  struct Watch {
    std::string path;  // the folder
    std::vector<Owner> owners;
  };

  explicit FileWatcher(int fd, const FileWatcherOptions& options);
  void close_fd();

  Status add_watch(const std::string& folder, const Owner& owner);
  Status add_tree(const std::string& folder, const Owner& owner, std::vector<std::string>* found,
                  std::vector<Error>* errors);
  void remove_watch(int wd);
  void remove_tree(const std::string& folder);
  void drop_request(std::uint32_t id);
  Status arm(std::uint32_t id, std::vector<std::string>* found, std::vector<Error>* errors);
  void read_events(std::vector<Error>& errors);
  void handle_event(int wd, std::uint32_t mask, const std::string& name, std::vector<Error>& errors);
  void report_everything(std::vector<Error>& errors);
  void rearm_lost(std::vector<Error>& errors);
  void note(const std::string& path, bool folder);

  int fd_ = -1;
  FileWatcherOptions options_;
  std::uint32_t next_request_ = 1;
  std::map<std::uint32_t, Request> requests_;
  std::unordered_map<int, Watch> watches_;
  std::unordered_map<std::string, int> wd_by_path_;

  // The burst being gathered: path → folder.
  std::map<std::string, bool> pending_;
  std::vector<Error> pending_errors_;
  WatchClock::time_point first_change_{}, last_change_{};
  bool noted_ = false;  // note() was called during the current poll
};

}  // namespace mf::live_reload
