// `.manim` reader and canonical writer: the document, its sections and, when a skeleton is given,
// the checks of every name the clip uses. One timeline's arrays are read and written in
// clip_format_timelines.cpp. docs/format-manim.md is the specification.

#include "mf/offline/format/clip_format.hpp"

#include <limits>
#include <map>
#include <variant>
#include <vector>

#include "clip_format_internal.hpp"
#include "mf/core/file_io.hpp"
#include "mf/offline/format/uid.hpp"

namespace mf::offline {
namespace {

using json::Layout;
using json::Node;
using json::ObjectReader;
using json::Writer;

constexpr std::string_view kClipType = "SkeletonClip";
constexpr std::string_view kSlotKinds[] = {"attachment", "rgba", "rgb", "alpha", "rgba2", "rgb2", "sequence"};

std::string quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

// The JSON names of the numeric timelines of `target`, then `extra`, for "unknown kind" messages.
std::string known_kinds(TimelineTarget target, std::string_view extra) {
  std::string out;
  for (const CurveLayout& l : all_curve_layouts()) {
    if (l.target != target) continue;
    if (!out.empty()) out += ", ";
    out += l.name;
  }
  if (!extra.empty()) out += ", " + std::string(extra);
  return out;
}

const char* constraint_word(ConstraintKind kind) {
  switch (kind) {
    case ConstraintKind::Ik: return "an ik";
    case ConstraintKind::Transform: return "a transform";
    case ConstraintKind::Path: return "a path";
    case ConstraintKind::Physics: return "a physics";
  }
  return "a";
}

// ---- names against the skeleton ---------------------------------------------------------------

class Reader {
 public:
  explicit Reader(const SkeletonSource* skeleton) : skeleton_(skeleton) {}

  ClipSource read(const Node& root) {
    ObjectReader r(root);
    const int version = r.format_version(kClipFormatVersion);
    ClipSource clip;
    clip.format = version;
    const Node type = r.required("type");
    if (type.as_string() != kClipType)
      type.fail("expected type \"" + std::string(kClipType) + "\", found \"" + type.as_string() + "\"");
    const Node uid = r.required("uid");
    clip.uid = uid.as_string();
    if (!is_valid_uid(clip.uid, kClipUidPrefix))
      uid.fail("malformed uid \"" + clip.uid + "\"; expected \"anm_\" and 12 lower-case hex digits");
    read_skeleton_ref(r.required("skeleton"), clip);
    const Node length = r.required("length");
    clip.length = length.as_float();
    if (clip.length < 0) length.fail("length must be >= 0, found " + json::format_float(clip.length));
    if (const std::optional<Node> fps = r.optional("fps")) clip.fps = fps->as_int(1, std::numeric_limits<int>::max());
    if (const std::optional<Node> loop = r.optional("loop")) {
      const std::string& name = loop->as_string();
      const std::optional<LoopMode> mode = parse_loop_mode(name);
      if (!mode) loop->fail("unknown loop mode \"" + name + "\"; expected None, Linear or PingPong");
      clip.loop = *mode;
    }
    if (const std::optional<Node> n = r.optional("bones")) read_bones(*n, clip);
    if (const std::optional<Node> n = r.optional("slots")) read_slots(*n, clip);
    if (const std::optional<Node> n = r.optional("ik")) read_constraints(*n, ConstraintKind::Ik, CurveKind::Ik, clip);
    if (const std::optional<Node> n = r.optional("transform"))
      read_constraints(*n, ConstraintKind::Transform, CurveKind::Transform, clip);
    if (const std::optional<Node> n = r.optional("path"))
      read_constraints(*n, ConstraintKind::Path, CurveKind::Path, clip);
    if (const std::optional<Node> n = r.optional("physics")) read_physics(*n, clip);
    if (const std::optional<Node> n = r.optional("deform")) read_deforms(*n, clip);
    if (const std::optional<Node> n = r.optional("drawOrder")) {
      clip.draw_order = clip_io::read_draw_order_timeline(*n);
      check_draw_order(*n, clip.draw_order);
    }
    if (const std::optional<Node> n = r.optional("events")) {
      clip.events = clip_io::read_event_timeline(*n);
      check_events(*n, clip.events);
    }
    r.finish();
    sort_timelines(clip);
    return clip;
  }

