#pragma once
// One clip as the `.manim` source file holds it. A clip is its own file and names what it animates
// (bones, slots, constraints, skins, attachments, events) by name; those names are checked against
// a skeleton when one is given to the reader.
//
// Values of bone timelines are relative to the setup pose: rotate, translate and shear keys add to the
// setup values, scale keys multiply them. Slot and constraint values are absolute.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mf/offline/format/skeleton_model.hpp"

namespace mf::offline {

enum class CurveType : std::uint8_t { Linear, Stepped, Bezier };

// Interpolation of one segment between two keys. Bezier control points are normalised to the segment:
// x is the time fraction (0..1 for a valid curve), y the value fraction (free).
struct Curve {
  CurveType type = CurveType::Linear;
  float cx1 = 0, cy1 = 0, cx2 = 1, cy2 = 1;  // Bezier only

  static constexpr Curve linear() { return {}; }
  static constexpr Curve stepped() { return {CurveType::Stepped, 0, 0, 1, 1}; }
  static constexpr Curve bezier(float x1, float y1, float x2, float y2) { return {CurveType::Bezier, x1, y1, x2, y2}; }
  friend bool operator==(const Curve&, const Curve&) = default;
};

// The kinds of timeline whose keys are numbers (some components interpolated, some stepped).
enum class CurveKind : std::uint8_t {
  // bone
  Rotate, Translate, TranslateX, TranslateY, Scale, ScaleX, ScaleY, Shear, ShearX, ShearY,
  // slot
  Rgba, Rgb, Alpha, Rgba2, Rgb2,
  // constraint
  Ik, Transform, Path,
  PhysicsInertia, PhysicsStrength, PhysicsDamping, PhysicsMass, PhysicsWind, PhysicsGravity, PhysicsMix,
};

enum class TimelineTarget : std::uint8_t { Bone, Slot, Ik, Transform, Path, Physics };

// What a kind of timeline keys. Components [0, curved) interpolate along the segment's curve(s);
// components [curved, size) are stepped. For Ik, Transform and Path each component is a named array
// in the file and may be left out (see CurveTimeline::channels).
struct CurveLayout {
  CurveKind kind;
  TimelineTarget target;
  std::string_view name;  // the JSON key: "rotate", "rgba", "inertia", ...
  int components;
  int curved;
  std::span<const std::string_view> channel_names;  // named arrays (Ik, Transform, Path); empty otherwise
};

const CurveLayout& layout(CurveKind kind);
std::span<const CurveLayout> all_curve_layouts();
// The layout whose target and JSON name match, or nullptr.
const CurveLayout* find_layout(TimelineTarget target, std::string_view name);

struct CurveTimeline {
  CurveKind kind = CurveKind::Rotate;
  std::string target;            // bone, slot or constraint name
  std::uint32_t channels = ~0u;  // bit c set: component c is keyed (only Ik, Transform, Path leave any out)
  std::vector<float> times;      // strictly increasing, seconds
  std::vector<float> values;     // times.size() × components, key-major; unkeyed channels hold 0
  std::vector<Curve> curves;     // (times.size() − 1) × curved, segment-major; a shared curve is repeated

