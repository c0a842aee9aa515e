#pragma once
// SceneReloader: live reload for a scene. It opens the rigs a scene's skeleton nodes show, watches all
// their source files with one FileWatcher, and between ticks rebuilds the rigs that changed and moves
// every skeleton node (Skeleton2D, SkeletonSprite3D: any scene::SkeletonNode) that shows a rig's old
// build onto the new one, keeping its playback: track entries, clip times, queued entries, graph
// parameters and states, by name (carry_playback, carry_graph), with its skins and clip applied again.
//
//   auto reloads = live_reload::SceneReloader::create(tree);  // one inotify instance
//   auto hero = reloads->open("art/hero/hero.mskel");         // generation 1
//   node->set_data((*hero)->data); node->set_graph((*hero)->graph);
//   every frame, between ticks:
//     for (const RigReload& r : reloads->apply_pending().rigs) if (r.error) show(r.error->to_string());
//     tree.advance(dt);
//
// A node shows a rig when its data is one of the rig's builds (any older generation too, so a node
// bound late to an old build still follows). Its graph moves with it when it is the build's graph;
// a graph from elsewhere stays and is bound to the new data. A broken file keeps every node on the
// old build and reports the error with its file and position; the next change tries again. A node
// whose skins, clip or graph the new build lacks keeps the old build, with an error naming the node.
// Called during a tick, apply_pending() does nothing (Deferred) and the changes wait.
//
// Development only, single-threaded like the scene.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/live_reload/file_watcher.hpp"
#include "mf/live_reload/playback_carry.hpp"
#include "mf/live_reload/rig_generation.hpp"
#include "mf/live_reload/rig_reloader.hpp"
#include "mf/scene/node.hpp"
#include "mf/scene/scene_tree.hpp"

namespace mf::live_reload {

// What one reload did to one node.
struct NodeMove {
  std::string node;     // its path
  CarryReport carried;  // entries, parameters and states that did not survive (by name)
};

// One rig's part of an apply_pending().
struct RigReload {
  std::string mskel;
  ReloadOutcome outcome = ReloadOutcome::Unchanged;
  std::uint64_t generation = 0;      // current after the call
  std::vector<std::string> changed;  // the dependency files that changed
  std::optional<Error> error;        // Failed: the build's error, with file and position
  std::vector<Error> warnings;
  std::vector<NodeMove> moved;       // Reloaded: the nodes now on the new build
  std::vector<Error> node_errors;    // Reloaded: nodes that stayed on the old build, and why
};

struct SceneReloadReport {
  bool deferred = false;          // called during a tick: nothing done
  std::vector<RigReload> rigs;    // the rigs that changed (or had pending changes)
  std::vector<Error> watch_errors;
};

// The data and graph of one build nodes may still show.
struct BuildRef {
  const skel::SkeletonData* data = nullptr;
  const anim::AnimationGraph* graph = nullptr;  // null without a graph
};

// Moves every SkeletonNode under `root` (root included) whose data is one of `from`'s onto `to`,
// keeping playback (see SceneReloader); a node playing one of `from`'s graphs takes `to`'s graph.
void move_nodes(scene::Node& root, const std::vector<BuildRef>& from, const RigGeneration& to, RigReload& report);

class SceneReloader {
 public:
  // The error is the watcher's (the inotify instance limit).
  static Expected<SceneReloader> create(scene::SceneTree& tree, FileWatcherOptions watcher = {});
  SceneReloader(SceneReloader&&) noexcept = default;
  SceneReloader& operator=(SceneReloader&&) noexcept = default;

  // Opens a rig (its first build must succeed) and watches its files; a rig already open is returned
  // as it is. `options.own_watcher` is ignored: the reloader's one watcher serves every rig.
  Expected<std::shared_ptr<const RigGeneration>> open(const std::string& mskel_path, RigReloaderOptions options = {});
  // The current build of an open rig; null when it is not open.
  std::shared_ptr<const RigGeneration> current(const std::string& mskel_path) const;

  // Between ticks: reads the watcher, rebuilds the rigs whose files changed and moves their nodes.
  SceneReloadReport apply_pending();
  // Marks a rig for a rebuild at the next apply_pending() without a change on disk.
  Status request_reload(const std::string& mskel_path);

  FileWatcher& watcher() { return watcher_; }

 private:
  SceneReloader(scene::SceneTree& tree, FileWatcher watcher) : tree_(&tree), watcher_(std::move(watcher)) {}

  struct Rig {
    RigReloader reloader;
    // The builds this rig made that nodes may still show (weakly held: a build no node shows is gone).
    struct Build {
      std::weak_ptr<const skel::SkeletonData> data;
      std::weak_ptr<const anim::AnimationGraph> graph;
    };
    std::vector<Build> builds;
  };
  // Watches what the open rigs depend on now, and stops watching what none does.
  std::vector<Error> update_watches();
  Rig* find(const std::string& mskel_path);
  const Rig* find(const std::string& mskel_path) const;

  scene::SceneTree* tree_;
  FileWatcher watcher_;
  std::map<std::string, std::unique_ptr<Rig>> rigs_;  // by normal path
};

}  // namespace mf::live_reload
