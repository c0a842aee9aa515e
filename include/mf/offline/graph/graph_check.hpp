#pragma once
// The checks of `mfe skel graph check` on a read `.mgraph`: everything the reader cannot see from one
// record alone. Errors make the graph unusable (it does not compile or bind); warnings point at parts
// that can never take effect.
//
// Errors: duplicate names (parameters, layers, states of one machine), entry or transition states that
// do not exist, "exit" from a layer's top machine, conditions and blend spaces on unknown parameters,
// type mismatches (a comparison on a bool or trigger, "is" on a non-bool, "trigger" on a non-trigger,
// a blend-space axis or speedParam that is not a number), 1D blend members at the same place, 2D blend
// spaces that cannot be triangulated (fewer than 3 points, duplicates, all on one line), and with a
// rig: unknown clips and unknown mask bones.
// Warnings: unreachable states (no path of transitions from the entry; any-state transitions reach
// their targets) and transitions that can never fire (a condition that is never true, such as
// x > 3 and x < 2, an int equal to a non-integer or a bool both true and false; a source state that is
// unreachable; shadowed by an earlier transition from the same state with no condition and no exit
// time).

#include <string>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/offline/graph/graph_model.hpp"
#include "mf/offline/check/findings.hpp"

namespace mf::offline {

// What a graph is checked against: the names of a rig's clips and bones.
struct GraphRigNames {
  std::string mskel;               // where they came from, for messages
  std::vector<std::string> clips;
  std::vector<std::string> bones;
};

// Runs every check. `file` names the .mgraph in findings; without `rig`, clip and bone names are
// not checked.
std::vector<Finding> check_graph(const GraphSource& graph, const std::string& file, const GraphRigNames* rig = nullptr);

// The rig's clip and bone names from a .mskel (its clips folder is listed, not read).
Expected<GraphRigNames> load_graph_rig_names(const std::string& mskel_path);

// The .mskel a graph names: its skeleton path relative to the .mgraph's folder; empty when it names
// none.
std::string graph_skeleton_path(const GraphSource& graph, const std::string& mgraph_path);

}  // namespace mf::offline
