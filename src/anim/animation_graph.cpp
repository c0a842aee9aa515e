#include "mf/anim/animation_graph.hpp"

#include <cmath>
#include <string>

namespace mf::anim {
namespace {

std::string at(const char* array, std::size_t i) { return std::string(array) + "[" + std::to_string(i) + "]"; }

std::string out_of_range(const std::string& where, long long value, std::size_t size, const char* what) {
  return where + ": index " + std::to_string(value) + " out of range (" + std::to_string(size) + " " + what + ")";
}

bool in_range(long long value, std::size_t size) { return value >= 0 && static_cast<unsigned long long>(value) < size; }

bool range_inside(std::uint32_t first, std::uint32_t count, std::size_t size) {
  return static_cast<unsigned long long>(first) + count <= size;
}

std::string bad_range(const std::string& where, std::uint32_t first, std::uint32_t count, std::size_t size,
                      const char* what) {
  return where + ": range " + std::to_string(first) + "+" + std::to_string(count) + " outside the " +
         std::to_string(size) + " " + what;
}

bool numeric_param(const AnimationGraph& g, std::int32_t p) {
  return g.params[static_cast<std::size_t>(p)].type == ParamType::Float ||
         g.params[static_cast<std::size_t>(p)].type == ParamType::Int;
}

}  // namespace

int AnimationGraph::find_param(std::string_view name) const {
  for (std::size_t i = 0; i < params.size(); ++i)
    if (params[i].name == name) return static_cast<int>(i);
  return -1;
}

std::string AnimationGraph::validate() const {
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (params[i].name.empty()) return at("params", i) + ": empty name";
    if (!std::isfinite(params[i].default_value)) return at("params", i) + ": default value is not finite";
    for (std::size_t j = 0; j < i; ++j)
      if (params[j].name == params[i].name) return at("params", i) + ": duplicate name '" + params[i].name + "'";
  }

  // Conditions: indices in range, and no node reachable from itself (evaluation recurses).
  for (std::size_t i = 0; i < conditions.size(); ++i) {
    const ConditionNode& c = conditions[i];
    const std::string where = at("conditions", i);
    if (c.kind == ConditionKind::Leaf) {
      if (!in_range(c.param, params.size())) return out_of_range(where + ".param", c.param, params.size(), "params");
      if (!std::isfinite(c.value)) return where + ".value: not finite";
    } else if (!range_inside(c.first_child, c.child_count, condition_children.size())) {
      return bad_range(where + ".children", c.first_child, c.child_count, condition_children.size(), "condition children");
    }
  }
  for (std::size_t i = 0; i < condition_children.size(); ++i)
    if (condition_children[i] >= conditions.size())
      return out_of_range(at("condition_children", i), condition_children[i], conditions.size(), "conditions");
  {
    // Depth-first colouring: 0 unseen, 1 on the stack, 2 done.
    std::vector<std::uint8_t> colour(conditions.size(), 0);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> stack;  // node, next child
    for (std::uint32_t root = 0; root < conditions.size(); ++root) {
      if (colour[root]) continue;
      stack.push_back({root, 0});
      colour[root] = 1;
      while (!stack.empty()) {
        auto& [node, next] = stack.back();
        const ConditionNode& c = conditions[node];
        if (c.kind == ConditionKind::Leaf || next == c.child_count) {
          colour[node] = 2;
          stack.pop_back();
          continue;
        }
        const std::uint32_t child = condition_children[c.first_child + next++];
        if (colour[child] == 1) return at("conditions", child) + ": the condition contains itself";
        if (colour[child] == 0) {
          colour[child] = 1;
          stack.push_back({child, 0});
        }
      }
    }
  }

  // States: each kind's references.
  for (std::size_t i = 0; i < states.size(); ++i) {
    const GraphState& s = states[i];
    const std::string where = at("states", i);
    if (!std::isfinite(s.speed)) return where + ".speed: not finite";
    if (s.speed_param != -1) {
      if (!in_range(s.speed_param, params.size())) return out_of_range(where + ".speed_param", s.speed_param, params.size(), "params");
      if (!numeric_param(*this, s.speed_param)) return where + ".speed_param: not a float or int parameter";
    }
    switch (s.kind) {
      case StateKind::Clip:
        if (s.clip.empty()) return where + ".clip: empty clip name";
        break;
      case StateKind::Machine:
        if (!in_range(s.machine, machines.size())) return out_of_range(where + ".machine", s.machine, machines.size(), "machines");
        break;
      case StateKind::BlendSpace1D:
      case StateKind::BlendSpace2D: {
        const bool two_d = s.kind == StateKind::BlendSpace2D;
        if (s.member_count == 0) return where + ": a blend space needs at least one member";
        if (!range_inside(s.member_first, s.member_count, members.size()))
          return bad_range(where + ".members", s.member_first, s.member_count, members.size(), "members");
        if (!in_range(s.param_x, params.size())) return out_of_range(where + ".param_x", s.param_x, params.size(), "params");
        if (!numeric_param(*this, s.param_x)) return where + ".param_x: not a float or int parameter";
        for (std::uint32_t m = 0; m < s.member_count; ++m) {
          const BlendMember& b = members[s.member_first + m];
          const std::string mw = at("members", s.member_first + m);
          if (b.clip.empty()) return mw + ".clip: empty clip name";
          if (!std::isfinite(b.x) || !std::isfinite(b.y)) return mw + ": position is not finite";
          if (!(b.speed > 0) || !std::isfinite(b.speed)) return mw + ".speed: must be positive";
          if (!two_d && m > 0 && b.x < members[s.member_first + m - 1].x)
            return mw + ".x: 1D members must be sorted by x";
        }
        if (!two_d) break;
        if (!in_range(s.param_y, params.size())) return out_of_range(where + ".param_y", s.param_y, params.size(), "params");
        if (!numeric_param(*this, s.param_y)) return where + ".param_y: not a float or int parameter";
        if (!range_inside(s.triangle_first, s.triangle_count, triangles.size()))
          return bad_range(where + ".triangles", s.triangle_first, s.triangle_count, triangles.size(), "triangles");
        if (!range_inside(s.hull_first, s.hull_count, hull_edges.size()))
          return bad_range(where + ".hull", s.hull_first, s.hull_count, hull_edges.size(), "hull edges");
        for (std::uint32_t t = 0; t < s.triangle_count; ++t) {
          const Triangle& tr = triangles[s.triangle_first + t];
          if (tr.a >= s.member_count || tr.b >= s.member_count || tr.c >= s.member_count)
            return at("triangles", s.triangle_first + t) + ": member index outside the state's " +
                   std::to_string(s.member_count) + " members";
        }
        for (std::uint32_t e = 0; e < s.hull_count; ++e) {
          const HullEdge& h = hull_edges[s.hull_first + e];
          if (h.a >= s.member_count || h.b >= s.member_count)
            return at("hull_edges", s.hull_first + e) + ": member index outside the state's " +
                   std::to_string(s.member_count) + " members";
        }
        break;
      }
    }
  }

