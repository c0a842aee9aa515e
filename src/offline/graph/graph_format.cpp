// `.mgraph` reader and canonical writer. docs/format-mgraph.md is the specification.

#include "mf/offline/graph/graph_format.hpp"

#include <cmath>
#include <optional>

#include "mf/core/file_io.hpp"
#include "mf/offline/json/json_reader.hpp"
#include "mf/offline/json/json_writer.hpp"
#include "mf/offline/format/uid.hpp"

namespace mf::offline {

using anim::ConditionOp;
using anim::ParamType;

std::string_view to_string(ParamType type) {
  switch (type) {
    case ParamType::Float: return "float";
    case ParamType::Int: return "int";
    case ParamType::Bool: return "bool";
    case ParamType::Trigger: return "trigger";
  }
  return "?";
}

std::string_view to_string(ConditionOp op) {
  switch (op) {
    case ConditionOp::Greater: return ">";
    case ConditionOp::Less: return "<";
    case ConditionOp::GreaterEqual: return ">=";
    case ConditionOp::LessEqual: return "<=";
    case ConditionOp::Equal: return "==";
    case ConditionOp::NotEqual: return "!=";
    case ConditionOp::IsTrue: return "is true";
    case ConditionOp::IsFalse: return "is false";
    case ConditionOp::IsSet: return "trigger";
  }
  return "?";
}

namespace {

using json::Layout;
using json::Node;
using json::ObjectReader;
using json::Writer;

constexpr std::string_view kGraphType = "AnimationGraph";
constexpr ParamType kParamTypes[] = {ParamType::Float, ParamType::Int, ParamType::Bool, ParamType::Trigger};
constexpr ConditionOp kCompareOps[] = {ConditionOp::Greater,   ConditionOp::Less,  ConditionOp::GreaterEqual,
                                       ConditionOp::LessEqual, ConditionOp::Equal, ConditionOp::NotEqual};

std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

SourceLocation source_of(const Node& n) { return SourceLocation{n.path(), n.position()}; }

float read_nonnegative(const Node& n) {
  const float v = n.as_float();
  if (v < 0) n.fail("must be zero or more, found " + json::format_float(v));
  return v;
}

// ---- reading ----------------------------------------------------------------------------------

class Reader {
 public:
  GraphSource read(const Node& root) {
    if (!root.is_object()) root.fail("a graph is a JSON object");
    ObjectReader r(root);
    GraphSource g;
    g.format = r.format_version(kGraphFormatVersion);
    const Node uid = r.required("uid");
    g.uid = uid.as_string();
    if (!is_valid_uid(g.uid, kGraphUidPrefix))
      uid.fail("malformed uid " + in_quotes(g.uid) + "; expected \"agr_\" and 12 lower-case hex digits");
    const Node type = r.required("type");
    if (type.as_string() != kGraphType)
      type.fail("expected type " + in_quotes(kGraphType) + ", found " + in_quotes(type.as_string()));
    if (std::optional<Node> skeleton = r.optional("skeleton")) read_skeleton_ref(*skeleton, g);
    if (std::optional<Node> params = r.optional("parameters"))
      for (const Node& p : params->items()) g.parameters.push_back(read_parameter(p));
    const Node layers = r.required("layers");
    if (layers.size() == 0) layers.fail("a graph needs at least one layer");
    for (const Node& l : layers.items()) g.layers.push_back(read_layer(l));
    r.finish();
    return g;
  }

 private:
  static void read_skeleton_ref(const Node& node, GraphSource& g) {
    ObjectReader r(node);
    const Node uid = r.required("uid");
    g.skeleton_uid = uid.as_string();
    if (!is_valid_uid(g.skeleton_uid, kSkeletonUidPrefix))
      uid.fail("malformed uid " + in_quotes(g.skeleton_uid) + "; expected \"skl_\" and 12 lower-case hex digits");
    g.skeleton_path = r.get("path", "");
    r.finish();
  }

