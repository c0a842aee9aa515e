// The graph binary loader: untrusted bytes in, a validated AnimationGraph out. The reader never reads
// past the end (each read checks what is left) and checks every array's count against the bytes left
// times the smallest size of one record before it reserves anything, so a forged count cannot make it
// allocate more than the file could hold. After the first problem every read returns zero and the
// error names the byte offset where it happened.

#include "mf/anim/graph_binary.hpp"

#include <bit>
#include <cmath>
#include <cstring>

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

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  bool failed() const { return !message_.empty(); }
  const std::string& message() const { return message_; }
  std::size_t left() const { return bytes_.size() - pos_; }

  void fail(const std::string& what) { fail_at(pos_, what); }
  // A problem with the value that starts at byte `at`.
  void fail_at(std::size_t at, const std::string& what) {
    if (failed()) return;
    message_ = "at byte " + std::to_string(at) + ": " + what;
  }

  bool take(void* out, std::size_t n, const char* what) {
    if (failed()) return false;
    if (n > left()) {
      fail(std::string("file ends inside ") + what + " (needs " + std::to_string(n) + " bytes, " +
           std::to_string(left()) + " left)");
      return false;
    }
    std::memcpy(out, bytes_.data() + pos_, n);
    pos_ += n;
    return true;
  }

  std::uint32_t u32(const char* what) {
    std::uint8_t b[4] = {};
    if (!take(b, 4, what)) return 0;
    return std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 | std::uint32_t(b[3]) << 24;
  }
  std::int32_t i32(const char* what) { return static_cast<std::int32_t>(u32(what)); }
  std::uint8_t u8(const char* what) {
    std::uint8_t b = 0;
    take(&b, 1, what);
    return b;
  }
  float f32(const char* what) {
    const std::size_t at = pos_;
    const float v = std::bit_cast<float>(u32(what));
    if (!failed() && !std::isfinite(v)) fail_at(at, std::string(what) + " is not a finite number");
    return failed() ? 0.0f : v;
  }
  bool boolean(const char* what) {
    const std::size_t at = pos_;
    const std::uint8_t v = u8(what);
    if (v > 1) fail_at(at, std::string(what) + " must be 0 or 1, found " + std::to_string(v));
    return v == 1;
  }
  // An enum stored as u8 with values 0 … last.
  template <class E>
  E enumeration(const char* what, E last) {
    const std::size_t at = pos_;
    const std::uint8_t v = u8(what);
    if (v > static_cast<std::uint8_t>(last)) fail_at(at, std::string(what) + " has unknown value " + std::to_string(v));
    return failed() ? E{} : static_cast<E>(v);
  }
  std::string str(const char* what) {
    const std::size_t at = pos_;
    const std::uint32_t n = u32(what);
    if (failed()) return {};
    if (n > left()) {
      fail_at(at, std::string(what) + " is " + std::to_string(n) + " bytes long but only " + std::to_string(left()) +
           " bytes are left");
      return {};
    }
    std::string s(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
    pos_ += n;
    return s;
  }
  // An array count, checked against what the rest of the file can hold.
  std::size_t count(const char* what, std::size_t min_record) {
    const std::size_t at = pos_;
    const std::uint32_t n = u32(what);
    if (failed()) return 0;
    if (static_cast<std::uint64_t>(n) * min_record > left()) {
      fail_at(at, std::to_string(n) + " " + what + " need at least " + std::to_string(std::uint64_t(n) * min_record) +
           " bytes but only " + std::to_string(left()) + " are left");
      return 0;
    }
    return n;
  }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
  std::string message_;
};

