#pragma once
// One build of a rig for live reload: the runtime data with every clip compiled, and the animation
// graph built with it (compiled and bound to that data), numbered by generation. Everything is
// immutable once built and shared: players made from a generation keep it alive as long as they
// hold it, so a reload never pulls data from under them.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mf/anim/animation_graph.hpp"
#include "mf/anim/animation_graph_player.hpp"
#include "mf/core/expected.hpp"
#include "mf/offline/build/skeleton_loader.hpp"
#include "mf/skel/skeleton_data.hpp"

namespace mf::live_reload {

struct RigGeneration {
  std::uint64_t generation = 0;  // 1 for the first build, +1 for each successful reload
  std::shared_ptr<const skel::SkeletonData> data;
  std::string graph_path;                              // empty: no graph
  std::shared_ptr<const anim::AnimationGraph> graph;   // null without a graph
  std::shared_ptr<const anim::GraphBinding> binding;   // the graph bound to `data`
  std::vector<Error> warnings;                         // the build's and the graph check's warnings
};

// Builds a rig through the bake cache (offline::load_skeleton with `load`), compiles every clip (a
// clip that does not compile is the error, with its file and position), and when `graph_path` is not
// empty reads, checks against the rig's clips and bones, compiles and binds that graph (its errors
// name the .mgraph and the place in it). `generation` is stored as given.
Expected<RigGeneration> build_rig_generation(const std::string& mskel_path, const std::string& graph_path,
                                             const offline::LoadOptions& load, std::uint64_t generation);

}  // namespace mf::live_reload
