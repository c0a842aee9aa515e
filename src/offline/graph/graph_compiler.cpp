// .mgraph source → AnimationGraph. The check has already rejected every broken name, so compiling is a
// walk that appends records: a machine's states first (contiguous), then its transitions (sorted), then
// the machines nested in its states.

#include "mf/offline/graph/graph_compiler.hpp"

#include <algorithm>
#include <filesystem>

#include "mf/offline/mesh/delaunay.hpp"
#include "mf/offline/graph/graph_check.hpp"
#include "mf/offline/graph/graph_format.hpp"

namespace mf::offline {
namespace {

class Compiler {
 public:
  explicit Compiler(const GraphSource& g) : g_(g) {}

  anim::AnimationGraph compile(const std::string& name) {
    out_.uid = g_.uid;
    out_.name = name;
    for (const GraphParameter& p : g_.parameters) out_.params.push_back({p.name, p.type, p.default_value});
    for (const GraphLayerSource& l : g_.layers) {
      anim::GraphLayer layer;
      layer.name = l.name;
      layer.weight = l.weight;
      layer.blend = l.blend;
      layer.mask_bones = l.mask;
      layer.machine = compile_machine(l.machine, l.name);
      out_.layers.push_back(std::move(layer));
    }
    return std::move(out_);
  }

 private:
  std::int32_t param(const std::string& name) const {
    for (std::size_t i = 0; i < out_.params.size(); ++i)
      if (!name.empty() && out_.params[i].name == name) return static_cast<std::int32_t>(i);
    return -1;
  }

  std::int32_t compile_machine(const GraphMachine& m, const std::string& name) {
    const auto index = static_cast<std::int32_t>(out_.machines.size());
    out_.machines.push_back({});
    const auto first = static_cast<std::uint32_t>(out_.states.size());
    auto state_index = [&](const std::string& state) -> std::int32_t {
      for (std::size_t i = 0; i < m.states.size(); ++i)
        if (m.states[i].name == state) return static_cast<std::int32_t>(first + i);
      return -1;
    };
    for (const GraphStateSource& s : m.states) out_.states.push_back(compile_state(s));

    std::vector<std::size_t> order(m.transitions.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return m.transitions[a].priority < m.transitions[b].priority; });
    const auto transition_first = static_cast<std::uint32_t>(out_.transitions.size());
    for (std::size_t i : order) {
      const GraphTransition& t = m.transitions[i];
      anim::Transition r;
      r.from = t.from == kAnyStateName ? anim::kAnyState : state_index(t.from);
      r.to = t.to == kExitStateName ? anim::kExitState : state_index(t.to);
      r.condition = t.has_condition ? compile_condition(t.condition) : -1;
      r.duration = t.duration;
      r.has_exit_time = t.has_exit_time;
      r.exit_time = t.exit_time;
      r.priority = t.priority;
      r.interruptible = t.interruptible;
      out_.transitions.push_back(r);
    }

    anim::StateMachine& machine = out_.machines[static_cast<std::size_t>(index)];
    machine.name = name;
    machine.state_first = first;
    machine.state_count = static_cast<std::uint32_t>(m.states.size());
    machine.entry = state_index(m.entry);
    machine.transition_first = transition_first;
    machine.transition_count = static_cast<std::uint32_t>(m.transitions.size());

    for (std::size_t i = 0; i < m.states.size(); ++i)
      if (m.states[i].kind == GraphStateKind::Machine) {
        const std::int32_t nested = compile_machine(m.states[i].machine, m.states[i].name);
        out_.states[first + i].machine = nested;
      }
    return index;
  }

  anim::GraphState compile_state(const GraphStateSource& s) {
    anim::GraphState r;
    r.name = s.name;
    r.speed = s.speed;
    r.speed_param = param(s.speed_param);
    r.loop = s.loop;
    switch (s.kind) {
      case GraphStateKind::Clip:
        r.kind = anim::StateKind::Clip;
        r.clip = s.clip;
        break;
      case GraphStateKind::Blend1D: {
        r.kind = anim::StateKind::BlendSpace1D;
        r.param_x = param(s.param_x);
        std::vector<GraphBlendMember> sorted = s.members;
        std::stable_sort(sorted.begin(), sorted.end(),
                         [](const GraphBlendMember& a, const GraphBlendMember& b) { return a.x < b.x; });
        add_members(r, sorted);
        break;
      }
      case GraphStateKind::Blend2D: {
        r.kind = anim::StateKind::BlendSpace2D;
        r.param_x = param(s.param_x);
        r.param_y = param(s.param_y);
        add_members(r, s.members);
        std::vector<Vec2d> points;
        for (const GraphBlendMember& m : s.members) points.push_back({m.x, m.y});
        // The check has triangulated these same points, so this succeeds.
        const Expected<Triangulation> t = delaunay_triangulate(points);
        r.triangle_first = static_cast<std::uint32_t>(out_.triangles.size());
        r.hull_first = static_cast<std::uint32_t>(out_.hull_edges.size());
        if (t) {
          for (const auto& tri : t->triangles) out_.triangles.push_back({tri[0], tri[1], tri[2]});
          for (const auto& e : t->hull) out_.hull_edges.push_back({e[0], e[1]});
          r.triangle_count = static_cast<std::uint32_t>(t->triangles.size());
          r.hull_count = static_cast<std::uint32_t>(t->hull.size());
        }
        break;
      }
      case GraphStateKind::Machine: r.kind = anim::StateKind::Machine; break;
    }
    return r;
  }

  void add_members(anim::GraphState& r, const std::vector<GraphBlendMember>& members) {
    r.member_first = static_cast<std::uint32_t>(out_.members.size());
    r.member_count = static_cast<std::uint32_t>(members.size());
    for (const GraphBlendMember& m : members) out_.members.push_back({m.clip, m.x, m.y, m.speed});
  }

  // Children before their parent, so a node's children are one contiguous run of condition_children.
  std::int32_t compile_condition(const GraphCondition& c) {
    anim::ConditionNode node;
    if (c.form == ConditionForm::And || c.form == ConditionForm::Or) {
      node.kind = c.form == ConditionForm::And ? anim::ConditionKind::And : anim::ConditionKind::Or;
      std::vector<std::uint32_t> children;
      for (const GraphCondition& child : c.children) children.push_back(static_cast<std::uint32_t>(compile_condition(child)));
      node.first_child = static_cast<std::uint32_t>(out_.condition_children.size());
      node.child_count = static_cast<std::uint32_t>(children.size());
      out_.condition_children.insert(out_.condition_children.end(), children.begin(), children.end());
    } else {
      node.kind = anim::ConditionKind::Leaf;
      node.op = c.op;
      node.param = param(c.param);
      node.value = c.form == ConditionForm::Compare ? c.value : 0.0f;
    }
    out_.conditions.push_back(node);
    return static_cast<std::int32_t>(out_.conditions.size() - 1);
  }

  const GraphSource& g_;
  anim::AnimationGraph out_;
};

}  // namespace

Expected<anim::AnimationGraph> compile_graph(const GraphSource& graph, const std::string& file, const std::string& name) {
  for (const Finding& f : check_graph(graph, file))
    if (f.severity == Severity::Error) return Unexpected{f.error};
  return Compiler(graph).compile(name);
}

Expected<anim::AnimationGraph> compile_graph_file(const std::string& mgraph_path) {
  Expected<GraphSource> graph = read_graph_file(mgraph_path);
  if (!graph) return Unexpected{graph.error()};
  return compile_graph(*graph, mgraph_path, std::filesystem::path(mgraph_path).stem().string());
}

}  // namespace mf::offline
