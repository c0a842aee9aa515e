#include "mf/live_reload/scene_reloader.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "mf/scene/skeleton/skeleton_node.hpp"

namespace mf::live_reload {
namespace {

void collect_nodes(scene::Node& node, const std::vector<BuildRef>& from, std::vector<scene::SkeletonNode*>& out) {
  if (auto* s = dynamic_cast<scene::SkeletonNode*>(&node)) {
    const skel::SkeletonData* data = s->playback().data().get();
    if (data && std::any_of(from.begin(), from.end(), [&](const BuildRef& b) { return b.data == data; })) out.push_back(s);
  }
  for (std::size_t i = 0; i < node.child_count(); ++i) collect_nodes(*node.child(i), from, out);
}

}  // namespace

void move_nodes(scene::Node& root, const std::vector<BuildRef>& from, const RigGeneration& to, RigReload& report) {
  // Collected first: moving a node changes nothing in the tree's shape, but the walk stays simple.
  std::vector<scene::SkeletonNode*> nodes;
  collect_nodes(root, from, nodes);
  for (scene::SkeletonNode* node : nodes) {
    scene::SkeletonPlayback& playback = node->playback();
    // The build's graph moves with the build; a graph from elsewhere stays (bound to the new data).
    const anim::AnimationGraph* graph = playback.graph().get();
    const bool rig_graph = graph && std::any_of(from.begin(), from.end(), [&](const BuildRef& b) { return b.graph == graph; });
    std::shared_ptr<const anim::AnimationGraph> next_graph = rig_graph ? to.graph : playback.graph();
    NodeMove move;
    move.node = dynamic_cast<scene::Node*>(node)->path();
    Status s = playback.replace_data(
        to.data, next_graph,
        [&](const skel::AnimatedSkeleton& old_skeleton, skel::AnimatedSkeleton& new_skeleton,
            const anim::AnimationGraphPlayer* old_player, anim::AnimationGraphPlayer* new_player) {
          move.carried = carry_playback(old_skeleton, new_skeleton);
          if (old_player && new_player) carry_graph(*old_player, *new_player, move.carried);
        });
    if (!s) {
      report.node_errors.push_back(s.error());
      continue;
    }
    report.moved.push_back(std::move(move));
  }
}

Expected<SceneReloader> SceneReloader::create(scene::SceneTree& tree, FileWatcherOptions watcher) {
  auto w = FileWatcher::create(watcher);
  if (!w) return Unexpected{w.error()};
  return SceneReloader(tree, std::move(*w));
}

SceneReloader::Rig* SceneReloader::find(const std::string& mskel_path) {
  auto it = rigs_.find(normal_path(mskel_path));
  return it == rigs_.end() ? nullptr : it->second.get();
}

const SceneReloader::Rig* SceneReloader::find(const std::string& mskel_path) const {
  auto it = rigs_.find(normal_path(mskel_path));
  return it == rigs_.end() ? nullptr : it->second.get();
}

Expected<std::shared_ptr<const RigGeneration>> SceneReloader::open(const std::string& mskel_path, RigReloaderOptions options) {
  if (Rig* rig = find(mskel_path)) return rig->reloader.current();
  options.own_watcher = false;
  auto reloader = RigReloader::open(mskel_path, std::move(options));
  if (!reloader) return Unexpected{reloader.error()};
  auto rig = std::make_unique<Rig>(Rig{std::move(*reloader), {}});
  rig->builds.push_back({rig->reloader.data(), rig->reloader.current()->graph});
  std::shared_ptr<const RigGeneration> current = rig->reloader.current();
  rigs_.emplace(normal_path(mskel_path), std::move(rig));
  std::vector<Error> errors = update_watches();
  if (!errors.empty()) {
    rigs_.erase(normal_path(mskel_path));
    update_watches();
    return Unexpected{errors.front()};
  }
  return current;
}

std::shared_ptr<const RigGeneration> SceneReloader::current(const std::string& mskel_path) const {
  const Rig* rig = find(mskel_path);
  return rig ? rig->reloader.current() : nullptr;
}

Status SceneReloader::request_reload(const std::string& mskel_path) {
  Rig* rig = find(mskel_path);
  if (!rig) return Unexpected{Error{mskel_path, {}, {}, "the rig is not open in this reloader (open it first)"}};
  rig->reloader.request_reload();
  return {};
}

std::vector<Error> SceneReloader::update_watches() {
  std::set<std::string> folders, files;
  for (const auto& [path, rig] : rigs_) {
    for (std::string& f : rig->reloader.dependencies().watch_folders()) folders.insert(std::move(f));
    for (std::string& f : rig->reloader.dependencies().watch_files()) files.insert(std::move(f));
  }
  const std::vector<std::string> watched = watcher_.watched();
  for (const std::string& w : watched)
    if (!folders.count(w) && !files.count(w)) watcher_.unwatch(w);
  std::vector<Error> errors;
  for (const std::string& f : folders)
    if (std::find(watched.begin(), watched.end(), f) == watched.end())
      if (Status s = watcher_.watch_folder(f, true); !s) errors.push_back(s.error());
  for (const std::string& f : files)
    if (std::find(watched.begin(), watched.end(), f) == watched.end())
      if (Status s = watcher_.watch_file(f); !s) errors.push_back(s.error());
  return errors;
}

SceneReloadReport SceneReloader::apply_pending() {
  SceneReloadReport report;
  if (tree_->in_tick()) {
    report.deferred = true;
    return report;
  }
  FileChanges changes = watcher_.poll();
  report.watch_errors = std::move(changes.errors);
  bool any_reloaded = false;
  for (auto& [path, rig] : rigs_) {
    rig->reloader.notice(changes);
    if (!rig->reloader.pending()) continue;
    ReloadReport r = rig->reloader.apply_pending(*tree_);
    RigReload out;
    out.mskel = rig->reloader.mskel_path();
    out.outcome = r.outcome;
    out.generation = r.generation;
    out.changed = std::move(r.changed);
    out.error = std::move(r.error);
    out.warnings = std::move(r.warnings);
    if (r.outcome == ReloadOutcome::Reloaded) {
      any_reloaded = true;
      // The old builds are held while the nodes move (a build only a node holds stays alive anyway).
      std::vector<std::shared_ptr<const skel::SkeletonData>> held_data;
      std::vector<std::shared_ptr<const anim::AnimationGraph>> held_graphs;
      std::vector<BuildRef> from;
      std::erase_if(rig->builds, [](const Rig::Build& b) { return b.data.expired(); });
      for (const Rig::Build& b : rig->builds) {
        held_data.push_back(b.data.lock());
        held_graphs.push_back(b.graph.lock());
        from.push_back({held_data.back().get(), held_graphs.back().get()});
      }
      move_nodes(tree_->root(), from, *rig->reloader.current(), out);
      rig->builds.push_back({rig->reloader.data(), rig->reloader.current()->graph});
    }
    report.rigs.push_back(std::move(out));
  }
  if (any_reloaded) {
    // A rig's edit may move its clips or images folder.
    for (Error& e : update_watches()) report.watch_errors.push_back(std::move(e));
  }
  return report;
}

}  // namespace mf::live_reload
