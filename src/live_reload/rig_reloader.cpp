#include "mf/live_reload/rig_reloader.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <utility>

namespace mf::live_reload {

const char* to_string(ReloadOutcome outcome) {
  switch (outcome) {
    case ReloadOutcome::Unchanged: return "unchanged";
    case ReloadOutcome::Deferred: return "deferred";
    case ReloadOutcome::Reloaded: return "reloaded";
    case ReloadOutcome::Failed: return "failed";
  }
  return "?";
}

Expected<RigReloader> RigReloader::open(const std::string& mskel_path, RigReloaderOptions options) {
  RigReloader r;
  r.mskel_ = mskel_path;
  r.options_ = std::move(options);
  Expected<RigGeneration> first = build_rig_generation(mskel_path, r.graph_for_build(), r.options_.load, 1);
  if (!first) return Unexpected{first.error()};
  r.current_ = std::make_shared<const RigGeneration>(std::move(first).value());
  Expected<RigDependencies> deps =
      rig_dependencies(mskel_path, r.current_->graph_path, r.options_.graph.empty() && r.options_.find_graph);
  if (!deps) return Unexpected{deps.error()};
  r.dependencies_ = std::move(deps).value();
  if (r.options_.own_watcher) {
    Expected<FileWatcher> watcher = FileWatcher::create(r.options_.watcher);
    if (!watcher) return Unexpected{watcher.error()};
    r.watcher_.emplace(std::move(watcher).value());
    std::vector<Error> errors;
    if (Status s = r.watch(errors); !s) return Unexpected{s.error()};
  }
  return r;
}

// The graph a build uses: the host's, else the one found beside the rig, kept while its file exists
// (so a graph broken by an edit is reported as broken rather than passed over).
std::string RigReloader::graph_for_build() const {
  if (!options_.graph.empty()) return options_.graph;
  if (!options_.find_graph) return {};
  if (current_ && !current_->graph_path.empty()) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(current_->graph_path, ec)) return current_->graph_path;
  }
  return find_graph_beside(mskel_);
}

// Watches what the dependencies need and stops watching what they no longer do. The first error is
// returned; all of them are appended to `errors`.
Status RigReloader::watch(std::vector<Error>& errors) {
  const std::vector<std::string> folders = dependencies_.watch_folders();
  const std::vector<std::string> files = dependencies_.watch_files();
  for (const std::string& old : watcher_->watched())
    if (std::find(folders.begin(), folders.end(), old) == folders.end() && std::find(files.begin(), files.end(), old) == files.end())
      watcher_->unwatch(old);
  const std::size_t before = errors.size();
  for (const std::string& f : folders)
    if (Status s = watcher_->watch_folder(f, true); !s) errors.push_back(s.error());
  for (const std::string& f : files)
    if (Status s = watcher_->watch_file(f); !s) errors.push_back(s.error());
  if (errors.size() > before) return Unexpected{errors[before]};
  return {};
}

bool RigReloader::notice(const FileChanges& changes) {
  bool any = false;
  for (const FileChange& c : changes.changes) {
    if (!dependencies_.affects(c)) continue;
    changed_.insert(c.path);
    any = true;
  }
  pending_ = pending_ || any;
  return any;
}

void RigReloader::request_reload() { pending_ = true; }

ReloadReport RigReloader::apply_pending() { return apply(false); }

ReloadReport RigReloader::apply_pending(const scene::SceneTree& tree) { return apply(tree.in_tick()); }

ReloadReport RigReloader::apply(bool in_tick) {
  ReloadReport report;
  if (watcher_) {
    FileChanges changes = watcher_->poll();
    report.watch_errors = std::move(changes.errors);
    notice(changes);
  }
  report.generation = current_->generation;
  if (!pending_) return report;
  report.changed.assign(changed_.begin(), changed_.end());
  if (in_tick) {
    report.outcome = ReloadOutcome::Deferred;
    return report;
  }
  pending_ = false;
  changed_.clear();

  const std::string graph = graph_for_build();
  Expected<RigGeneration> next = build_rig_generation(mskel_, graph, options_.load, current_->generation + 1);
  if (next) {
    report.outcome = ReloadOutcome::Reloaded;
    report.warnings = next->warnings;
    current_ = std::make_shared<const RigGeneration>(std::move(next).value());
    report.generation = current_->generation;
    last_error_.reset();
  } else {
    report.outcome = ReloadOutcome::Failed;
    report.error = next.error();
    last_error_ = next.error();
  }

  // The .mskel may name other clips or images folders, and the graph may be another: what is watched
  // follows, even when the build failed (the fix may come in a folder watched only from now on).
  Expected<RigDependencies> deps = rig_dependencies(mskel_, report.outcome == ReloadOutcome::Reloaded ? current_->graph_path : graph,
                                                    options_.graph.empty() && options_.find_graph);
  if (deps && !(*deps == dependencies_)) {
    dependencies_ = std::move(deps).value();
    if (watcher_) (void)watch(report.watch_errors);
  }
  return report;
}

}  // namespace mf::live_reload