  std::size_t key_count() const { return times.size(); }
  bool keyed(int component) const { return (channels >> component) & 1u; }
  friend bool operator==(const CurveTimeline&, const CurveTimeline&) = default;
};

struct InheritTimeline {
  std::string bone;
  std::vector<float> times;
  std::vector<Inherit> values;
  friend bool operator==(const InheritTimeline&, const InheritTimeline&) = default;
};

struct AttachmentTimeline {
  std::string slot;
  std::vector<float> times;
  std::vector<std::optional<std::string>> names;  // nullopt hides the slot's attachment
  friend bool operator==(const AttachmentTimeline&, const AttachmentTimeline&) = default;
};

using skel::SequenceMode;

struct SequenceKey {
  SequenceMode mode = SequenceMode::Hold;
  int index = 0;     // frame to start from
  float delay = 0;   // seconds per frame
  friend bool operator==(const SequenceKey&, const SequenceKey&) = default;
};

struct SequenceTimeline {
  std::string slot;
  std::vector<float> times;
  std::vector<SequenceKey> keys;
  friend bool operator==(const SequenceTimeline&, const SequenceTimeline&) = default;
};

// Sparse deform: the floats `values` replace nothing; they are offsets added to the vertex floats
// starting at float index `offset` (x, y per vertex, in each vertex's own space). Floats outside the
// range are zero.
struct DeformKeySource {
  int offset = 0;
  std::vector<float> values;
  friend bool operator==(const DeformKeySource&, const DeformKeySource&) = default;
};

struct DeformTimeline {
  std::string skin, slot, attachment;
  std::vector<float> times;
  std::vector<DeformKeySource> keys;
  std::vector<Curve> curves;  // one per segment
  friend bool operator==(const DeformTimeline&, const DeformTimeline&) = default;
};

struct PhysicsResetTimeline {
  std::string constraint;
  std::vector<float> times;
  friend bool operator==(const PhysicsResetTimeline&, const PhysicsResetTimeline&) = default;
};

// A draw-order key: slots moved relative to the setup order (["glow", -1] draws glow one earlier).
// An empty list restores the setup order.
struct DrawOrderMove {
  std::string slot;
  int offset = 0;
  friend bool operator==(const DrawOrderMove&, const DrawOrderMove&) = default;
};

struct DrawOrderTimeline {
  std::vector<float> times;
  std::vector<std::vector<DrawOrderMove>> keys;
  bool empty() const { return times.empty(); }
  friend bool operator==(const DrawOrderTimeline&, const DrawOrderTimeline&) = default;
};

// An event key; unset payload fields take the event definition's defaults.
struct EventKeySource {
  std::string name;
  std::optional<int> int_value;
  std::optional<float> float_value;
  std::optional<std::string> string_value;
  std::optional<float> volume;
  std::optional<float> balance;
  friend bool operator==(const EventKeySource&, const EventKeySource&) = default;
};

struct EventTimeline {
  std::vector<float> times;  // non-decreasing: several events may share a time
  std::vector<EventKeySource> keys;
  bool empty() const { return times.empty(); }
  friend bool operator==(const EventTimeline&, const EventTimeline&) = default;
};

using skel::LoopMode;

inline constexpr int kClipFormatVersion = 1;

// Timelines are kept in canonical order (see sort_timelines): by target group, target name (byte
// order) and kind. The reader returns them sorted and the writer writes them in that order.
struct ClipSource {
  int format = kClipFormatVersion;
  std::string uid;            // "anm_" + 12 lower-case hex digits
  std::string skeleton_uid;   // the skeleton this clip animates
  std::string skeleton_path;  // a hint for tools, relative to the project
  float length = 0;           // seconds
  int fps = 30;               // editor snapping rate
  LoopMode loop = LoopMode::Linear;

  std::vector<CurveTimeline> curves;
  std::vector<InheritTimeline> inherits;
  std::vector<AttachmentTimeline> attachments;
  std::vector<SequenceTimeline> sequences;
  std::vector<DeformTimeline> deforms;
  std::vector<PhysicsResetTimeline> physics_resets;
  DrawOrderTimeline draw_order;
  EventTimeline events;

  // Where each value of the .manim was (read_clip fills it; empty for a clip built in code), for
  // line:column in the builder's and the checks' messages. Not part of the clip's value.
  json::SourceMap positions;

  friend bool operator==(const ClipSource&, const ClipSource&) = default;
};

// Puts every timeline list of `clip` into canonical order.
void sort_timelines(ClipSource& clip);

const char* to_string(CurveType v);
const char* to_string(SequenceMode v);
const char* to_string(LoopMode v);
std::optional<SequenceMode> parse_sequence_mode(std::string_view s);
std::optional<LoopMode> parse_loop_mode(std::string_view s);

}  // namespace mf::offline