 private:
  static void read_skeleton_ref(const Node& node, ClipSource& clip) {
    ObjectReader r(node);
    const Node uid = r.required("uid");
    clip.skeleton_uid = uid.as_string();
    if (!is_valid_uid(clip.skeleton_uid, kSkeletonUidPrefix))
      uid.fail("malformed uid \"" + clip.skeleton_uid + "\"; expected \"skl_\" and 12 lower-case hex digits");
    clip.skeleton_path = r.get("path", "");
    r.finish();
  }

  // The members of a section keyed by name; names are non-empty.
  static std::vector<std::pair<std::string, Node>> named(const Node& section, const char* what) {
    std::vector<std::pair<std::string, Node>> members = section.members();
    for (const auto& [name, node] : members)
      if (name.empty()) node.fail(std::string(what) + " name must not be empty");
    return members;
  }

  void read_bones(const Node& section, ClipSource& clip) {
    for (const auto& [bone, node] : named(section, "bone")) {
      if (skeleton_ && skeleton_->find_bone(bone) < 0) node.fail("unknown bone " + quoted(bone));
      for (const auto& [kind, timeline] : node.members()) {
        if (kind == "inherit") {
          clip.inherits.push_back(clip_io::read_inherit_timeline(timeline, bone));
        } else if (const CurveLayout* l = find_layout(TimelineTarget::Bone, kind)) {
          clip.curves.push_back(clip_io::read_curve_timeline(timeline, *l, bone));
        } else {
          timeline.fail("unknown bone timeline " + quoted(kind) + "; known: " +
                        known_kinds(TimelineTarget::Bone, "inherit"));
        }
      }
    }
  }

  void read_slots(const Node& section, ClipSource& clip) {
    for (const auto& [slot, node] : named(section, "slot")) {
      const int slot_index = skeleton_ ? skeleton_->find_slot(slot) : -1;
      if (skeleton_ && slot_index < 0) node.fail("unknown slot " + quoted(slot));
      for (const auto& [kind, timeline] : node.members()) {
        if (kind == "attachment") {
          clip.attachments.push_back(clip_io::read_attachment_timeline(timeline, slot));
          if (skeleton_) check_attachment_names(timeline, clip.attachments.back(), slot_index);
        } else if (kind == "sequence") {
          clip.sequences.push_back(clip_io::read_sequence_timeline(timeline, slot));
        } else if (const CurveLayout* l = find_layout(TimelineTarget::Slot, kind)) {
          clip.curves.push_back(clip_io::read_curve_timeline(timeline, *l, slot));
        } else {
          std::string known;
          for (std::string_view k : kSlotKinds) known += (known.empty() ? "" : ", ") + std::string(k);
          timeline.fail("unknown slot timeline " + quoted(kind) + "; known: " + known);
        }
      }
    }
  }

  // Names are unique per kind only, so the section names the kind; a name of another kind is
  // still unknown here, and the message says where that name is.
  void check_constraint(const Node& node, const std::string& name, ConstraintKind kind) const {
    if (!skeleton_ || skeleton_->find_constraint(kind, name) >= 0) return;
    std::string other;
    for (ConstraintKind k : {ConstraintKind::Ik, ConstraintKind::Transform, ConstraintKind::Path, ConstraintKind::Physics})
      if (k != kind && skeleton_->find_constraint(k, name) >= 0 && other.empty())
        other = std::string(" (there is ") + constraint_word(k) + " constraint of that name)";
    node.fail(std::string("unknown ") + to_string(kind) + " constraint " + quoted(name) + other);
  }

  void read_constraints(const Node& section, ConstraintKind kind, CurveKind curve_kind, ClipSource& clip) {
    for (const auto& [name, node] : named(section, "constraint")) {
      check_constraint(node, name, kind);
      clip.curves.push_back(clip_io::read_curve_timeline(node, layout(curve_kind), name));
    }
  }

