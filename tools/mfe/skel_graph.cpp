// `mfe skel graph check <mgraph> [--skeleton mskel]`: every finding of check_graph, one per line, then
// a summary, printed as `mfe skel check` prints. Exit 1 when there are errors (or the graph does not
// read), 0 otherwise: warnings alone pass.

#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "findings_print.hpp"
#include "mf/offline/graph/graph_check.hpp"
#include "mf/offline/graph/graph_format.hpp"

namespace mf::tools {
namespace {

using namespace mf::offline;

struct GraphCheckCommandOptions {
  std::string mgraph;
  std::string skeleton;
};

std::vector<Finding> graph_findings(const GraphCheckCommandOptions& options) {
  Expected<GraphSource> graph = read_graph_file(options.mgraph);
  if (!graph) return {{Severity::Error, graph.error()}};
  const std::string mskel = options.skeleton.empty() ? graph_skeleton_path(*graph, options.mgraph) : options.skeleton;
  if (mskel.empty()) {
    std::vector<Finding> findings = check_graph(*graph, options.mgraph);
    findings.push_back({Severity::Warning,
                        Error{options.mgraph, "skeleton", {},
                              "clip and bone names were not checked: the graph names no skeleton and no --skeleton "
                              "was given"}});
    return findings;
  }
  Expected<GraphRigNames> rig = load_graph_rig_names(mskel);
  if (!rig) return {{Severity::Error, rig.error()}};
  return check_graph(*graph, options.mgraph, &*rig);
}

int run_graph_check(const GraphCheckCommandOptions& options) {
  return print_findings(graph_findings(options));
}

}  // namespace

void add_skel_graph(CLI::App& skel, int& exit_code) {
  CLI::App* graph = skel.add_subcommand("graph", "Animation graphs (.mgraph)");
  graph->require_subcommand(1);

  auto options = std::make_shared<GraphCheckCommandOptions>();
  CLI::App* check = graph->add_subcommand(
      "check",
      "Check an animation graph: duplicate names, unknown states, parameters and clips, unknown mask bones, "
      "parameter type mismatches, 2D blend spaces that cannot be triangulated (errors); unreachable states and "
      "transitions that can never fire (warnings). Clips and bones are checked against the graph's skeleton "
      "(its skeleton.path, relative to the .mgraph) or --skeleton. Prints \"error: file:line:col: path: "
      "message\" or \"warning: ...\" per finding and a summary. Exit 1 on errors, 0 when there are none "
      "(warnings pass), 2 on usage errors, including a missing file.");
  check->add_option("mgraph", options->mgraph, "The .mgraph file")->required()->check(CLI::ExistingFile);
  check->add_option("--skeleton", options->skeleton, "The rig (.mskel) to check clip and bone names against")
      ->check(CLI::ExistingFile);
  check->callback([options, &exit_code] { exit_code = run_graph_check(*options); });
}

}  // namespace mf::tools