  // Machines: disjoint state ranges, entry inside, transitions between their own states.
  std::vector<std::int32_t> owner(states.size(), -1);
  for (std::size_t m = 0; m < machines.size(); ++m) {
    const StateMachine& sm = machines[m];
    const std::string where = at("machines", m);
    if (sm.state_count == 0) return where + ": a state machine needs at least one state";
    if (!range_inside(sm.state_first, sm.state_count, states.size()))
      return bad_range(where + ".states", sm.state_first, sm.state_count, states.size(), "states");
    for (std::uint32_t s = sm.state_first; s < sm.state_first + sm.state_count; ++s) {
      if (owner[s] >= 0) return where + ": " + at("states", s) + " already belongs to " + at("machines", static_cast<std::size_t>(owner[s]));
      owner[s] = static_cast<std::int32_t>(m);
    }
    const auto inside = [&](std::int32_t s) {
      return s >= 0 && static_cast<std::uint32_t>(s) >= sm.state_first && static_cast<std::uint32_t>(s) < sm.state_first + sm.state_count;
    };
    if (!inside(sm.entry)) return where + ".entry: state " + std::to_string(sm.entry) + " is not one of the machine's states";
    if (!range_inside(sm.transition_first, sm.transition_count, transitions.size()))
      return bad_range(where + ".transitions", sm.transition_first, sm.transition_count, transitions.size(), "transitions");
    for (std::uint32_t t = sm.transition_first; t < sm.transition_first + sm.transition_count; ++t) {
      const Transition& tr = transitions[t];
      const std::string tw = at("transitions", t);
      if (tr.from != kAnyState && !inside(tr.from)) return tw + ".from: state " + std::to_string(tr.from) + " is not in " + where;
      if (tr.to != kExitState && !inside(tr.to)) return tw + ".to: state " + std::to_string(tr.to) + " is not in " + where;
      if (tr.condition != -1 && !in_range(tr.condition, conditions.size()))
        return out_of_range(tw + ".condition", tr.condition, conditions.size(), "conditions");
      if (!(tr.duration >= 0) || !std::isfinite(tr.duration)) return tw + ".duration: must be a finite number ≥ 0";
      if (!(tr.exit_time >= 0) || !std::isfinite(tr.exit_time)) return tw + ".exit_time: must be a finite number ≥ 0";
    }
  }
  for (std::size_t s = 0; s < states.size(); ++s)
    if (owner[s] < 0) return at("states", s) + ": belongs to no state machine";

  // No machine may contain itself through its Machine states.
  {
    std::vector<std::uint8_t> colour(machines.size(), 0);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> stack;  // machine, next state offset
    for (std::uint32_t root = 0; root < machines.size(); ++root) {
      if (colour[root]) continue;
      stack.push_back({root, 0});
      colour[root] = 1;
      while (!stack.empty()) {
        auto& [m, next] = stack.back();
        const StateMachine& sm = machines[m];
        if (next == sm.state_count) {
          colour[m] = 2;
          stack.pop_back();
          continue;
        }
        const GraphState& s = states[sm.state_first + next++];
        if (s.kind != StateKind::Machine) continue;
        const auto child = static_cast<std::uint32_t>(s.machine);
        if (colour[child] == 1) return at("machines", child) + ": the state machine contains itself";
        if (colour[child] == 0) {
          colour[child] = 1;
          stack.push_back({child, 0});
        }
      }
    }
  }

  for (std::size_t l = 0; l < layers.size(); ++l) {
    const GraphLayer& layer = layers[l];
    const std::string where = at("layers", l);
    if (!in_range(layer.machine, machines.size())) return out_of_range(where + ".machine", layer.machine, machines.size(), "machines");
    if (!(layer.weight >= 0) || !std::isfinite(layer.weight)) return where + ".weight: must be a finite number ≥ 0";
    for (std::size_t b = 0; b < layer.mask_bones.size(); ++b)
      if (layer.mask_bones[b].empty()) return where + "." + at("mask_bones", b) + ": empty bone name";
  }
  return {};
}

}  // namespace mf::anim