  static GraphParameter read_parameter(const Node& node) {
    ObjectReader r(node);
    GraphParameter p;
    p.source = source_of(node);
    p.name = r.required("name").as_nonempty_string();
    const Node type = r.required("type");
    const std::string& word = type.as_string();
    bool known = false;
    for (ParamType t : kParamTypes)
      if (word == to_string(t)) {
        p.type = t;
        known = true;
      }
    if (!known) type.fail("unknown parameter type " + in_quotes(word) + "; expected float, int, bool or trigger");
    if (std::optional<Node> d = r.optional("default")) {
      switch (p.type) {
        case ParamType::Float: p.default_value = d->as_float(); break;
        case ParamType::Int: p.default_value = static_cast<float>(d->as_int(-(1 << 24), 1 << 24)); break;
        case ParamType::Bool: p.default_value = d->as_bool() ? 1.0f : 0.0f; break;
        case ParamType::Trigger: p.default_value = d->as_bool() ? 1.0f : 0.0f; break;
      }
    }
    r.finish();
    return p;
  }

  GraphLayerSource read_layer(const Node& node) {
    ObjectReader r(node);
    GraphLayerSource l;
    l.source = source_of(node);
    l.name = r.required("name").as_nonempty_string();
    if (std::optional<Node> w = r.optional("weight")) {
      l.weight = w->as_float();
      if (l.weight < 0 || l.weight > 1) w->fail("must be between 0 and 1, found " + json::format_float(l.weight));
    }
    if (std::optional<Node> b = r.optional("blend")) {
      const std::string& word = b->as_string();
      if (word == "override") l.blend = anim::ClipBlend::Replace;
      else if (word == "additive") l.blend = anim::ClipBlend::Additive;
      else b->fail("unknown blend " + in_quotes(word) + "; expected override or additive");
    }
    if (std::optional<Node> mask = r.optional("mask")) {
      for (const Node& bone : mask->items()) {
        l.mask.push_back(bone.as_nonempty_string());
        l.mask_sources.push_back(source_of(bone));
      }
    }
    l.machine = read_machine(r.required("machine"), 0);
    r.finish();
    return l;
  }

  GraphMachine read_machine(const Node& node, int depth) {
    // Each nesting costs two JSON levels (machine, states[i]), so the parser's depth limit bounds it.
    ObjectReader r(node);
    GraphMachine m;
    m.source = source_of(node);
    const Node entry = r.required("entry");
    m.entry = entry.as_nonempty_string();
    const Node states = r.required("states");
    if (states.size() == 0) states.fail("a state machine needs at least one state");
    for (const Node& s : states.items()) m.states.push_back(read_state(s, depth));
    if (std::optional<Node> transitions = r.optional("transitions"))
      for (const Node& t : transitions->items()) m.transitions.push_back(read_transition(t));
    r.finish();
    return m;
  }

  GraphStateSource read_state(const Node& node, int depth) {
    ObjectReader r(node);
    GraphStateSource s;
    s.source = source_of(node);
    const Node name = r.required("name");
    s.name = name.as_nonempty_string();
    if (s.name == kAnyStateName || s.name == kExitStateName)
      name.fail(in_quotes(s.name) + " is reserved for transitions; choose another state name");
    const std::optional<Node> clip = r.optional("clip");
    const std::optional<Node> blend1d = r.optional("blend1d");
    const std::optional<Node> blend2d = r.optional("blend2d");
    const std::optional<Node> machine = r.optional("machine");
    const int kinds = int(clip.has_value()) + int(blend1d.has_value()) + int(blend2d.has_value()) + int(machine.has_value());
    if (kinds != 1) node.fail("a state needs exactly one of clip, blend1d, blend2d, machine");
    if (clip) {
      s.kind = GraphStateKind::Clip;
      s.clip = clip->as_nonempty_string();
    } else if (blend1d) {
      s.kind = GraphStateKind::Blend1D;
      read_blend(*blend1d, s, false);
    } else if (blend2d) {
      s.kind = GraphStateKind::Blend2D;
      read_blend(*blend2d, s, true);
    } else {
      s.kind = GraphStateKind::Machine;
      s.machine = read_machine(*machine, depth + 1);
    }
    if (std::optional<Node> speed = r.optional("speed")) s.speed = read_nonnegative(*speed);
    if (std::optional<Node> p = r.optional("speedParam")) s.speed_param = p->as_nonempty_string();
    if (std::optional<Node> loop = r.optional("loop")) {
      if (s.kind == GraphStateKind::Machine) loop->fail("a machine state has no loop setting; its states have");
      s.loop = loop->as_bool();
    }
    r.finish();
    return s;
  }

