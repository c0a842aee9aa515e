#pragma once
// `.mgraph` animation graphs: reader and canonical writer. docs/format-mgraph.md lists every key.
//
// The reader checks the file's own structure (types, required keys, known words, value ranges,
// format version and uid); names that refer to other records (states, parameters, clips, bones) are
// checked by check_graph (graph_check.hpp), which reports all such problems at once.

#include <string>
#include <string_view>

#include "mf/core/expected.hpp"
#include "mf/offline/graph/graph_model.hpp"

namespace mf::offline {

Expected<GraphSource> read_graph(std::string_view text, const std::string& file);
Expected<GraphSource> read_graph_file(const std::string& path);

// The canonical text. Writing what read_graph returned for canonical text gives the same bytes.
std::string write_graph(const GraphSource& graph);

// Writes the canonical text through a temporary file and a rename.
Status save_graph(const GraphSource& graph, const std::string& path);

}  // namespace mf::offline
