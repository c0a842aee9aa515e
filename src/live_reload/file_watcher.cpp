#include "mf/live_reload/file_watcher.hpp"

#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

namespace mf::live_reload {
namespace {

namespace fs = std::filesystem;

// Every watch is on a folder, with the same mask (so a second watch of a folder needs no IN_MASK_ADD).
// IN_EXCL_UNLINK: files already unlinked but still open report nothing more.
constexpr std::uint32_t kFolderMask = IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM |
                                      IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_EXCL_UNLINK;

// What a failed inotify_add_watch means, for a message naming the folder.
std::string watch_error(int error) {
  switch (error) {
    case ENOENT: return "no such folder";
    case ENOTDIR: return "not a folder";
    case EACCES: return "no permission to read it";
    case ENOSPC:
      return "the inotify watch limit is reached (fs.inotify.max_user_watches; raise it with sysctl, or watch fewer "
             "folders)";
    case ENOMEM: return "out of kernel memory for inotify watches";
    default: return std::strerror(error);
  }
}

Error error_at(const std::string& path, std::string message) { return Error{path, {}, {}, std::move(message)}; }

std::string parent_of(const std::string& path) {
  const std::string parent = fs::path(path).parent_path().generic_string();
  return parent.empty() ? "/" : parent;
}

std::string name_of(const std::string& path) { return fs::path(path).filename().generic_string(); }

bool is_under(const std::string& path, const std::string& folder) {
  if (path == folder) return true;
  if (folder == "/") return !path.empty() && path.front() == '/';
  return path.size() > folder.size() && path.compare(0, folder.size(), folder) == 0 && path[folder.size()] == '/';
}

std::string join(const std::string& folder, const std::string& name) {
  return folder == "/" ? "/" + name : folder + "/" + name;
}

}  // namespace

std::string normal_path(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(fs::path(path), ec);
  if (ec) p = fs::path(path);
  std::string s = p.lexically_normal().generic_string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

Expected<FileWatcher> FileWatcher::create(const FileWatcherOptions& options) {
  const int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    std::string why = error == EMFILE ? "the per-user limit of inotify instances is reached "
                                        "(fs.inotify.max_user_instances; raise it with sysctl)"
                                      : std::strerror(error);
    return Unexpected{Error{{}, {}, {}, "cannot start watching files: " + why}};
  }
  return FileWatcher(fd, options);
}

FileWatcher::FileWatcher(int fd, const FileWatcherOptions& options) : fd_(fd), options_(options) {}

FileWatcher::FileWatcher(FileWatcher&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      options_(other.options_),
      next_request_(other.next_request_),
      requests_(std::move(other.requests_)),
      watches_(std::move(other.watches_)),
      wd_by_path_(std::move(other.wd_by_path_)),
      pending_(std::move(other.pending_)),
      pending_errors_(std::move(other.pending_errors_)),
      first_change_(other.first_change_),
      last_change_(other.last_change_) {}

FileWatcher& FileWatcher::operator=(FileWatcher&& other) noexcept {
  if (this != &other) {
    close_fd();
    fd_ = std::exchange(other.fd_, -1);
    options_ = other.options_;
    next_request_ = other.next_request_;
    requests_ = std::move(other.requests_);
    watches_ = std::move(other.watches_);
    wd_by_path_ = std::move(other.wd_by_path_);
    pending_ = std::move(other.pending_);
    pending_errors_ = std::move(other.pending_errors_);
    first_change_ = other.first_change_;
    last_change_ = other.last_change_;
  }
  return *this;
}

FileWatcher::~FileWatcher() { close_fd(); }

void FileWatcher::close_fd() {
  if (fd_ >= 0) ::close(fd_);  // closing the instance removes every watch
  fd_ = -1;
}

// ---- watches -----------------------------------------------------------------------------------------

Status FileWatcher::add_watch(const std::string& folder, const Owner& owner) {
  const int wd = inotify_add_watch(fd_, folder.c_str(), kFolderMask);
  if (wd < 0) return Unexpected{error_at(folder, "cannot watch: " + watch_error(errno))};
  Watch& w = watches_[wd];
  if (w.path != folder) {
    // The same folder under another path (moved, or reached through a link): the latest path names it.
    if (!w.path.empty()) {
      const auto old = wd_by_path_.find(w.path);
      if (old != wd_by_path_.end() && old->second == wd) wd_by_path_.erase(old);
    }
    w.path = folder;
  }
  wd_by_path_[folder] = wd;
  const bool known = std::any_of(w.owners.begin(), w.owners.end(), [&](const Owner& o) {
    return o.request == owner.request && o.kind == owner.kind && o.name == owner.name;
  });
  if (!known) w.owners.push_back(owner);
  return {};
}

Status FileWatcher::add_tree(const std::string& folder, const Owner& owner, std::vector<std::string>* found,
                             std::vector<Error>* errors) {
  if (Status s = add_watch(folder, owner); !s) return s;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string path = join(folder, it->path().filename().generic_string());
    std::error_code type_ec;
    if (it->is_symlink(type_ec) || !it->is_directory(type_ec)) {
      if (found) found->push_back(path);
      continue;
    }
    if (!owner.recursive) continue;
    if (Status s = add_tree(path, owner, found, errors); !s) {
      if (!errors) return s;
      errors->push_back(s.error());  // a folder that appeared: the others are still watched
    }
  }
  return {};
}

void FileWatcher::remove_watch(int wd) {
  const auto it = watches_.find(wd);
  if (it == watches_.end()) return;
  inotify_rm_watch(fd_, wd);  // fails harmlessly when the kernel already dropped it
  const auto by_path = wd_by_path_.find(it->second.path);
  if (by_path != wd_by_path_.end() && by_path->second == wd) wd_by_path_.erase(by_path);
  watches_.erase(it);
}

// The watches of a folder and of everything below it are gone (deleted, moved away or unmounted):
// the requests rooted there are reported and wait to be watched again; the watches are removed (a
// moved folder's watch would otherwise follow it and report under the old path).
void FileWatcher::remove_tree(const std::string& folder) {
  std::vector<int> gone;
  for (const auto& [wd, w] : watches_) {
    if (!is_under(w.path, folder)) continue;
    gone.push_back(wd);
    for (const Owner& o : w.owners) {
      const auto r = requests_.find(o.request);
      if (r == requests_.end()) continue;
      const bool rooted = o.kind == Kind::File ? parent_of(r->second.path) == w.path : r->second.path == w.path;
      if (!rooted || r->second.lost) continue;
      r->second.lost = true;
      note(r->second.path, r->second.kind == Kind::Folder);
    }
  }
  for (int wd : gone) remove_watch(wd);
}

Status FileWatcher::arm(std::uint32_t id, std::vector<std::string>* found, std::vector<Error>* errors) {
  const Request& r = requests_.at(id);
  if (r.kind == Kind::File) return add_watch(parent_of(r.path), Owner{id, Kind::File, false, name_of(r.path)});
  return add_tree(r.path, Owner{id, Kind::Folder, r.recursive, {}}, found, errors);
}

Status FileWatcher::watch_file(const std::string& path) {
  const std::string p = normal_path(path);
  std::error_code ec;
  const fs::file_status status = fs::status(p, ec);
  if (!fs::exists(status)) return Unexpected{error_at(path, "cannot watch: no such file")};
  if (fs::is_directory(status)) return Unexpected{error_at(path, "cannot watch: a folder, not a file (watch it as a folder)")};
  for (const auto& [id, r] : requests_)
    if (r.path == p && r.kind == Kind::File) return {};
  const std::uint32_t id = next_request_++;
  requests_[id] = Request{p, Kind::File, false, false, {}};
  if (Status s = arm(id, nullptr, nullptr); !s) {
    drop_request(id);
    return Unexpected{error_at(path, "cannot watch its folder " + s.error().file + ": " + s.error().message)};
  }
  return {};
}

Status FileWatcher::watch_folder(const std::string& path, bool recursive) {
  const std::string p = normal_path(path);
  std::error_code ec;
  const fs::file_status status = fs::status(p, ec);
  if (!fs::exists(status)) return Unexpected{error_at(path, "cannot watch: no such folder")};
  if (!fs::is_directory(status)) return Unexpected{error_at(path, "cannot watch: a file, not a folder (watch it as a file)")};
  for (const auto& [id, r] : requests_)
    if (r.path == p && r.kind == Kind::Folder && r.recursive == recursive) return {};
  const std::uint32_t id = next_request_++;
  requests_[id] = Request{p, Kind::Folder, recursive, false, {}};
  if (Status s = arm(id, nullptr, nullptr); !s) {
    drop_request(id);  // all or nothing: the folders watched before the failure are released
    return s;
  }
  return {};
}

void FileWatcher::drop_request(std::uint32_t id) {
  std::vector<int> unused;
  for (auto& [wd, w] : watches_) {
    std::erase_if(w.owners, [&](const Owner& o) { return o.request == id; });
    if (w.owners.empty()) unused.push_back(wd);
  }
  for (int wd : unused) remove_watch(wd);
  requests_.erase(id);
}

void FileWatcher::unwatch(const std::string& path) {
  const std::string p = normal_path(path);
  std::vector<std::uint32_t> ids;
  for (const auto& [id, r] : requests_)
    if (r.path == p) ids.push_back(id);
  for (std::uint32_t id : ids) drop_request(id);
}

std::vector<std::string> FileWatcher::watched() const {
  std::vector<std::string> out;
  for (const auto& [id, r] : requests_) out.push_back(r.path);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// ---- events ------------------------------------------------------------------------------------------

void FileWatcher::note(const std::string& path, bool folder) {
  auto [it, inserted] = pending_.emplace(path, folder);
  if (!inserted) it->second = it->second || folder;
  noted_ = true;
}

void FileWatcher::report_everything(std::vector<Error>& errors) {
  for (const auto& [id, r] : requests_) note(r.path, r.kind == Kind::Folder);
  errors.push_back(Error{{}, {}, {},
                         "file events were lost (the inotify queue overflowed; fs.inotify.max_queued_events): every "
                         "watched path is reported as changed"});
}

void FileWatcher::handle_event(int wd, std::uint32_t mask, const std::string& name, std::vector<Error>& errors) {
  if (mask & IN_Q_OVERFLOW) {
    report_everything(errors);
    return;
  }
  const auto it = watches_.find(wd);
  if (it == watches_.end()) return;  // a watch removed meanwhile (its IN_IGNORED, or events queued before)
  if (mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT)) {
    remove_tree(std::string(it->second.path));
    return;
  }
  if (name.empty()) return;  // the folder's own attributes
  const bool folder = (mask & IN_ISDIR) != 0;
  if (folder && !(mask & (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO))) return;

  const Watch& w = it->second;
  const std::string path = join(w.path, name);
  bool relevant = false;
  std::vector<Owner> recursive;
  for (const Owner& o : w.owners) {
    if (o.kind == Kind::Folder) relevant = true;
    else if (o.name == name) relevant = true;
    if (o.kind == Kind::Folder && o.recursive) recursive.push_back(o);
  }
  if (relevant) note(path, folder);
  if (!folder || recursive.empty()) return;

  if (mask & IN_MOVED_FROM) {
    // Removed now, before a move inside the tree watches it again at its new path (the kernel would
    // hand back the same watch, still named by the old path).
    remove_tree(path);
  } else if (mask & (IN_CREATE | IN_MOVED_TO)) {
    // A folder that appeared: watched from now on; what it already holds is reported, since it may
    // have been written before the watch was in place.
    std::vector<std::string> found;
    for (const Owner& o : recursive) {
      Status s = add_tree(path, o, &found, &errors);
      std::error_code ec;
      // A folder already gone again is no error: its own deletion or move is reported.
      if (!s && fs::is_directory(path, ec)) errors.push_back(s.error());
    }
    for (const std::string& f : found) note(f, false);
  }
}

void FileWatcher::read_events(std::vector<Error>& errors) {
  alignas(inotify_event) char buffer[16 * 1024];
  for (;;) {
    const ssize_t n = ::read(fd_, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK)
        errors.push_back(Error{{}, {}, {}, std::string("cannot read file events: ") + std::strerror(errno)});
      return;
    }
    if (n == 0) return;
    for (ssize_t at = 0; at + static_cast<ssize_t>(sizeof(inotify_event)) <= n;) {
      inotify_event event;
      std::memcpy(&event, buffer + at, sizeof event);
      const char* name = buffer + at + sizeof(inotify_event);
      const std::string entry = event.len > 0 ? std::string(name, strnlen(name, event.len)) : std::string();
      handle_event(event.wd, event.mask, entry, errors);
      at += static_cast<ssize_t>(sizeof(inotify_event) + event.len);
    }
  }
}

