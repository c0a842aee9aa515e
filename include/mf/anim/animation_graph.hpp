#pragma once
// AnimationGraph: a compiled animation graph (state machines with parameters, transitions, blend
// spaces and layers), as the runtime player reads it. Made from a `.mgraph` by the offline compiler
// (mf::offline) or loaded from its binary form (graph_binary.hpp). Skeleton-agnostic: clips and
// mask bones are kept by name and resolved when a player is bound to a skeleton's clips and bones.
//
// Every array is flat; records point into them with (first, count) ranges, indices are into the
// arrays of this struct. Nothing here changes after load.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mf/anim/clip_sample.hpp"

namespace mf::anim {

enum class ParamType : std::uint8_t { Float, Int, Bool, Trigger };

struct GraphParam {
  std::string name;
  ParamType type = ParamType::Float;
  float default_value = 0;  // Int: a whole number; Bool and Trigger: 0 or 1
};

// A test of one parameter. Float and Int compare with `value`; Bool tests IsTrue / IsFalse;
// Trigger tests IsSet (and consumes the trigger when the transition fires).
enum class ConditionOp : std::uint8_t { Greater, Less, GreaterEqual, LessEqual, Equal, NotEqual, IsTrue, IsFalse, IsSet };

// A condition expression as a tree: a Leaf tests a parameter; And / Or combine the nodes
// children[first_child … first_child + child_count) (a range of GraphData::condition_children).
enum class ConditionKind : std::uint8_t { Leaf, And, Or };
struct ConditionNode {
  ConditionKind kind = ConditionKind::Leaf;
  ConditionOp op = ConditionOp::IsTrue;
  std::int32_t param = -1;
  float value = 0;
  std::uint32_t first_child = 0, child_count = 0;
};

inline constexpr std::int32_t kAnyState = -1;   // Transition::from: fires from whichever state is current
inline constexpr std::int32_t kExitState = -2;  // Transition::to: leaves the state machine (back to its parent)

struct Transition {
  std::int32_t from = kAnyState;      // state index (GraphData::states), or kAnyState
  std::int32_t to = 0;                // state index, or kExitState
  std::int32_t condition = -1;        // root node in GraphData::conditions; −1: no condition
  float duration = 0.2f;              // crossfade seconds
  bool has_exit_time = false;
  float exit_time = 1;                // fraction of the source state's length; > 1 waits for later loops
  std::int32_t priority = 0;          // lower is tested first; ties keep file order
  bool interruptible = true;          // while it runs, another transition may take over
};

enum class StateKind : std::uint8_t { Clip, BlendSpace1D, BlendSpace2D, Machine };

// A blend-space member: a clip placed at (x, y) in the parameter space (y unused in 1D).
struct BlendMember {
  std::string clip;
  float x = 0, y = 0;
  float speed = 1;
};

struct Triangle {
  std::uint32_t a = 0, b = 0, c = 0;  // member indices within the state's members
};

struct GraphState {
  std::string name;
  StateKind kind = StateKind::Clip;
  std::string clip;                    // Clip
  float speed = 1;                     // playback rate (all kinds)
  std::int32_t speed_param = -1;       // optional Float parameter multiplying the speed
  bool loop = true;                    // Clip and blend spaces
  std::uint32_t member_first = 0, member_count = 0;      // blend spaces: into members (1D: sorted by x)
  std::int32_t param_x = -1, param_y = -1;               // blend spaces: Float/Int parameters
  std::uint32_t triangle_first = 0, triangle_count = 0;  // 2D: Delaunay triangles, into triangles
  std::uint32_t hull_first = 0, hull_count = 0;          // 2D: convex hull edges, into hull_edges
  std::int32_t machine = -1;           // Machine: index into machines
};

// A hull edge of a 2D blend space: member indices (within the state) in counter-clockwise order.
struct HullEdge {
  std::uint32_t a = 0, b = 0;
};

struct StateMachine {
  std::string name;
  std::uint32_t state_first = 0, state_count = 0;            // its states: a contiguous range of states
  std::int32_t entry = 0;                                    // state index entered first
  std::uint32_t transition_first = 0, transition_count = 0;  // its transitions, sorted by priority (stable)
};

struct GraphLayer {
  std::string name;
  float weight = 1;
  ClipBlend blend = ClipBlend::Replace;
  std::int32_t machine = 0;              // root state machine
  std::vector<std::string> mask_bones;   // empty: every bone; otherwise these bones only
};

struct AnimationGraph {
  std::string uid;  // "agr_…"
  std::string name;
  std::vector<GraphParam> params;
  std::vector<GraphLayer> layers;       // layer 0 is the base
  std::vector<StateMachine> machines;
  std::vector<GraphState> states;
  std::vector<Transition> transitions;
  std::vector<ConditionNode> conditions;
  std::vector<std::uint32_t> condition_children;  // node indices
  std::vector<BlendMember> members;
  std::vector<Triangle> triangles;
  std::vector<HullEdge> hull_edges;

  int find_param(std::string_view name) const;  // −1 when missing
  // Checks the cross-references (every index in range, ranges inside their arrays, a machine's
  // transitions only between its own states, no machine nesting itself): the player relies on this,
  // and the binary loader runs it on untrusted bytes. The message names the first bad record.
  std::string validate() const;  // empty when valid
};

}  // namespace mf::anim
