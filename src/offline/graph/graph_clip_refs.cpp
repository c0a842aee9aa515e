#include "mf/offline/graph/graph_clip_refs.hpp"

#include <algorithm>
#include <functional>

namespace mf::offline {
namespace {

const char* kind_word(GraphStateKind kind) {
  switch (kind) {
    case GraphStateKind::Clip: return "clip";
    case GraphStateKind::Blend1D: return "blend1d";
    case GraphStateKind::Blend2D: return "blend2d";
    case GraphStateKind::Machine: return "machine";
  }
  return "";
}

// Calls `visit` for every state of `machine` and its nested machines, with the state's path of names.
template <class Machine, class Visit>
void each_state(Machine& machine, const std::string& prefix, const Visit& visit) {
  for (auto& s : machine.states) {
    const std::string name = prefix.empty() ? s.name : prefix + "/" + s.name;
    visit(s, name);
    if (s.kind == GraphStateKind::Machine) each_state(s.machine, name, visit);
  }
}

// Whether the members left in a blend space still make one: 1D needs a member, 2D three points that
// are not all on one line (the compiler triangulates them).
bool blend_space_valid(const GraphStateSource& s, const std::vector<const GraphBlendMember*>& left) {
  if (s.kind == GraphStateKind::Blend1D) return !left.empty();
  for (std::size_t a = 0; a < left.size(); ++a)
    for (std::size_t b = a + 1; b < left.size(); ++b)
      for (std::size_t c = b + 1; c < left.size(); ++c) {
        const double cross = (static_cast<double>(left[b]->x) - left[a]->x) * (static_cast<double>(left[c]->y) - left[a]->y) -
                             (static_cast<double>(left[b]->y) - left[a]->y) * (static_cast<double>(left[c]->x) - left[a]->x);
        if (cross != 0) return true;
      }
  return false;
}

}  // namespace

std::string GraphClipRef::describe() const {
  const std::string where = " of layer \"" + layer + "\"";
  if (member < 0) return "state \"" + state + "\"" + where;
  return "member " + std::to_string(member) + " of " + kind_word(kind) + " state \"" + state + "\"" + where;
}

std::vector<GraphClipRef> find_clip_refs(const GraphSource& graph, std::string_view clip) {
  std::vector<GraphClipRef> out;
  for (const GraphLayerSource& layer : graph.layers) {
    each_state(layer.machine, "", [&](const GraphStateSource& s, const std::string& name) {
      if (s.kind == GraphStateKind::Clip && s.clip == clip) out.push_back({layer.name, name, s.kind, -1, s.source});
      if (s.kind != GraphStateKind::Blend1D && s.kind != GraphStateKind::Blend2D) return;
      for (std::size_t m = 0; m < s.members.size(); ++m)
        if (s.members[m].clip == clip) out.push_back({layer.name, name, s.kind, static_cast<int>(m), s.members[m].source});
    });
  }
  return out;
}

int rename_clip_refs(GraphSource& graph, std::string_view from, std::string_view to) {
  int count = 0;
  for (GraphLayerSource& layer : graph.layers) {
    each_state(layer.machine, "", [&](GraphStateSource& s, const std::string&) {
      if (s.kind == GraphStateKind::Clip && s.clip == from) {
        s.clip = std::string(to);
        ++count;
      }
      for (GraphBlendMember& m : s.members)
        if (m.clip == from) {
          m.clip = std::string(to);
          ++count;
        }
    });
  }
  return count;
}

Expected<int> remove_clip_members(GraphSource& graph, std::string_view clip) {
  // Check everything first, so a refusal changes nothing.
  for (const GraphLayerSource& layer : graph.layers) {
    std::string problem;
    SourceLocation where;
    each_state(layer.machine, "", [&](const GraphStateSource& s, const std::string& name) {
      if (!problem.empty()) return;
      if (s.kind == GraphStateKind::Clip && s.clip == clip) {
        problem = "state \"" + name + "\" of layer \"" + layer.name + "\" plays clip \"" + std::string(clip) +
                  "\" and would be left without a clip";
        where = s.source;
        return;
      }
      if (s.kind != GraphStateKind::Blend1D && s.kind != GraphStateKind::Blend2D) return;
      std::vector<const GraphBlendMember*> left;
      for (const GraphBlendMember& m : s.members)
        if (m.clip != clip) left.push_back(&m);
      if (left.size() == s.members.size() || blend_space_valid(s, left)) return;
      problem = std::string(kind_word(s.kind)) + " state \"" + name + "\" of layer \"" + layer.name +
                "\" would keep " + std::to_string(left.size()) + " member" + (left.size() == 1 ? "" : "s") +
                " without clip \"" + std::string(clip) + "\"" +
                (s.kind == GraphStateKind::Blend1D ? " (it needs at least one)"
                                                   : " (it needs 3 members not all on one line)");
      where = s.source;
    });
    if (!problem.empty()) return Unexpected{Error{{}, where.path, where.position, problem}};
  }
  int removed = 0;
  for (GraphLayerSource& layer : graph.layers) {
    each_state(layer.machine, "", [&](GraphStateSource& s, const std::string&) {
      const auto end = std::remove_if(s.members.begin(), s.members.end(),
                                      [&](const GraphBlendMember& m) { return m.clip == clip; });
      removed += static_cast<int>(s.members.end() - end);
      s.members.erase(end, s.members.end());
    });
  }
  return removed;
}

}  // namespace mf::offline
