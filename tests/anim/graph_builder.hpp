#pragma once
// Builds AnimationGraph data by hand for tests: machines are written one at a time (their states and
// transitions stay contiguous), conditions as small trees.

#include <initializer_list>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "mf/anim/animation_graph.hpp"
#include "mf/anim/animation_graph_player.hpp"

namespace mf::anim::test {

class GraphBuilder {
 public:
  AnimationGraph g;

  int param(const std::string& name, ParamType type, float value = 0) {
    g.params.push_back({name, type, value});
    return static_cast<int>(g.params.size() - 1);
  }

  int leaf(int param, ConditionOp op, float value = 0) {
    ConditionNode n;
    n.kind = ConditionKind::Leaf;
    n.op = op;
    n.param = param;
    n.value = value;
    g.conditions.push_back(n);
    return static_cast<int>(g.conditions.size() - 1);
  }
  int all(std::initializer_list<int> children) { return node(ConditionKind::And, children); }
  int any(std::initializer_list<int> children) { return node(ConditionKind::Or, children); }

  // Starts a machine; the states and transitions added until the next begin_machine belong to it.
  // Returns its index.
  int begin_machine(const std::string& name) {
    StateMachine m;
    m.name = name;
    m.state_first = static_cast<std::uint32_t>(g.states.size());
    m.transition_first = static_cast<std::uint32_t>(g.transitions.size());
    g.machines.push_back(m);
    return static_cast<int>(g.machines.size() - 1);
  }

  int clip_state(const std::string& name, const std::string& clip, bool loop = true, float speed = 1) {
    GraphState s;
    s.name = name;
    s.kind = StateKind::Clip;
    s.clip = clip;
    s.loop = loop;
    s.speed = speed;
    return add_state(s);
  }
  // members: (clip, x, y)
  struct Member {
    std::string clip;
    float x = 0, y = 0, speed = 1;
  };
  int blend1d(const std::string& name, int param_x, std::initializer_list<Member> members, bool loop = true) {
    GraphState s;
    s.name = name;
    s.kind = StateKind::BlendSpace1D;
    s.param_x = param_x;
    s.loop = loop;
    add_members(s, members);
    return add_state(s);
  }
  int blend2d(const std::string& name, int param_x, int param_y, std::initializer_list<Member> members,
              std::initializer_list<Triangle> triangles, std::initializer_list<HullEdge> hull) {
    GraphState s;
    s.name = name;
    s.kind = StateKind::BlendSpace2D;
    s.param_x = param_x;
    s.param_y = param_y;
    add_members(s, members);
    s.triangle_first = static_cast<std::uint32_t>(g.triangles.size());
    s.triangle_count = static_cast<std::uint32_t>(triangles.size());
    g.triangles.insert(g.triangles.end(), triangles);
    s.hull_first = static_cast<std::uint32_t>(g.hull_edges.size());
    s.hull_count = static_cast<std::uint32_t>(hull.size());
    g.hull_edges.insert(g.hull_edges.end(), hull);
    return add_state(s);
  }
  int machine_state(const std::string& name, int machine) {
    GraphState s;
    s.name = name;
    s.kind = StateKind::Machine;
    s.machine = machine;
    return add_state(s);
  }
  void entry(int state) { g.machines.back().entry = state; }

  Transition& transition(int from, int to, int condition = -1, float duration = 0) {
    Transition t;
    t.from = from;
    t.to = to;
    t.condition = condition;
    t.duration = duration;
    g.transitions.push_back(t);
    ++g.machines.back().transition_count;
    return g.transitions.back();
  }

  int layer(const std::string& name, int machine, float weight = 1, ClipBlend blend = ClipBlend::Replace,
            std::vector<std::string> mask = {}) {
    GraphLayer l;
    l.name = name;
    l.machine = machine;
    l.weight = weight;
    l.blend = blend;
    l.mask_bones = std::move(mask);
    g.layers.push_back(l);
    return static_cast<int>(g.layers.size() - 1);
  }

 private:
  int node(ConditionKind kind, std::initializer_list<int> children) {
    ConditionNode n;
    n.kind = kind;
    n.first_child = static_cast<std::uint32_t>(g.condition_children.size());
    n.child_count = static_cast<std::uint32_t>(children.size());
    for (int c : children) g.condition_children.push_back(static_cast<std::uint32_t>(c));
    g.conditions.push_back(n);
    return static_cast<int>(g.conditions.size() - 1);
  }
  void add_members(GraphState& s, std::initializer_list<Member> members) {
    s.member_first = static_cast<std::uint32_t>(g.members.size());
    s.member_count = static_cast<std::uint32_t>(members.size());
    for (const Member& m : members) g.members.push_back({m.clip, m.x, m.y, m.speed});
  }
  int add_state(const GraphState& s) {
    g.states.push_back(s);
    ++g.machines.back().state_count;
    return static_cast<int>(g.states.size() - 1);
  }
};

// Clips known to the tests' players, with their lengths, and a few bones for masks.
struct TestClips {
  std::vector<std::string> names{"idle", "walk", "run", "jump", "fall", "land", "wave", "aim"};
  std::vector<float> lengths{1.0f, 1.0f, 0.5f, 0.8f, 2.0f, 0.25f, 1.0f, 1.0f};
  std::vector<std::string> bones{"root", "hip", "arm", "hand"};

  int clip(const std::string& name) const {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return static_cast<int>(i);
    return -1;
  }
  GraphBinding bind(const AnimationGraph& g) const {
    auto b = bind_graph(g, names, lengths, bones);
    if (!b) {  // the tests bind every name their graphs use: a bug in the test itself
      std::fprintf(stderr, "bind_graph failed: %s\n", b.error().to_string().c_str());
      std::abort();
    }
    return std::move(b).value();
  }
};

}  // namespace mf::anim::test
