#pragma once
// RigReloader: keeps a rig's runtime data in step with its source files while a game or tool runs
// (development only: shipped games load cooked builds and never link mf_live_reload).
//
// It knows the rig's dependency files (rig_dependencies.hpp) and watches them with a FileWatcher of
// its own, or is handed changes by a host that polls one watcher for many rigs (notice()). A change
// only marks the rig pending; the rebuild happens when the host calls apply_pending() between ticks,
// so data never changes in the middle of a frame. Called while a SceneTree is ticking, it defers.
//
// A rebuild goes through the offline build (the bake cache included, with the options given) and
// compiles every clip and the graph. When it fails the current generation stays, and the report
// carries the error with its file, JSON path and position ("walk.manim:12:9: keys[3].time: …"); the
// next change to a dependency tries again. When it succeeds the generation number goes up and
// current() hands out the new RigGeneration; players move onto it with LiveSkeleton (or
// carry_playback), and the old data lives as long as someone holds it.
//
// Single-threaded like the scene: one thread polls, rebuilds and reads.

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/live_reload/file_watcher.hpp"
#include "mf/live_reload/rig_dependencies.hpp"
#include "mf/live_reload/rig_generation.hpp"
#include "mf/offline/build/skeleton_loader.hpp"
#include "mf/scene/scene_tree.hpp"

namespace mf::live_reload {

struct RigReloaderOptions {
  // How builds load: the bake cache folder ("off" disables it; unset: the environment's).
  offline::LoadOptions load;
  // The .mgraph built with the rig. Empty: the .mgraph beside the rig whose skeleton path names it
  // (find_graph_beside), looked for again at each reload while there is none or it was deleted.
  std::string graph;
  // With `graph` empty: false builds no graph.
  bool find_graph = true;
  // The watcher's settle delay: a save that writes several files reloads once.
  FileWatcherOptions watcher;
  // False: no watcher of its own; the host hands changes to notice().
  bool own_watcher = true;
};

enum class ReloadOutcome : std::uint8_t {
  Unchanged,  // nothing the rig depends on changed
  Deferred,   // a change waits: apply_pending() was called during a tick
  Reloaded,   // a new generation is current
  Failed,     // the rebuild failed; the generation before stays current
};
const char* to_string(ReloadOutcome outcome);  // "unchanged", "deferred", "reloaded", "failed"

struct ReloadReport {
  ReloadOutcome outcome = ReloadOutcome::Unchanged;
  std::uint64_t generation = 0;      // current after the call
  std::vector<std::string> changed;  // the dependency paths that changed (Deferred, Reloaded, Failed)
  std::optional<Error> error;        // Failed: why, with file and position where known
  std::vector<Error> warnings;       // Reloaded: the build's warnings
  std::vector<Error> watch_errors;   // the watcher's problems (limits reached, lost events)
};

class RigReloader {
 public:
  // Builds generation 1 and starts watching. The first build must succeed: its error is returned.
  static Expected<RigReloader> open(const std::string& mskel_path, RigReloaderOptions options = {});

  RigReloader(RigReloader&&) noexcept = default;
  RigReloader& operator=(RigReloader&&) noexcept = default;

  // Changes from a watcher the host polls itself: those that concern the rig mark it pending.
  // Returns whether any did.
  bool notice(const FileChanges& changes);
  // Marks the rig pending without a change (an editor's "reload now").
  void request_reload();
  // Whether a rebuild waits for apply_pending().
  bool pending() const { return pending_; }

  // Polls the watcher (when it has its own) and, when a dependency changed, rebuilds. Call it between
  // ticks; never blocks on the watcher (the rebuild itself takes as long as the build).
  ReloadReport apply_pending();
  // The same, deferred while `tree` is in a tick (SceneTree::in_tick()): the change stays pending.
  ReloadReport apply_pending(const scene::SceneTree& tree);

  const std::shared_ptr<const RigGeneration>& current() const { return current_; }
  std::uint64_t generation() const { return current_->generation; }
  const std::shared_ptr<const skel::SkeletonData>& data() const { return current_->data; }

  const std::string& mskel_path() const { return mskel_; }
  const RigDependencies& dependencies() const { return dependencies_; }
  // The error of the last failed rebuild; cleared by a successful one.
  const std::optional<Error>& last_error() const { return last_error_; }
  // The watcher of its own (null with own_watcher false).
  FileWatcher* watcher() { return watcher_ ? &*watcher_ : nullptr; }

 private:
  RigReloader() = default;

  ReloadReport apply(bool in_tick);
  std::string graph_for_build() const;
  Status watch(std::vector<Error>& errors);

  std::string mskel_;
  RigReloaderOptions options_;
  std::optional<FileWatcher> watcher_;
  RigDependencies dependencies_;
  std::shared_ptr<const RigGeneration> current_;
  std::optional<Error> last_error_;
  std::set<std::string> changed_;
  bool pending_ = false;
};

}  // namespace mf::live_reload
