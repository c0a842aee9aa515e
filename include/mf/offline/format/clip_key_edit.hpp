#pragma once
// One key of a clip, addressed as `mfe skel key` and its --keys files name it: a target (a bone, a
// slot, a constraint of one kind, or an event), one of the target's timelines, a time and a value.
// An edit adds, replaces or removes that key in any timeline but deform and draw order, and leaves
// the clip in canonical order (docs/cli-clips.md lists the syntax, docs/format-manim.md the values).

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mf/offline/format/clip_model.hpp"

namespace mf::offline {

enum class KeyTarget : std::uint8_t { Bone, Slot, Ik, Transform, Path, Physics, Event };

// "bone", "slot", "ik", "transform", "path", "physics", "event": the option (--bone) and the --keys
// field that name the target.
inline constexpr std::array<std::string_view, 7> kKeyTargetNames = {"bone", "slot",    "ik",   "transform",
                                                                     "path", "physics", "event"};
std::string_view to_string(KeyTarget target);

// What one key of a timeline holds.
enum class KeyKind : std::uint8_t {
  Curve,         // numbers of a CurveTimeline with a "v" array: bone transforms, slot colours, physics
  Channel,       // one named array of an ik, transform or path timeline ("mix", "mixRotate", ...)
  Inherit,       // bones.<b>.inherit: a mode name
  Attachment,    // slots.<s>.attachment: a name or none
  Sequence,      // slots.<s>.sequence: mode, index, delay
  PhysicsReset,  // physics.<c>.reset: a time alone
  Event,         // events: a name and its payload overrides
};

struct KeyTimeline {
  KeyTarget target = KeyTarget::Bone;
  KeyKind kind = KeyKind::Curve;
  CurveKind curve = CurveKind::Rotate;  // Curve and Channel
  int channel = -1;                     // Channel: the component in the constraint's layout
  std::string_view name;                // "rotate", "mix", "reset"; empty for events

  // Whether the segment from a key takes a curve (interpolated values).
  bool curved() const;
  // Floats a Curve or Channel key holds: the layout's components, or 1 for a channel.
  int value_count() const;
};

// The timeline names a target takes, in the format's order; empty for events.
std::vector<std::string_view> key_timeline_names(KeyTarget target);
// The target's timeline of this name; nullopt when it has none. An event takes the empty name.
std::optional<KeyTimeline> find_key_timeline(KeyTarget target, std::string_view name);

struct KeyEdit {
  std::string name;  // the bone, slot, constraint or event
  KeyTimeline timeline;
  float t = 0;
  bool remove = false;  // remove the key at t (none within kKeyTimeEpsilon is an error)
  // The value, by the timeline's kind:
  std::vector<float> values;              // Curve: every component; Channel: one (bend ±1, booleans 0 / 1)
  std::optional<std::string> attachment;  // Attachment: nullopt hides the slot's attachment
  Inherit inherit = Inherit::Normal;
  SequenceKey sequence;
  EventKeySource event;                   // Event: the payload overrides (event.name is ignored: `name` is it)
  // The curve of the key's segment: empty keeps or defaults it (set_bone_key's rules); one curve for
  // every interpolated component the edit sets; or one per interpolated component of a Curve timeline.
  std::vector<Curve> curve;
};

// The part of an edit a failure is about, for messages that name the option or --keys field.
enum class KeyField : std::uint8_t { Target, Timeline, Time, Value, Curve };

struct KeyEditFailure {
  KeyField field = KeyField::Target;
  std::string message;  // one sentence, with what to do about it
};

enum class KeyChange : std::uint8_t { Added, Replaced, Removed };

struct KeyEditOutcome {
  KeyChange change = KeyChange::Added;
  std::size_t keys = 0;  // the timeline's keys afterwards (an event timeline: keys of that event)
};

struct KeyEditResult {
  std::optional<KeyEditFailure> failure;
  KeyEditOutcome outcome;  // when no failure
};

// The JSON path of the edited timeline in the .manim: "bones.arm_l.rotate", "ik.leg_l_ik.mix",
// "physics.hair.reset", "events".
std::string key_timeline_path(const KeyEdit& edit);

// Applies one edit. With a skeleton, the target must exist in it (the message lists the names there
// are), an attachment key must name an attachment some skin has for the slot, and a constraint
// channel keyed for the first time in a timeline that keys other channels gets the constraint's setup
// value at the other keys (without a skeleton, the new value). Values are checked as the reader checks
// them (finite numbers, alpha and volume in [0, 1], balance in [−1, 1], bend ±1), the time must be in
// [0, length], curves must be valid beziers, and a stepped timeline takes no curve. On failure the
// clip is unchanged. `rig` names the skeleton's file in messages.
KeyEditResult apply_key_edit(ClipSource& clip, const KeyEdit& edit, const SkeletonSource* skeleton,
                             std::string_view rig = {});

// Applies edits in order, as one change: stops at the first that fails (its result is the last one
// returned; the clip is then partly edited, so the caller drops it). Curves are set once every key is
// in place, so that the order of the edits does not matter for them: an edit's curve shapes the
// segment that starts at its key; for the timeline's last key, the segment that ends at it, unless
// the key before it has a curve in the same call (which then wins).
std::vector<KeyEditResult> apply_key_edits(ClipSource& clip, std::span<const KeyEdit> edits,
                                           const SkeletonSource* skeleton, std::string_view rig = {});

}  // namespace mf::offline