  void read_physics(const Node& section, ClipSource& clip) {
    for (const auto& [name, node] : named(section, "constraint")) {
      check_constraint(node, name, ConstraintKind::Physics);
      for (const auto& [kind, timeline] : node.members()) {
        if (kind == "reset") {
          clip.physics_resets.push_back(clip_io::read_physics_reset_timeline(timeline, name));
        } else if (const CurveLayout* l = find_layout(TimelineTarget::Physics, kind)) {
          clip.curves.push_back(clip_io::read_curve_timeline(timeline, *l, name));
        } else {
          timeline.fail("unknown physics timeline " + quoted(kind) + "; known: " +
                        known_kinds(TimelineTarget::Physics, "reset"));
        }
      }
    }
  }

  void read_deforms(const Node& section, ClipSource& clip) {
    for (const auto& [skin, skin_node] : named(section, "skin")) {
      const int skin_index = skeleton_ ? skeleton_->find_skin(skin) : -1;
      if (skeleton_ && skin_index < 0) skin_node.fail("unknown skin " + quoted(skin));
      for (const auto& [slot, slot_node] : named(skin_node, "slot")) {
        const int slot_index = skeleton_ ? skeleton_->find_slot(slot) : -1;
        if (skeleton_ && slot_index < 0) slot_node.fail("unknown slot " + quoted(slot));
        for (const auto& [attachment, node] : named(slot_node, "attachment")) {
          clip.deforms.push_back(clip_io::read_deform_timeline(node, skin, slot, attachment));
          if (skeleton_) check_deform(node, clip.deforms.back(), skin_index, slot_index);
        }
      }
    }
  }

  // ---- checks that need the skeleton ----

  const Attachment* find_attachment(int skin, int slot, std::string_view name) const {
    for (const Attachment& a : skeleton_->skins[static_cast<std::size_t>(skin)].attachments)
      if (a.slot == slot && a.name == name) return &a;
    return nullptr;
  }

  bool slot_has_attachment(int slot, std::string_view name) const {
    for (std::size_t s = 0; s < skeleton_->skins.size(); ++s)
      if (find_attachment(static_cast<int>(s), slot, name)) return true;
    return false;
  }

  void check_attachment_names(const Node& node, const AttachmentTimeline& tl, int slot) const {
    const Node v = clip_io::member(node, "v");
    for (std::size_t k = 0; k < tl.names.size(); ++k) {
      if (tl.names[k] && !slot_has_attachment(slot, *tl.names[k]))
        v[k].fail("no skin has an attachment " + quoted(*tl.names[k]) + " for slot " + quoted(tl.slot));
    }
  }

  void check_deform(const Node& node, const DeformTimeline& tl, int skin, int slot) const {
    const Attachment* a = find_attachment(skin, slot, tl.attachment);
    if (!a)
      node.fail("skin " + quoted(tl.skin) + " has no attachment " + quoted(tl.attachment) + " for slot " +
                quoted(tl.slot));
    const DeformVertices target = deform_vertices(*skeleton_, skin, *a);
    if (!target.vertices) node.fail(target.problem);
    const std::size_t floats = deform_float_count(*target.vertices);
    const Node v = clip_io::member(node, "v");
    for (std::size_t k = 0; k < tl.keys.size(); ++k) {
      const std::size_t end = static_cast<std::size_t>(tl.keys[k].offset) + tl.keys[k].values.size();
      if (end > floats)
        v[k].fail("offset " + std::to_string(tl.keys[k].offset) + " + " + std::to_string(tl.keys[k].values.size()) +
                  " values pass the " + std::to_string(floats) + " vertex floats of " + quoted(tl.attachment));
    }
  }

