// The checks of `mfe skel graph check`: names across records, parameter types, blend-space geometry,
// reachability and transitions that can never fire. graph_check.hpp lists which are errors.

#include "mf/offline/graph/graph_check.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <set>

#include "mf/offline/mesh/delaunay.hpp"
#include "mf/offline/json/json_writer.hpp"
#include "mf/offline/format/rig_files.hpp"

namespace mf::offline {
namespace {

using anim::ConditionOp;
using anim::ParamType;

std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

std::string name_list(const std::vector<std::string>& names) {
  if (names.empty()) return "(none)";
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The values a number parameter can take under a conjunction of comparisons: an interval, with
// integer rounding for Int parameters.
struct Interval {
  double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
  bool lo_open = false, hi_open = false;
  bool empty = false;

  void at_least(double v, bool open) {
    if (v > lo || (v == lo && open)) lo = v, lo_open = open;
  }
  void at_most(double v, bool open) {
    if (v < hi || (v == hi && open)) hi = v, hi_open = open;
  }
  void apply(ConditionOp op, double v, bool integer) {
    if (integer) {
      switch (op) {
        case ConditionOp::Greater: at_least(std::floor(v) + 1, false); break;
        case ConditionOp::GreaterEqual: at_least(std::ceil(v), false); break;
        case ConditionOp::Less: at_most(std::ceil(v) - 1, false); break;
        case ConditionOp::LessEqual: at_most(std::floor(v), false); break;
        case ConditionOp::Equal:
          if (v != std::floor(v)) empty = true;
          at_least(v, false);
          at_most(v, false);
          break;
        case ConditionOp::NotEqual:
          if (lo == v && hi == v) empty = true;
          break;
        default: break;
      }
      return;
    }
    switch (op) {
      case ConditionOp::Greater: at_least(v, true); break;
      case ConditionOp::GreaterEqual: at_least(v, false); break;
      case ConditionOp::Less: at_most(v, true); break;
      case ConditionOp::LessEqual: at_most(v, false); break;
      case ConditionOp::Equal:
        at_least(v, false);
        at_most(v, false);
        break;
      case ConditionOp::NotEqual:
        if (lo == v && hi == v) empty = true;
        break;
      default: break;
    }
  }
  bool is_empty() const { return empty || lo > hi || (lo == hi && (lo_open || hi_open)); }
};

class Checker {
 public:
  Checker(const GraphSource& g, const std::string& file, const GraphRigNames* rig) : g_(g), file_(file), rig_(rig) {}

  std::vector<Finding> run() {
    std::map<std::string, const SourceLocation*> seen;
    for (const GraphParameter& p : g_.parameters) {
      const auto [it, inserted] = seen.emplace(p.name, &p.source);
      if (!inserted) error(p.source, "duplicate parameter name " + in_quotes(p.name));
    }
    seen.clear();
    for (const GraphLayerSource& l : g_.layers) {
      const auto [it, inserted] = seen.emplace(l.name, &l.source);
      if (!inserted) error(l.source, "duplicate layer name " + in_quotes(l.name));
      if (rig_)
        for (std::size_t i = 0; i < l.mask.size(); ++i)
          if (std::find(rig_->bones.begin(), rig_->bones.end(), l.mask[i]) == rig_->bones.end())
            error(i < l.mask_sources.size() ? l.mask_sources[i] : l.source,
                  "unknown mask bone " + in_quotes(l.mask[i]) + " in " + rig_->mskel);
      check_machine(l.machine, true);
    }
    return std::move(out_);
  }

 private:
  void add(Severity severity, const SourceLocation& at, std::string message) {
    out_.push_back({severity, Error{file_, at.path, at.position, std::move(message)}});
  }
  void error(const SourceLocation& at, std::string message) { add(Severity::Error, at, std::move(message)); }
  void warning(const SourceLocation& at, std::string message) { add(Severity::Warning, at, std::move(message)); }

  static SourceLocation member_of(const SourceLocation& s, std::string_view key) {
    return SourceLocation{s.path.empty() ? std::string(key) : s.path + "." + std::string(key), s.position};
  }

  const GraphParameter* find_param(std::string_view name) const {
    for (const GraphParameter& p : g_.parameters)
      if (p.name == name) return &p;
    return nullptr;
  }

  std::string param_names() const {
    std::vector<std::string> names;
    for (const GraphParameter& p : g_.parameters) names.push_back(p.name);
    return name_list(names);
  }

  // A parameter used where only numbers (or only floats) make sense; false after reporting.
  bool check_number_param(const SourceLocation& at, const std::string& name, bool float_only, const char* role) {
    const GraphParameter* p = find_param(name);
    if (!p) {
      error(at, std::string(role) + " names unknown parameter " + in_quotes(name) + "; the graph has: " + param_names());
      return false;
    }
    const bool ok = p->type == ParamType::Float || (!float_only && p->type == ParamType::Int);
    if (!ok) {
      error(at, std::string(role) + " needs " + (float_only ? "a float" : "a float or int") + " parameter, but " +
                    in_quotes(name) + " is " + std::string(to_string(p->type)));
      return false;
    }
    return true;
  }

  void check_clip(const SourceLocation& at, const std::string& clip) {
    if (rig_ && std::find(rig_->clips.begin(), rig_->clips.end(), clip) == rig_->clips.end())
      error(at, "unknown clip " + in_quotes(clip) + "; " + rig_->mskel + " has: " + name_list(rig_->clips));
  }

  void check_state(const GraphStateSource& s) {
    if (!s.speed_param.empty()) check_number_param(member_of(s.source, "speedParam"), s.speed_param, true, "speedParam");
    switch (s.kind) {
      case GraphStateKind::Clip: check_clip(member_of(s.source, "clip"), s.clip); break;
      case GraphStateKind::Blend1D: {
        check_number_param(member_of(s.blend_source, "param"), s.param_x, false, "the blend space's param");
        std::map<float, std::size_t> at;
        for (std::size_t i = 0; i < s.members.size(); ++i) {
          const GraphBlendMember& m = s.members[i];
          check_clip(m.source, m.clip);
          const auto [it, inserted] = at.emplace(m.x, i);
          if (!inserted)
            error(m.source, "members " + std::to_string(it->second) + " and " + std::to_string(i) + " are both at " +
                                json::format_float(m.x));
        }
        break;
      }
      case GraphStateKind::Blend2D: {
        check_number_param(member_of(s.blend_source, "params[0]"), s.param_x, false, "the blend space's x param");
        check_number_param(member_of(s.blend_source, "params[1]"), s.param_y, false, "the blend space's y param");
        std::vector<Vec2d> points;
        for (const GraphBlendMember& m : s.members) {
          check_clip(m.source, m.clip);
          points.push_back({m.x, m.y});
        }
        if (Expected<Triangulation> t = delaunay_triangulate(points); !t)
          error(member_of(s.blend_source, "members"),
                "the 2D blend space cannot be triangulated: " + t.error().message +
                    " (it needs at least 3 distinct members, not all on one line)");
        break;
      }
      case GraphStateKind::Machine: check_machine(s.machine, false); break;
    }
  }

  // Reports unknown parameters and type mismatches; false when any was found.
  bool check_condition(const GraphCondition& c) {
    if (c.form == ConditionForm::And || c.form == ConditionForm::Or) {
      bool ok = true;
      for (const GraphCondition& child : c.children) ok = check_condition(child) && ok;
      return ok;
    }
    const GraphParameter* p = find_param(c.param);
    if (!p) {
      error(c.source, "condition on unknown parameter " + in_quotes(c.param) + "; the graph has: " + param_names());
      return false;
    }
    const std::string type(to_string(p->type));
    switch (c.form) {
      case ConditionForm::Compare:
        if (p->type == ParamType::Bool) {
          error(c.source, in_quotes(c.param) + " is a bool: test it with {\"param\": " + in_quotes(c.param) +
                              ", \"is\": true} (or false), not with " + in_quotes(to_string(c.op)));
          return false;
        }
        if (p->type == ParamType::Trigger) {
          error(c.source, in_quotes(c.param) + " is a trigger and has no value to compare: test it with {\"trigger\": " +
                              in_quotes(c.param) + "}");
          return false;
        }
        return true;
      case ConditionForm::Is:
        if (p->type != ParamType::Bool) {
          error(c.source, "\"is\" tests bool parameters, but " + in_quotes(c.param) + " is " + type +
                              (p->type == ParamType::Trigger ? ": use {\"trigger\": " + in_quotes(c.param) + "}" : ""));
          return false;
        }
        return true;
      case ConditionForm::Trigger:
        if (p->type != ParamType::Trigger) {
          error(c.source, in_quotes(c.param) + " is " + type + ", not a trigger");
          return false;
        }
        return true;
      default: return true;
    }
  }

  // Why a (type-correct) condition can never be true; empty when it can be.
  std::string never_true(const GraphCondition& c) const {
    switch (c.form) {
      case ConditionForm::Compare: {
        const GraphParameter* p = find_param(c.param);
        if (p->type == ParamType::Int && c.op == ConditionOp::Equal && c.value != std::floor(c.value))
          return "int " + in_quotes(c.param) + " can never equal " + json::format_float(c.value);
        return "";
      }
      case ConditionForm::Is:
      case ConditionForm::Trigger: return "";
      case ConditionForm::Or: {
        std::string why;
        for (const GraphCondition& child : c.children) {
          const std::string w = never_true(child);
          if (w.empty()) return "";
          why += (why.empty() ? "" : "; ") + w;
        }
        return why;
      }
      case ConditionForm::And: {
        for (const GraphCondition& child : c.children)
          if (std::string w = never_true(child); !w.empty()) return w;
        std::vector<const GraphCondition*> leaves;
        collect_and_leaves(c, leaves);
        std::map<std::string, Interval> ranges;
        std::map<std::string, int> bools;  // bit 1: tested true, bit 2: tested false
        for (const GraphCondition* leaf : leaves) {
          const GraphParameter* p = find_param(leaf->param);
          if (leaf->form == ConditionForm::Compare) {
            Interval& r = ranges[leaf->param];
            r.apply(leaf->op, leaf->value, p->type == ParamType::Int);
            if (r.is_empty()) return "the tests of " + in_quotes(leaf->param) + " contradict each other";
          } else if (leaf->form == ConditionForm::Is) {
            int& b = bools[leaf->param];
            b |= leaf->op == ConditionOp::IsTrue ? 1 : 2;
            if (b == 3) return "bool " + in_quotes(leaf->param) + " is tested both true and false";
          }
        }
        return "";
      }
    }
    return "";
  }

  static void collect_and_leaves(const GraphCondition& c, std::vector<const GraphCondition*>& out) {
    for (const GraphCondition& child : c.children) {
      if (child.form == ConditionForm::And) collect_and_leaves(child, out);
      else if (child.form != ConditionForm::Or) out.push_back(&child);
    }
  }

  void check_machine(const GraphMachine& m, bool top) {
    std::map<std::string, int> index;
    for (std::size_t i = 0; i < m.states.size(); ++i) {
      const GraphStateSource& s = m.states[i];
      const auto [it, inserted] = index.emplace(s.name, static_cast<int>(i));
      if (!inserted) error(s.source, "duplicate state name " + in_quotes(s.name) + " in this state machine");
      check_state(s);
    }
    auto find = [&](const std::string& name) {
      const auto it = index.find(name);
      return it == index.end() ? -1 : it->second;
    };
    std::string state_names;
    for (const GraphStateSource& s : m.states) state_names += (state_names.empty() ? "" : ", ") + s.name;

    const int entry = find(m.entry);
    if (entry < 0) error(member_of(m.source, "entry"), "entry names unknown state " + in_quotes(m.entry) + "; the machine has: " + state_names);

    // Resolved transitions: from (−1 any state), to (−2 exit, −3 unknown).
    struct Resolved {
      int from = -1, to = -3;
      bool ok = true;
    };
    std::vector<Resolved> resolved(m.transitions.size());
    for (std::size_t i = 0; i < m.transitions.size(); ++i) {
      const GraphTransition& t = m.transitions[i];
      Resolved& r = resolved[i];
      if (t.from != kAnyStateName) {
        r.from = find(t.from);
        if (r.from < 0) {
          error(member_of(t.source, "from"), "unknown state " + in_quotes(t.from) + "; the machine has: " + state_names);
          r.ok = false;
        }
      }
      if (t.to == kExitStateName) {
        r.to = -2;
        if (top) {
          error(member_of(t.source, "to"), "\"exit\" leaves a nested state machine, but this is a layer's top machine");
          r.ok = false;
        }
      } else {
        r.to = find(t.to);
        if (r.to < 0) {
          error(member_of(t.source, "to"), "unknown state " + in_quotes(t.to) + "; the machine has: " + state_names);
          r.ok = false;
        }
      }
      // A bad condition is reported here but does not hide the transition from the reachability walk.
      if (t.has_condition && check_condition(t.condition))
        if (std::string why = never_true(t.condition); !why.empty())
          warning(t.condition.source, "transition never fires: its condition is never true (" + why + ")");
    }
    if (entry < 0) return;

    // Reachability from the entry; any-state transitions reach their targets from anywhere.
    std::vector<bool> reached(m.states.size(), false);
    std::vector<int> queue{entry};
    reached[static_cast<std::size_t>(entry)] = true;
    for (const Resolved& r : resolved)
      if (r.ok && r.from == -1 && r.to >= 0 && !reached[static_cast<std::size_t>(r.to)]) {
        reached[static_cast<std::size_t>(r.to)] = true;
        queue.push_back(r.to);
      }
    for (std::size_t q = 0; q < queue.size(); ++q)
      for (const Resolved& r : resolved)
        if (r.ok && r.from == queue[q] && r.to >= 0 && !reached[static_cast<std::size_t>(r.to)]) {
          reached[static_cast<std::size_t>(r.to)] = true;
          queue.push_back(r.to);
        }
    for (std::size_t i = 0; i < m.states.size(); ++i)
      if (!reached[i])
        warning(m.states[i].source, "state " + in_quotes(m.states[i].name) + " is unreachable: no transitions lead to it from the entry " +
                                        in_quotes(m.entry));

    // Transitions in the order the player tests them: by priority, ties in file order.
    std::vector<std::size_t> order(m.transitions.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return m.transitions[a].priority < m.transitions[b].priority; });
    std::map<int, std::size_t> always;  // from -> the first transition that fires as soon as it is tested
    for (std::size_t i : order) {
      const GraphTransition& t = m.transitions[i];
      const Resolved& r = resolved[i];
      if (!r.ok) continue;
      if (r.from >= 0 && !reached[static_cast<std::size_t>(r.from)]) {
        warning(t.source, "transition never fires: its source state " + in_quotes(t.from) + " is unreachable");
        continue;
      }
      if (const auto it = always.find(r.from); it != always.end()) {
        const GraphTransition& first = m.transitions[it->second];
        warning(t.source, "transition never fires: the transition " + in_quotes(first.from) + " -> " + in_quotes(first.to) +
                              " (" + first.source.path + ") is tested before it and always fires (no condition, no exit time)");
        continue;
      }
      if (!t.has_condition && !t.has_exit_time) always.emplace(r.from, i);
    }
  }

  const GraphSource& g_;
  const std::string& file_;
  const GraphRigNames* rig_;
  std::vector<Finding> out_;
};

}  // namespace

std::vector<Finding> check_graph(const GraphSource& graph, const std::string& file, const GraphRigNames* rig) {
  return Checker(graph, file, rig).run();
}

Expected<GraphRigNames> load_graph_rig_names(const std::string& mskel_path) {
  Expected<Rig> rig = load_rig(mskel_path);
  if (!rig) return Unexpected{rig.error()};
  GraphRigNames names;
  names.mskel = mskel_path;
  for (const ClipFile& c : rig->clips) names.clips.push_back(c.name);
  for (const Bone& b : rig->skeleton.bones) names.bones.push_back(b.name);
  return names;
}

std::string graph_skeleton_path(const GraphSource& graph, const std::string& mgraph_path) {
  if (graph.skeleton_path.empty()) return "";
  const std::filesystem::path folder = std::filesystem::path(mgraph_path).parent_path();
  return (folder / graph.skeleton_path).lexically_normal().string();
}

}  // namespace mf::offline
