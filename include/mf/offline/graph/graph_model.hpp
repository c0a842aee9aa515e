#pragma once
// An animation graph as the `.mgraph` source file holds it: parameters, layers and their state
// machines, with everything named (states, clips, parameters, mask bones). Nested state machines
// are kept nested here; the compiler (graph_compiler.hpp) flattens them into the runtime's
// AnimationGraph and resolves the names. docs/format-mgraph.md describes the file.
//
// The reader records where each record came from (a SourceLocation) so that `mfe skel graph check` can
// point at it; a graph built in code leaves those empty, and the writer ignores them.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mf/anim/animation_graph.hpp"
#include "mf/core/error.hpp"
#include "mf/offline/json/source_location.hpp"

namespace mf::offline {

inline constexpr std::string_view kGraphUidPrefix = "agr_";
inline constexpr int kGraphFormatVersion = 1;

// Reserved names in transitions: "*" (from any state) and "exit" (leave a nested machine).
inline constexpr std::string_view kAnyStateName = "*";
inline constexpr std::string_view kExitStateName = "exit";

// Where the reader found a record (json::SourceLocation): its JSON path and position.
using json::SourceLocation;

struct GraphParameter {
  std::string name;
  anim::ParamType type = anim::ParamType::Float;
  float default_value = 0;  // Int: a whole number; Bool and Trigger: 0 or 1
  SourceLocation source;
};

// A condition as the file writes it: a test of one parameter, or an and/or of sub-conditions.
//   Compare: {"param": name, "op": ">", "value": v}   op is Greater … NotEqual
//   Is:      {"param": name, "is": true}              op is IsTrue or IsFalse
//   Trigger: {"trigger": name}                        op is IsSet
enum class ConditionForm : std::uint8_t { Compare, Is, Trigger, And, Or };

struct GraphCondition {
  ConditionForm form = ConditionForm::Compare;
  std::string param;
  anim::ConditionOp op = anim::ConditionOp::Greater;
  float value = 0;                        // Compare only
  std::vector<GraphCondition> children;   // And / Or: at least one
  SourceLocation source;
};

struct GraphTransition {
  std::string from;                       // a state of the same machine, or "*"
  std::string to;                         // a state of the same machine, or "exit"
  bool has_condition = false;
  GraphCondition condition;               // when has_condition
  float duration = 0.2f;                  // crossfade seconds, >= 0
  bool has_exit_time = false;
  float exit_time = 1;                    // fraction of the source state's length, >= 0
  std::int32_t priority = 0;              // lower is tested first; ties keep file order
  bool interruptible = true;
  SourceLocation source;
};

// A clip placed in a blend space: at x (1D) or (x, y) (2D).
struct GraphBlendMember {
  std::string clip;
  float x = 0, y = 0;
  float speed = 1;
  SourceLocation source;
};

enum class GraphStateKind : std::uint8_t { Clip, Blend1D, Blend2D, Machine };

struct GraphStateSource;  // a machine holds states, a Machine state holds a machine

struct GraphMachine {
  std::string entry;                      // the state entered first
  std::vector<GraphStateSource> states;
  std::vector<GraphTransition> transitions;
  SourceLocation source;
};

struct GraphStateSource {
  std::string name;
  GraphStateKind kind = GraphStateKind::Clip;
  std::string clip;                       // Clip
  std::string param_x, param_y;           // Blend1D: param_x; Blend2D: both
  std::vector<GraphBlendMember> members;  // blend spaces, in file order
  GraphMachine machine;                   // Machine
  float speed = 1;                        // playback rate, all kinds
  std::string speed_param;                // optional Float parameter multiplying the speed
  bool loop = true;                       // Clip and blend spaces
  SourceLocation source;
  SourceLocation blend_source;            // the "blend1d" / "blend2d" object
};

struct GraphLayerSource {
  std::string name;
  float weight = 1;                       // 0 … 1
  anim::ClipBlend blend = anim::ClipBlend::Replace;
  std::vector<std::string> mask;          // bone names; empty: every bone
  std::vector<SourceLocation> mask_sources;  // per mask entry (reader only)
  GraphMachine machine;
  SourceLocation source;
};

struct GraphSource {
  int format = kGraphFormatVersion;
  std::string uid;                        // "agr_" + 12 hex digits
  std::string skeleton_uid;               // optional hint: the rig the graph was made for
  std::string skeleton_path;              // relative to the .mgraph's folder
  std::vector<GraphParameter> parameters;
  std::vector<GraphLayerSource> layers;         // layer 0 is the base
};

// The file names of types and operators as the format writes them.
std::string_view to_string(anim::ParamType type);
std::string_view to_string(anim::ConditionOp op);  // ">", "<", ">=", "<=", "==", "!="; "is"/"trigger" forms otherwise

}  // namespace mf::offline