void read_graph(ByteReader& r, AnimationGraph& g) {
  g.uid = r.str("uid");
  g.name = r.str("name");
  g.params.resize(r.count("parameters", kParamMin));
  for (GraphParam& p : g.params) {
    p.name = r.str("parameter name");
    p.type = r.enumeration("parameter type", ParamType::Trigger);
    p.default_value = r.f32("parameter default");
  }
  g.layers.resize(r.count("layers", kLayerMin));
  for (GraphLayer& l : g.layers) {
    l.name = r.str("layer name");
    l.weight = r.f32("layer weight");
    l.blend = r.enumeration("layer blend", ClipBlend::Additive);
    l.machine = r.i32("layer machine");
    l.mask_bones.resize(r.count("mask bones", kStringMin));
    for (std::string& b : l.mask_bones) b = r.str("mask bone");
  }
  g.machines.resize(r.count("machines", kMachineMin));
  for (StateMachine& m : g.machines) {
    m.name = r.str("machine name");
    m.state_first = r.u32("machine state_first");
    m.state_count = r.u32("machine state_count");
    m.entry = r.i32("machine entry");
    m.transition_first = r.u32("machine transition_first");
    m.transition_count = r.u32("machine transition_count");
  }
  g.states.resize(r.count("states", kStateMin));
  for (GraphState& s : g.states) {
    s.name = r.str("state name");
    s.kind = r.enumeration("state kind", StateKind::Machine);
    s.clip = r.str("state clip");
    s.speed = r.f32("state speed");
    s.speed_param = r.i32("state speed_param");
    s.loop = r.boolean("state loop");
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
  g.transitions.resize(r.count("transitions", kTransitionMin));
  for (Transition& t : g.transitions) {
    t.from = r.i32("transition from");
    t.to = r.i32("transition to");
    t.condition = r.i32("transition condition");
    t.duration = r.f32("transition duration");
    t.has_exit_time = r.boolean("transition has_exit_time");
    t.exit_time = r.f32("transition exit_time");
    t.priority = r.i32("transition priority");
    t.interruptible = r.boolean("transition interruptible");
  }
  g.conditions.resize(r.count("conditions", kConditionMin));
  for (ConditionNode& c : g.conditions) {
    c.kind = r.enumeration("condition kind", ConditionKind::Or);
    c.op = r.enumeration("condition op", ConditionOp::IsSet);
    c.param = r.i32("condition param");
    c.value = r.f32("condition value");
    c.first_child = r.u32("condition first_child");
    c.child_count = r.u32("condition child_count");
  }
  g.condition_children.resize(r.count("condition children", 4));
  for (std::uint32_t& c : g.condition_children) c = r.u32("condition child");
  g.members.resize(r.count("blend members", kMemberMin));
  for (BlendMember& m : g.members) {
    m.clip = r.str("member clip");
    m.x = r.f32("member x");
    m.y = r.f32("member y");
    m.speed = r.f32("member speed");
  }
  g.triangles.resize(r.count("triangles", 12));
  for (Triangle& t : g.triangles) {
    t.a = r.u32("triangle a");
    t.b = r.u32("triangle b");
    t.c = r.u32("triangle c");
  }
  g.hull_edges.resize(r.count("hull edges", 8));
  for (HullEdge& e : g.hull_edges) {
    e.a = r.u32("hull edge a");
    e.b = r.u32("hull edge b");
  }
}

}  // namespace

Expected<AnimationGraph> load_graph_binary(std::span<const std::uint8_t> bytes, const std::string& file) {
  auto error = [&](const std::string& message) { return Unexpected{Error{file, "", {}, message}}; };
  ByteReader r(bytes);
  char magic[4] = {};
  if (!r.take(magic, 4, "the magic") || std::memcmp(magic, kGraphBinaryMagic, 4) != 0)
    return error("not an animation graph binary (the file does not start with \"MFGR\")");
  const std::uint32_t version = r.u32("the version");
  if (r.failed()) return error(r.message());
  if (version != kGraphBinaryVersion)
    return error("unsupported graph binary version " + std::to_string(version) + "; this build reads " +
                 std::to_string(kGraphBinaryVersion));
  AnimationGraph g;
  read_graph(r, g);
  if (!r.failed() && r.left() != 0) r.fail(std::to_string(r.left()) + " unexpected bytes after the graph");
  if (r.failed()) return error(r.message());
  if (std::string problem = g.validate(); !problem.empty()) return error("invalid graph: " + problem);
  return g;
}

}  // namespace mf::anim
