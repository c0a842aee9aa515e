#pragma once
// The files a rig's build reads, and whether a changed path is one of them: the .mskel, the .manim
// files of its clips folder (sub-folders included), the .png files of its images folder (normal maps
// included), and the .mgraph built with it.
//
// Paths are normal_path()s (absolute, lexically normal), as FileWatcher reports them.

#include <string>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/live_reload/file_watcher.hpp"

namespace mf::live_reload {

struct RigDependencies {
  std::string mskel;
  std::string rig_folder;     // the .mskel's folder
  std::string clips_folder;   // SkeletonSource::clips, or "<name>.clips" beside the .mskel
  std::string images_folder;  // import.images
  std::string graph;          // the .mgraph built with the rig; empty: none
  // The graph is looked for beside the rig (find_graph_beside), not named by the host: a .mgraph
  // appearing or changing there may change which graph that is, or give the rig one.
  bool graph_beside = false;

  // Whether a change can alter what the build reads. A folder change (created, deleted, moved, or
  // every path after lost events) counts when it holds or is inside one of the folders above, or holds
  // a dependency file.
  bool affects(const FileChange& change) const;

  // The folders to watch: the rig's folder (recursive, which also covers clips and images folders
  // inside it), then the clips and images folders outside it that exist. The explicit graph's folder
  // is covered by watch_files() when it lies outside these.
  std::vector<std::string> watch_folders() const;
  // Files outside every folder of watch_folders() (an explicit graph elsewhere).
  std::vector<std::string> watch_files() const;

  friend bool operator==(const RigDependencies&, const RigDependencies&) = default;
};

// Reads the .mskel for its clips and images folders. `graph` (may be empty) is the .mgraph built with
// it; `graph_beside` says graphs are looked for beside the rig. Errors are the .mskel's.
Expected<RigDependencies> rig_dependencies(const std::string& mskel_path, const std::string& graph, bool graph_beside);

// The .mgraph in the rig's folder whose skeleton path names this .mskel (the first by file name);
// empty when there is none. Graphs that cannot be read are passed over; `others`, when given,
// receives the further graphs that name the rig (a host that means one of them names it itself).
std::string find_graph_beside(const std::string& mskel_path, std::vector<std::string>* others = nullptr);

}  // namespace mf::live_reload