void FileWatcher::rearm_lost(std::vector<Error>& errors) {
  for (auto& [id, r] : requests_) {
    if (!r.lost) continue;
    const std::string folder = r.kind == Kind::File ? parent_of(r.path) : r.path;
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) continue;  // not back yet
    std::vector<std::string> found;
    Status s = arm(id, &found, &errors);
    if (!s) {
      if (s.error().message != r.last_error) errors.push_back(s.error());
      r.last_error = s.error().message;
      continue;
    }
    r.lost = false;
    r.last_error.clear();
    note(r.path, r.kind == Kind::Folder);
    for (const std::string& f : found) note(f, false);
  }
}

FileChanges FileWatcher::poll(WatchClock::time_point now) {
  const bool was_empty = pending_.empty();
  noted_ = false;
  std::vector<Error> errors;
  if (fd_ >= 0) {
    read_events(errors);
    rearm_lost(errors);  // after the events: a folder deleted and made again is watched at once
  }
  if (noted_) {
    if (was_empty) first_change_ = now;
    last_change_ = now;
  }
  pending_errors_.insert(pending_errors_.end(), errors.begin(), errors.end());

  FileChanges out;
  const bool settled = now - last_change_ >= options_.settle || now - first_change_ >= options_.max_delay;
  if (!pending_.empty() && !settled) return out;
  out.changes.reserve(pending_.size());
  for (const auto& [path, folder] : pending_) out.changes.push_back({path, folder});
  out.errors = std::move(pending_errors_);
  pending_.clear();
  pending_errors_.clear();
  return out;
}

}  // namespace mf::live_reload