  void check_draw_order(const Node& node, const DrawOrderTimeline& tl) const {
    if (!skeleton_) return;
    const Node v = clip_io::member(node, "v");
    const int slots = static_cast<int>(skeleton_->slots.size());
    for (std::size_t k = 0; k < tl.keys.size(); ++k) {
      std::map<int, std::string> by_slot;   // setup index -> name
      std::map<int, std::string> by_place;  // target place -> name
      for (std::size_t m = 0; m < tl.keys[k].size(); ++m) {
        const DrawOrderMove& move = tl.keys[k][m];
        const Node at = v[k][m];
        const int index = skeleton_->find_slot(move.slot);
        if (index < 0) at[0].fail("unknown slot " + quoted(move.slot));
        if (!by_slot.emplace(index, move.slot).second) at.fail("slot " + quoted(move.slot) + " moves twice in one key");
        const long long place = static_cast<long long>(index) + move.offset;
        if (place < 0 || place >= slots)
          at.fail("moves slot " + quoted(move.slot) + " to place " + std::to_string(place) +
                  ", outside the draw order of " + std::to_string(slots) + " slots");
        const auto [it, inserted] = by_place.emplace(static_cast<int>(place), move.slot);
        if (!inserted)
          at.fail("slots " + quoted(it->second) + " and " + quoted(move.slot) + " both move to place " +
                  std::to_string(place));
      }
    }
  }

  void check_events(const Node& node, const EventTimeline& tl) const {
    if (!skeleton_) return;
    const Node v = clip_io::member(node, "v");
    for (std::size_t k = 0; k < tl.keys.size(); ++k)
      if (skeleton_->find_event(tl.keys[k].name) < 0)
        clip_io::member(v[k], "name").fail("unknown event " + quoted(tl.keys[k].name));
  }