  static void read_blend(const Node& node, GraphStateSource& s, bool two_d) {
    ObjectReader r(node);
    s.blend_source = source_of(node);
    if (two_d) {
      const Node params = r.required("params");
      if (params.size() != 2) params.fail("must be [x parameter, y parameter]");
      s.param_x = params[0].as_nonempty_string();
      s.param_y = params[1].as_nonempty_string();
    } else {
      s.param_x = r.required("param").as_nonempty_string();
    }
    const Node members = r.required("members");
    if (members.size() == 0) members.fail("a blend space needs at least one member");
    for (const Node& m : members.items()) {
      ObjectReader mr(m);
      GraphBlendMember b;
      b.source = source_of(m);
      b.clip = mr.required("clip").as_nonempty_string();
      const Node at = mr.required("at");
      if (two_d) {
        if (!at.is_array() || at.size() != 2) at.fail("must be [x, y]");
        b.x = at[0].as_float();
        b.y = at[1].as_float();
      } else {
        b.x = at.as_float();
      }
      if (std::optional<Node> speed = mr.optional("speed")) {
        b.speed = speed->as_float();
        if (!(b.speed > 0)) speed->fail("must be more than zero, found " + json::format_float(b.speed));
      }
      mr.finish();
      s.members.push_back(std::move(b));
    }
    r.finish();
  }

  static GraphTransition read_transition(const Node& node) {
    ObjectReader r(node);
    GraphTransition t;
    t.source = source_of(node);
    t.from = r.required("from").as_nonempty_string();
    const Node to = r.required("to");
    t.to = to.as_nonempty_string();
    if (t.to == kAnyStateName) to.fail("\"*\" means any state and can only be a transition's \"from\"");
    if (t.from == kExitStateName)
      node.fail("\"exit\" leaves a machine and can only be a transition's \"to\"");
    if (std::optional<Node> when = r.optional("when")) {
      t.has_condition = true;
      t.condition = read_condition(*when);
    }
    if (std::optional<Node> d = r.optional("duration")) t.duration = read_nonnegative(*d);
    if (std::optional<Node> e = r.optional("exitTime")) {
      t.has_exit_time = true;
      t.exit_time = read_nonnegative(*e);
    }
    if (std::optional<Node> p = r.optional("priority")) t.priority = p->as_int();
    t.interruptible = r.get("interruptible", true);
    r.finish();
    return t;
  }

