#pragma once
// Where a graph names a clip, and the edits that follow a clip's rename or removal (`mfe skel clip
// rename` / `delete --update-graphs`). The graph is then written back through its canonical writer.

#include <string>
#include <string_view>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/offline/graph/graph_model.hpp"

namespace mf::offline {

// One place a graph plays a clip: a clip state, or a member of a blend space.
struct GraphClipRef {
  std::string layer;
  std::string state;        // the state's name, with its enclosing machine states: "air/fall"
  GraphStateKind kind = GraphStateKind::Clip;
  int member = -1;          // blend spaces: the member's index; -1 for a clip state
  SourceLocation source;    // the state or member (empty for a graph built in code)

  // `state "jump" of layer "base"` or `member 1 of blend1d state "locomotion" of layer "base"`.
  std::string describe() const;
};

// Every place `graph` plays `clip`, in file order.
std::vector<GraphClipRef> find_clip_refs(const GraphSource& graph, std::string_view clip);

// Renames every use of clip `from` to `to`; returns how many there were.
int rename_clip_refs(GraphSource& graph, std::string_view from, std::string_view to);

// Removes every blend-space member that plays `clip`. Fails, leaving `graph` unchanged, when a clip
// state plays it (the state would have no clip), or when a blend space would keep too few members
// (a 1D space none, a 2D space fewer than 3 or all on one line). The error names the state. Returns
// how many members were removed.
Expected<int> remove_clip_members(GraphSource& graph, std::string_view clip);

}  // namespace mf::offline
