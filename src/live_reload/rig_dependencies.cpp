#include "mf/live_reload/rig_dependencies.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

#include "mf/offline/format/rig_files.hpp"
#include "mf/offline/format/skeleton_format.hpp"
#include "mf/offline/graph/graph_check.hpp"
#include "mf/offline/graph/graph_format.hpp"

namespace mf::live_reload {
namespace {

namespace fs = std::filesystem;

bool is_under(const std::string& path, const std::string& folder) {
  if (folder.empty()) return false;
  if (path == folder) return true;
  if (folder == "/") return !path.empty() && path.front() == '/';
  return path.size() > folder.size() && path.compare(0, folder.size(), folder) == 0 && path[folder.size()] == '/';
}

std::string extension_lower(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

std::string folder_of(const std::string& path) { return fs::path(path).parent_path().generic_string(); }

}  // namespace

bool RigDependencies::affects(const FileChange& change) const {
  const std::string& p = change.path;
  if (p == mskel || (!graph.empty() && p == graph)) return true;
  // The graph beside the rig may be another one now, or appear.
  if (graph_beside && folder_of(p) == rig_folder && extension_lower(p) == ".mgraph") return true;
  if (is_under(p, clips_folder) && (change.folder || extension_lower(p) == ".manim")) return true;
  if (is_under(p, images_folder) && (change.folder || extension_lower(p) == ".png")) return true;
  // A folder that appeared or went away (or lost events) above a dependency.
  if (change.folder) {
    for (const std::string* d : {&mskel, &clips_folder, &images_folder, &graph})
      if (!d->empty() && is_under(*d, p)) return true;
  }
  return false;
}

std::vector<std::string> RigDependencies::watch_folders() const {
  std::vector<std::string> out{rig_folder};
  for (const std::string* f : {&clips_folder, &images_folder}) {
    std::error_code ec;
    if (is_under(*f, rig_folder) || !fs::is_directory(*f, ec)) continue;
    if (std::find(out.begin(), out.end(), *f) == out.end()) out.push_back(*f);
  }
  return out;
}

std::vector<std::string> RigDependencies::watch_files() const {
  std::vector<std::string> out;
  if (graph.empty()) return out;
  for (const std::string& f : watch_folders())
    if (is_under(graph, f)) return out;
  out.push_back(graph);
  return out;
}

Expected<RigDependencies> rig_dependencies(const std::string& mskel_path, const std::string& graph, bool graph_beside) {
  Expected<offline::SkeletonSource> skeleton = offline::read_skeleton_file(mskel_path);
  if (!skeleton) return Unexpected{skeleton.error()};
  RigDependencies d;
  d.mskel = normal_path(mskel_path);
  d.rig_folder = folder_of(d.mskel);
  d.clips_folder = normal_path(offline::clips_folder(*skeleton, d.mskel));
  offline::Rig rig;
  rig.path = d.mskel;
  rig.skeleton = std::move(skeleton).value();
  d.images_folder = normal_path(offline::images_folder(rig));
  d.graph = graph.empty() ? std::string() : normal_path(graph);
  d.graph_beside = graph_beside;
  return d;
}

std::string find_graph_beside(const std::string& mskel_path, std::vector<std::string>* others) {
  const std::string mskel = normal_path(mskel_path);
  std::vector<std::string> candidates;
  std::error_code ec;
  for (fs::directory_iterator it(folder_of(mskel), ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (extension_lower(it->path().string()) != ".mgraph" || !it->is_regular_file(type_ec)) continue;
    candidates.push_back(normal_path(it->path().string()));
  }
  std::sort(candidates.begin(), candidates.end());
  std::string found;
  for (const std::string& file : candidates) {
    Expected<offline::GraphSource> graph = offline::read_graph_file(file);
    if (!graph) continue;  // unreadable: cannot say which rig it is for
    const std::string skeleton = offline::graph_skeleton_path(*graph, file);
    if (skeleton.empty() || normal_path(skeleton) != mskel) continue;
    if (found.empty()) found = file;
    else if (others) others->push_back(file);
  }
  return found;
}

}  // namespace mf::live_reload