  static GraphCondition read_condition(const Node& node) {
    if (!node.is_object())
      node.fail("a condition is an object: {\"and\": [...]}, {\"or\": [...]}, {\"param\": …} or {\"trigger\": …}");
    ObjectReader r(node);
    GraphCondition c;
    c.source = source_of(node);
    const std::optional<Node> all = r.optional("and");
    const std::optional<Node> any = r.optional("or");
    const std::optional<Node> param = r.optional("param");
    const std::optional<Node> trigger = r.optional("trigger");
    const int forms = int(all.has_value()) + int(any.has_value()) + int(param.has_value()) + int(trigger.has_value());
    if (forms != 1) node.fail("a condition needs exactly one of and, or, param, trigger");
    if (all || any) {
      const Node& list = all ? *all : *any;
      c.form = all ? ConditionForm::And : ConditionForm::Or;
      if (list.size() == 0) list.fail("needs at least one condition");
      for (const Node& child : list.items()) c.children.push_back(read_condition(child));
    } else if (trigger) {
      c.form = ConditionForm::Trigger;
      c.op = ConditionOp::IsSet;
      c.param = trigger->as_nonempty_string();
    } else {
      c.param = param->as_nonempty_string();
      const std::optional<Node> is = r.optional("is");
      const std::optional<Node> op = r.optional("op");
      if (is.has_value() == op.has_value()) node.fail("a parameter test needs either \"op\" and \"value\", or \"is\"");
      if (is) {
        c.form = ConditionForm::Is;
        c.op = is->as_bool() ? ConditionOp::IsTrue : ConditionOp::IsFalse;
      } else {
        c.form = ConditionForm::Compare;
        const std::string& word = op->as_string();
        bool known = false;
        for (ConditionOp o : kCompareOps)
          if (word == to_string(o)) {
            c.op = o;
            known = true;
          }
        if (!known) op->fail("unknown operator " + in_quotes(word) + "; expected >, <, >=, <=, == or !=");
        c.value = r.required("value").as_float();
      }
    }
    r.finish();
    return c;
  }
};

// ---- writing ----------------------------------------------------------------------------------

void write_condition(Writer& w, const GraphCondition& c) {
  w.begin_object(Layout::Inline);
  switch (c.form) {
    case ConditionForm::And:
    case ConditionForm::Or:
      w.key(c.form == ConditionForm::And ? "and" : "or");
      w.begin_array(Layout::Inline);
      for (const GraphCondition& child : c.children) write_condition(w, child);
      w.end_array();
      break;
    case ConditionForm::Trigger:
      w.key("trigger");
      w.string(c.param);
      break;
    case ConditionForm::Is:
      w.key("param");
      w.string(c.param);
      w.key("is");
      w.boolean(c.op == ConditionOp::IsTrue);
      break;
    case ConditionForm::Compare:
      w.key("param");
      w.string(c.param);
      w.key("op");
      w.string(to_string(c.op));
      w.key("value");
      w.number(c.value);
      break;
  }
  w.end_object();
}

void write_machine(Writer& w, const GraphMachine& m);

void write_blend(Writer& w, const GraphStateSource& s) {
  const bool two_d = s.kind == GraphStateKind::Blend2D;
  w.key(two_d ? "blend2d" : "blend1d");
  w.begin_object();
  if (two_d) {
    w.key("params");
    w.begin_array(Layout::Inline);
    w.string(s.param_x);
    w.string(s.param_y);
    w.end_array();
  } else {
    w.key("param");
    w.string(s.param_x);
  }
  w.key("members");
  w.begin_array();
  for (const GraphBlendMember& m : s.members) {
    w.begin_object(Layout::Inline);
    w.key("clip");
    w.string(m.clip);
    w.key("at");
    if (two_d) {
      w.begin_array(Layout::Inline);
      w.number(m.x);
      w.number(m.y);
      w.end_array();
    } else {
      w.number(m.x);
    }
    if (m.speed != 1) {
      w.key("speed");
      w.number(m.speed);
    }
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void write_state(Writer& w, const GraphStateSource& s) {
  // A clip state fits on one line; blend spaces and machines open blocks.
  w.begin_object(s.kind == GraphStateKind::Clip ? Layout::Inline : Layout::Block);
  w.key("name");
  w.string(s.name);
  switch (s.kind) {
    case GraphStateKind::Clip:
      w.key("clip");
      w.string(s.clip);
      break;
    case GraphStateKind::Blend1D:
    case GraphStateKind::Blend2D: write_blend(w, s); break;
    case GraphStateKind::Machine:
      w.key("machine");
      write_machine(w, s.machine);
      break;
  }
  if (s.speed != 1) {
    w.key("speed");
    w.number(s.speed);
  }
  if (!s.speed_param.empty()) {
    w.key("speedParam");
    w.string(s.speed_param);
  }
  if (!s.loop && s.kind != GraphStateKind::Machine) {
    w.key("loop");
    w.boolean(false);
  }
  w.end_object();
}

void write_transition(Writer& w, const GraphTransition& t) {
  w.begin_object(Layout::Inline);
  w.key("from");
  w.string(t.from);
  w.key("to");
  w.string(t.to);
  if (t.has_condition) {
    w.key("when");
    write_condition(w, t.condition);
  }
  if (t.duration != 0.2f) {
    w.key("duration");
    w.number(t.duration);
  }
  if (t.has_exit_time) {
    w.key("exitTime");
    w.number(t.exit_time);
  }
  if (t.priority != 0) {
    w.key("priority");
    w.integer(t.priority);
  }
  if (!t.interruptible) {
    w.key("interruptible");
    w.boolean(false);
  }
  w.end_object();
}

void write_machine(Writer& w, const GraphMachine& m) {
  w.begin_object();
  w.key("entry");
  w.string(m.entry);
  w.key("states");
  w.begin_array();
  for (const GraphStateSource& s : m.states) write_state(w, s);
  w.end_array();
  if (!m.transitions.empty()) {
    w.key("transitions");
    w.begin_array();
    for (const GraphTransition& t : m.transitions) write_transition(w, t);
    w.end_array();
  }
  w.end_object();
}

void write_parameter(Writer& w, const GraphParameter& p) {
  w.begin_object(Layout::Inline);
  w.key("name");
  w.string(p.name);
  w.key("type");
  w.string(to_string(p.type));
  if (p.default_value != 0) {
    w.key("default");
    switch (p.type) {
      case ParamType::Float: w.number(p.default_value); break;
      case ParamType::Int: w.integer(static_cast<std::int64_t>(std::lround(p.default_value))); break;
      case ParamType::Bool:
      case ParamType::Trigger: w.boolean(true); break;
    }
  }
  w.end_object();
}

void write_layer(Writer& w, const GraphLayerSource& l) {
  w.begin_object();
  w.key("name");
  w.string(l.name);
  if (l.weight != 1) {
    w.key("weight");
    w.number(l.weight);
  }
  if (l.blend != anim::ClipBlend::Replace) {
    w.key("blend");
    w.string("additive");
  }
  if (!l.mask.empty()) {
    w.key("mask");
    w.begin_array(Layout::Inline);
    for (const std::string& bone : l.mask) w.string(bone);
    w.end_array();
  }
  w.key("machine");
  write_machine(w, l.machine);
  w.end_object();
}

}  // namespace

Expected<GraphSource> read_graph(std::string_view text, const std::string& file) {
  Expected<json::Value> doc = json::parse(text, file);
  if (!doc) return Unexpected{doc.error()};
  try {
    return Reader().read(Node(*doc, "", file));
  } catch (const json::ReadError& e) {
    return Unexpected{e.error};
  }
}

Expected<GraphSource> read_graph_file(const std::string& path) {
  Expected<std::string> text = read_file(path);
  if (!text) return Unexpected{text.error()};
  return read_graph(*text, path);
}

std::string write_graph(const GraphSource& g) {
  Writer w;
  w.begin_object();
  w.key("format");
  w.integer(g.format);
  w.key("uid");
  w.string(g.uid);
  w.key("type");
  w.string(kGraphType);
  if (!g.skeleton_uid.empty()) {
    w.key("skeleton");
    w.begin_object(Layout::Inline);
    w.key("uid");
    w.string(g.skeleton_uid);
    w.key("path");
    w.string(g.skeleton_path);
    w.end_object();
  }
  if (!g.parameters.empty()) {
    w.key("parameters");
    w.begin_array();
    for (const GraphParameter& p : g.parameters) write_parameter(w, p);
    w.end_array();
  }
  w.key("layers");
  w.begin_array();
  for (const GraphLayerSource& l : g.layers) write_layer(w, l);
  w.end_array();
  w.end_object();
  return w.finish();
}

Status save_graph(const GraphSource& graph, const std::string& path) { return write_file_atomic(path, write_graph(graph)); }

}  // namespace mf::offline
