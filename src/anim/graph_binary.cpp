// The graph binary loader: untrusted bytes in, a validated AnimationGraph out. mf::ByteReader never
// reads past the end (each read checks what is left) and checks every array's count against the bytes
// left times the smallest size of one record before anything is reserved, so a forged count cannot make
// it allocate more than the file could hold. After the first problem every read returns zero and the
// error names the byte offset where it happened.

#include "mf/anim/graph_binary.hpp"

#include <cmath>
#include <cstring>

#include "mf/core/byte_reader.hpp"

namespace mf::anim {
namespace {

// Smallest encoded size of one record of each array (strings empty).
constexpr std::size_t kStringMin = 4;
constexpr std::size_t kParamMin = kStringMin + 1 + 4;
constexpr std::size_t kLayerMin = kStringMin + 4 + 1 + 4 + 4;
constexpr std::size_t kMachineMin = kStringMin + 5 * 4;
constexpr std::size_t kStateMin = kStringMin + 1 + kStringMin + 4 + 4 + 1 + 9 * 4;
constexpr std::size_t kTransitionMin = 4 * 3 + 4 + 1 + 4 + 4 + 1;
constexpr std::size_t kConditionMin = 1 + 1 + 4 + 4 + 4 + 4;
constexpr std::size_t kMemberMin = kStringMin + 3 * 4;

// A float that must be finite; 0 after a problem.
float finite(ByteReader& r, const char* what) {
  const std::size_t at = r.position();
  const float v = r.f32(what);
  if (r.ok() && !std::isfinite(v)) r.fail_at(at, what, std::string(what) + " is not a finite number");
  return r.ok() ? v : 0.0f;
}

// An enum stored as u8 with values 0 … last; E{} after a problem.
template <class E>
E enumeration(ByteReader& r, const char* what, E last) {
  return r.enumeration<E>(static_cast<unsigned>(last) + 1, what);
}

void read_graph(ByteReader& r, AnimationGraph& g) {
  g.uid = r.str("uid");
  g.name = r.str("name");
  g.params.resize(r.count(kParamMin, "parameters"));
  for (GraphParam& p : g.params) {
    p.name = r.str("parameter name");
    p.type = enumeration(r, "parameter type", ParamType::Trigger);
    p.default_value = finite(r, "parameter default");
  }
  g.layers.resize(r.count(kLayerMin, "layers"));
  for (GraphLayer& l : g.layers) {
    l.name = r.str("layer name");
    l.weight = finite(r, "layer weight");
    l.blend = enumeration(r, "layer blend", ClipBlend::Additive);
    l.machine = r.i32("layer machine");
    l.mask_bones.resize(r.count(kStringMin, "mask bones"));
    for (std::string& b : l.mask_bones) b = r.str("mask bone");
  }
  g.machines.resize(r.count(kMachineMin, "machines"));
  for (StateMachine& m : g.machines) {
    m.name = r.str("machine name");
    m.state_first = r.u32("machine state_first");
    m.state_count = r.u32("machine state_count");
    m.entry = r.i32("machine entry");
    m.transition_first = r.u32("machine transition_first");
    m.transition_count = r.u32("machine transition_count");
  }
  g.states.resize(r.count(kStateMin, "states"));
  for (GraphState& s : g.states) {
    s.name = r.str("state name");
    s.kind = enumeration(r, "state kind", StateKind::Machine);
    s.clip = r.str("state clip");
    s.speed = finite(r, "state speed");
    s.speed_param = r.i32("state speed_param");
    s.loop = r.flag("state loop");
    s.member_first = r.u32("state member_first");
    s.member_count = r.u32("state member_count");
    s.param_x = r.i32("state param_x");
    s.param_y = r.i32("state param_y");
    s.triangle_first = r.u32("state triangle_first");
    s.triangle_count = r.u32("state triangle_count");
    s.hull_first = r.u32("state hull_first");
    s.hull_count = r.u32("state hull_count");
    s.machine = r.i32("state machine");
  }
  g.transitions.resize(r.count(kTransitionMin, "transitions"));
  for (Transition& t : g.transitions) {
    t.from = r.i32("transition from");
    t.to = r.i32("transition to");
    t.condition = r.i32("transition condition");
    t.duration = finite(r, "transition duration");
    t.has_exit_time = r.flag("transition has_exit_time");
    t.exit_time = finite(r, "transition exit_time");
    t.priority = r.i32("transition priority");
    t.interruptible = r.flag("transition interruptible");
  }
  g.conditions.resize(r.count(kConditionMin, "conditions"));
  for (ConditionNode& c : g.conditions) {
    c.kind = enumeration(r, "condition kind", ConditionKind::Or);
    c.op = enumeration(r, "condition op", ConditionOp::IsSet);
    c.param = r.i32("condition param");
    c.value = finite(r, "condition value");
    c.first_child = r.u32("condition first_child");
    c.child_count = r.u32("condition child_count");
  }
  g.condition_children.resize(r.count(4, "condition children"));
  for (std::uint32_t& c : g.condition_children) c = r.u32("condition child");
  g.members.resize(r.count(kMemberMin, "blend members"));
  for (BlendMember& m : g.members) {
    m.clip = r.str("member clip");
    m.x = finite(r, "member x");
    m.y = finite(r, "member y");
    m.speed = finite(r, "member speed");
  }
  g.triangles.resize(r.count(12, "triangles"));
  for (Triangle& t : g.triangles) {
    t.a = r.u32("triangle a");
    t.b = r.u32("triangle b");
    t.c = r.u32("triangle c");
  }
  g.hull_edges.resize(r.count(8, "hull edges"));
  for (HullEdge& e : g.hull_edges) {
    e.a = r.u32("hull edge a");
    e.b = r.u32("hull edge b");
  }
}

}  // namespace

Expected<AnimationGraph> load_graph_binary(std::span<const std::uint8_t> bytes, const std::string& file) {
  auto error = [&](const std::string& message) { return Unexpected{Error{file, "", {}, message}}; };
  auto read_error = [&](const ByteReader& r) { return error("at byte " + std::to_string(r.error().offset) + ": " + r.error().message); };
  ByteReader r(bytes);
  const std::span<const std::uint8_t> magic = r.bytes(4, "the magic");
  if (r.failed() || std::memcmp(magic.data(), kGraphBinaryMagic, 4) != 0)
    return error("not an animation graph binary (the file does not start with \"MFGR\")");
  const std::uint32_t version = r.u32("the version");
  if (r.failed()) return read_error(r);
  if (version != kGraphBinaryVersion)
    return error("unsupported graph binary version " + std::to_string(version) + "; this build reads " +
                 std::to_string(kGraphBinaryVersion));
  AnimationGraph g;
  read_graph(r, g);
  if (r.ok() && r.remaining() != 0) r.fail("", std::to_string(r.remaining()) + " unexpected bytes after the graph");
  if (r.failed()) return read_error(r);
  if (std::string problem = g.validate(); !problem.empty()) return error("invalid graph: " + problem);
  return g;
}

}  // namespace mf::anim
