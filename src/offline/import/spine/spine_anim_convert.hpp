#pragma once
// The Spine animation converter, shared by its parts: spine_animations.cpp (the walk, bones, slots,
// draw order, events), spine_anim_constraints.cpp (ik, transform, path, physics) and
// spine_anim_attachments.cpp (deform and sequence keys). Not installed.
//
// Malformed values throw json::ReadError (file, JSON path, line); convert_animations turns it into
// an Error. Anything that does not map exactly becomes a note with its Spine JSON path.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mf/offline/format/clip_model.hpp"
#include "mf/offline/json/json_reader.hpp"
#include "spine_curves.hpp"
#include "spine_internal.hpp"

namespace mf::offline::spine {

// One Spine key object: the shared json::ObjectReader with Spine's defaults. Lookups take Spine's
// default when a member is absent (Spine leaves out members that have their default); members that
// no lookup asked for are listed by unread() afterwards.
class KeyFields : public json::ObjectReader {
 public:
  explicit KeyFields(const json::Node& node);  // fails unless an object

  double number(std::string_view key, double fallback);
  bool boolean(std::string_view key, bool fallback) { return get(key, fallback); }
};

// Reads a key's component values into `out` (the track's component count of them).
using ValueReader = std::function<void(KeyFields& key, double* out)>;

// Parses a Spine colour "rrggbbaa" (digits = 8) or "rrggbb" (digits = 6) into components 0..1.
void read_hex_color(const json::Node& node, int digits, double* out);

class AnimationConverter {
 public:
  AnimationConverter(const json::Value& root, const SkeletonSource& skeleton, const Context& context);

  // Converts one entry of "animations"; `node` is the animation's object.
  ClipSource convert(const std::string& name, const json::Node& node);

 // The sections of an animation.
  // spine_animations.cpp
  void bones(const json::Node& section);
  void slots(const json::Node& section);
  void draw_order(const json::Node& keys);
  void events(const json::Node& keys);
  void attachment_timeline(const json::Node& keys, int slot, const std::string& slot_name);
  void inherit_timeline(const json::Node& keys, const std::string& bone);

  // spine_anim_constraints.cpp
  void ik(const json::Node& section);
  void transform(const json::Node& section);
  void path(const json::Node& section);
  void physics(const json::Node& section);
  std::vector<std::string> global_physics(std::string_view property) const;
  std::vector<int> unmapped_transform_channels(const std::string& name) const;

  // spine_anim_attachments.cpp
  void deform_section(const json::Node& section);       // 4.0: "deform"
  void attachments_section(const json::Node& section);  // 4.1+: "attachments"
  void deform(const json::Node& keys, const std::string& skin, int slot, const std::string& slot_name,
              const std::string& attachment);
  void sequence(const json::Node& keys, const std::string& slot_name);
  int deform_floats(const json::Node& where, int skin, int slot, const std::string& attachment);

  // Shared by the parts.

  // Reads a numeric timeline: an array of keys with "time" (default 0, increasing), the values that
  // `read` takes from each key and "curve" ("stepped" or 4 numbers per curved component). Returns
  // nothing (after a note) for an empty array.
  std::optional<KeyTrack> read_track(const json::Node& keys, int components, int curved, const ValueReader& read);
  // Reads the times of a discrete timeline ("time" of each key, increasing, or non-decreasing for events).
  float read_time(KeyFields& key, float previous, bool allow_equal);
  // Splits flat overshoots, normalises the curves and adds the timeline to the clip.
  void add_curve_timeline(KeyTrack track, CurveKind kind, const std::string& target, const std::string& where,
                          std::uint32_t channels = ~0u);
  // Notes the members of `key` that nothing read (once per timeline and member name).
  void note_unused(KeyFields& key, std::vector<std::string>& noted);
  void note(const std::string& where, std::string message) const { context_.note(where, std::move(message)); }
  // The constraint of `kind` named by `node`'s key, or a ReadError naming the path.
  int constraint(const json::Node& node, const std::string& name, ConstraintKind kind) const;

  const SkeletonSource& skeleton() const { return skeleton_; }
  const json::Value& root() const { return root_; }
  const std::string& file() const { return context_.file; }
  ClipSource& clip() { return clip_; }

 private:
  const json::Value& root_;
  const SkeletonSource& skeleton_;
  const Context& context_;
  ClipSource clip_;
  double length_ = 0;
};

}  // namespace mf::offline::spine
