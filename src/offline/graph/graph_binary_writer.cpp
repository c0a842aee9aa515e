// AnimationGraph → the binary that mf::anim::load_graph_binary reads. Field by field, little-endian,
// in the order graph_binary.cpp reads them.

#include "mf/anim/graph_binary.hpp"
#include "mf/core/byte_writer.hpp"
#include "mf/offline/graph/graph_compiler.hpp"

namespace mf::offline {

std::vector<std::uint8_t> write_graph_binary(const anim::AnimationGraph& g) {
  ByteWriter w;
  for (char c : anim::kGraphBinaryMagic) w.u8(static_cast<std::uint8_t>(c));
  w.u32(anim::kGraphBinaryVersion);
  w.str(g.uid);
  w.str(g.name);
  w.count(g.params.size());
  for (const anim::GraphParam& p : g.params) {
    w.str(p.name);
    w.enumeration(p.type);
    w.f32(p.default_value);
  }
  w.count(g.layers.size());
  for (const anim::GraphLayer& l : g.layers) {
    w.str(l.name);
    w.f32(l.weight);
    w.enumeration(l.blend);
    w.i32(l.machine);
    w.count(l.mask_bones.size());
    for (const std::string& b : l.mask_bones) w.str(b);
  }
  w.count(g.machines.size());
  for (const anim::StateMachine& m : g.machines) {
    w.str(m.name);
    w.u32(m.state_first);
    w.u32(m.state_count);
    w.i32(m.entry);
    w.u32(m.transition_first);
    w.u32(m.transition_count);
  }
  w.count(g.states.size());
  for (const anim::GraphState& s : g.states) {
    w.str(s.name);
    w.enumeration(s.kind);
    w.str(s.clip);
    w.f32(s.speed);
    w.i32(s.speed_param);
    w.flag(s.loop);
    w.u32(s.member_first);
    w.u32(s.member_count);
    w.i32(s.param_x);
    w.i32(s.param_y);
    w.u32(s.triangle_first);
    w.u32(s.triangle_count);
    w.u32(s.hull_first);
    w.u32(s.hull_count);
    w.i32(s.machine);
  }
  w.count(g.transitions.size());
  for (const anim::Transition& t : g.transitions) {
    w.i32(t.from);
    w.i32(t.to);
    w.i32(t.condition);
    w.f32(t.duration);
    w.flag(t.has_exit_time);
    w.f32(t.exit_time);
    w.i32(t.priority);
    w.flag(t.interruptible);
  }
  w.count(g.conditions.size());
  for (const anim::ConditionNode& c : g.conditions) {
    w.enumeration(c.kind);
    w.enumeration(c.op);
    w.i32(c.param);
    w.f32(c.value);
    w.u32(c.first_child);
    w.u32(c.child_count);
  }
  w.count(g.condition_children.size());
  for (std::uint32_t c : g.condition_children) w.u32(c);
  w.count(g.members.size());
  for (const anim::BlendMember& m : g.members) {
    w.str(m.clip);
    w.f32(m.x);
    w.f32(m.y);
    w.f32(m.speed);
  }
  w.count(g.triangles.size());
  for (const anim::Triangle& t : g.triangles) {
    w.u32(t.a);
    w.u32(t.b);
    w.u32(t.c);
  }
  w.count(g.hull_edges.size());
  for (const anim::HullEdge& e : g.hull_edges) {
    w.u32(e.a);
    w.u32(e.b);
  }
  return w.take_vector();
}

}  // namespace mf::offline