  const SkeletonSource* skeleton_;
};

// ---- writing ----------------------------------------------------------------------------------

// The timelines of one bone, slot or physics constraint, in the order the document lists kinds.
struct Group {
  std::vector<const CurveTimeline*> curves;
  std::vector<const InheritTimeline*> inherits;
  std::vector<const AttachmentTimeline*> attachments;
  std::vector<const SequenceTimeline*> sequences;
  std::vector<const PhysicsResetTimeline*> resets;
};

void write_curves(Writer& w, const Group& g) {
  for (const CurveTimeline* tl : g.curves) {
    w.key(layout(tl->kind).name);
    clip_io::write_curve_timeline(w, *tl);
  }
}

void write_bones(Writer& w, const std::map<std::string, Group>& bones) {
  w.key("bones");
  w.begin_object();
  for (const auto& [name, g] : bones) {
    w.key(name);
    w.begin_object();
    write_curves(w, g);
    for (const InheritTimeline* tl : g.inherits) {
      w.key("inherit");
      clip_io::write_inherit_timeline(w, *tl);
    }
    w.end_object();
  }
  w.end_object();
}

void write_slots(Writer& w, const std::map<std::string, Group>& slots) {
  w.key("slots");
  w.begin_object();
  for (const auto& [name, g] : slots) {
    w.key(name);
    w.begin_object();
    for (const AttachmentTimeline* tl : g.attachments) {
      w.key("attachment");
      clip_io::write_attachment_timeline(w, *tl);
    }
    write_curves(w, g);
    for (const SequenceTimeline* tl : g.sequences) {
      w.key("sequence");
      clip_io::write_sequence_timeline(w, *tl);
    }
    w.end_object();
  }
  w.end_object();
}

void write_physics(Writer& w, const std::map<std::string, Group>& physics) {
  w.key("physics");
  w.begin_object();
  for (const auto& [name, g] : physics) {
    w.key(name);
    w.begin_object();
    write_curves(w, g);
    for (const PhysicsResetTimeline* tl : g.resets) {
      w.key("reset");
      clip_io::write_physics_reset_timeline(w, *tl);
    }
    w.end_object();
  }
  w.end_object();
}

// ik, transform, path: one timeline per constraint.
void write_constraints(Writer& w, const char* key, const std::vector<const CurveTimeline*>& timelines) {
  if (timelines.empty()) return;
  w.key(key);
  w.begin_object();
  for (const CurveTimeline* tl : timelines) {
    w.key(tl->target);
    clip_io::write_curve_timeline(w, *tl);
  }
  w.end_object();
}

void write_deforms(Writer& w, const std::vector<DeformTimeline>& deforms) {
  // Sorted by (skin, slot, attachment): open a skin or slot object whenever its name changes.
  w.key("deform");
  w.begin_object();
  const std::string* skin = nullptr;
  const std::string* slot = nullptr;
  for (const DeformTimeline& tl : deforms) {
    if (!skin || *skin != tl.skin) {
      if (skin) {
        w.end_object();
        w.end_object();
      }
      skin = &tl.skin;
      slot = nullptr;
      w.key(tl.skin);
      w.begin_object();
    }
    if (!slot || *slot != tl.slot) {
      if (slot) w.end_object();
      slot = &tl.slot;
      w.key(tl.slot);
      w.begin_object();
    }
    w.key(tl.attachment);
    clip_io::write_deform_timeline(w, tl);
  }
  w.end_object();
  w.end_object();
  w.end_object();
}

}  // namespace

Expected<ClipSource> read_clip(std::string_view text, const std::string& file, const SkeletonSource* skeleton) {
  Expected<json::Value> doc = json::parse(text, file);
  if (!doc) return Unexpected{doc.error()};
  try {
    ClipSource clip = Reader(skeleton).read(Node(*doc, "", file));
    clip.positions = json::SourceMap(*doc);
    return clip;
  } catch (const json::ReadError& e) {
    return Unexpected{e.error};
  }
}

Expected<ClipSource> read_clip_file(const std::string& path, const SkeletonSource* skeleton) {
  Expected<std::string> text = read_file(path);
  if (!text) return Unexpected{text.error()};
  return read_clip(*text, path, skeleton);
}

std::string write_clip(const ClipSource& input) {
  ClipSource clip = input;
  sort_timelines(clip);

  std::map<std::string, Group> bones, slots, physics;
  std::vector<const CurveTimeline*> ik, transform, path;
  for (const CurveTimeline& tl : clip.curves) {
    switch (layout(tl.kind).target) {
      case TimelineTarget::Bone: bones[tl.target].curves.push_back(&tl); break;
      case TimelineTarget::Slot: slots[tl.target].curves.push_back(&tl); break;
      case TimelineTarget::Ik: ik.push_back(&tl); break;
      case TimelineTarget::Transform: transform.push_back(&tl); break;
      case TimelineTarget::Path: path.push_back(&tl); break;
      case TimelineTarget::Physics: physics[tl.target].curves.push_back(&tl); break;
    }
  }
  for (const InheritTimeline& tl : clip.inherits) bones[tl.bone].inherits.push_back(&tl);
  for (const AttachmentTimeline& tl : clip.attachments) slots[tl.slot].attachments.push_back(&tl);
  for (const SequenceTimeline& tl : clip.sequences) slots[tl.slot].sequences.push_back(&tl);
  for (const PhysicsResetTimeline& tl : clip.physics_resets) physics[tl.constraint].resets.push_back(&tl);

  Writer w;
  w.begin_object();
  w.key("format");
  w.integer(clip.format);
  w.key("uid");
  w.string(clip.uid);
  w.key("type");
  w.string(kClipType);
  w.key("skeleton");
  w.begin_object(Layout::Inline);
  w.key("uid");
  w.string(clip.skeleton_uid);
  w.key("path");
  w.string(clip.skeleton_path);
  w.end_object();
  w.key("length");
  w.number(clip.length);
  w.key("fps");
  w.integer(clip.fps);
  w.key("loop");
  w.string(to_string(clip.loop));
  if (!bones.empty()) write_bones(w, bones);
  if (!slots.empty()) write_slots(w, slots);
  write_constraints(w, "ik", ik);
  write_constraints(w, "transform", transform);
  write_constraints(w, "path", path);
  if (!physics.empty()) write_physics(w, physics);
  if (!clip.deforms.empty()) write_deforms(w, clip.deforms);
  if (!clip.draw_order.empty()) {
    w.key("drawOrder");
    clip_io::write_draw_order_timeline(w, clip.draw_order);
  }
  if (!clip.events.empty()) {
    w.key("events");
    clip_io::write_event_timeline(w, clip.events);
  }
  w.end_object();
  return w.finish();
}

Status save_clip(const ClipSource& clip, const std::string& path) { return write_file_atomic(path, write_clip(clip)); }

}  // namespace mf::offline
