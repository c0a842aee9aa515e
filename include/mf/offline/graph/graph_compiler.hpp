#pragma once
// Compiles a `.mgraph` source into the runtime's AnimationGraph: names resolved to indices, condition
// expressions flattened, each machine's states contiguous, transitions per machine sorted by priority
// (stable), 1D members sorted by x, 2D blend spaces triangulated (Delaunay) with their hull edges
// counter-clockwise in the (x, y) parameter space.

#include <cstdint>
#include <string>
#include <vector>

#include "mf/anim/animation_graph.hpp"
#include "mf/core/expected.hpp"
#include "mf/offline/graph/graph_model.hpp"

namespace mf::offline {

// Compiles a read graph. Runs check_graph (without a rig) first: its first error, if any, is the
// error returned (warnings do not stop it). `file` names the source in errors; `name` becomes
// AnimationGraph::name.
Expected<anim::AnimationGraph> compile_graph(const GraphSource& graph, const std::string& file, const std::string& name);

// Reads, validates and compiles a .mgraph file; the graph's name is the file name without extension.
Expected<anim::AnimationGraph> compile_graph_file(const std::string& mgraph_path);

// The binary form that mf::anim::load_graph_binary reads (graph_binary.hpp describes it).
std::vector<std::uint8_t> write_graph_binary(const anim::AnimationGraph& graph);

}  // namespace mf::offline
