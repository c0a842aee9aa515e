// Spine animations to clips: the walk over "animations", bone and slot timelines, draw order and
// events. Written from Spine's JSON format reference (4.0 … 4.3).
//
// Coordinates: Spine is Y-up with counter-clockwise angles, we are Y-down and clockwise on screen.
// Conjugating a bone's local matrix by the Y flip negates its rotation, its y translation and both
// shear angles, and leaves scale alone; bone keys stay relative to the setup pose, as in Spine.

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "mf/offline/json/json_path.hpp"
#include "mf/offline/json/json_writer.hpp"
#include "mf/offline/format/uid.hpp"
#include "spine_anim_convert.hpp"

namespace mf::offline::spine {

using json::Node;
using json::path_key;

// ---- key objects ------------------------------------------------------------------------------

namespace {

// The key object, checked with the importer's message before the shared reader sees it.
const Node& key_object(const Node& node) {
  if (!node.is_object()) node.fail("expected a key object, found " + std::string(json::type_name(node.value().type)));
  return node;
}

}  // namespace

KeyFields::KeyFields(const Node& node) : json::ObjectReader(key_object(node)) {}

double KeyFields::number(std::string_view key, double fallback) {
  auto n = optional(key);
  if (!n) return fallback;
  return n->as_float();
}

void read_hex_color(const Node& node, int digits, double* out) {
  const std::string& s = node.as_string();
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  bool ok = s.size() == static_cast<std::size_t>(digits);
  for (std::size_t i = 0; ok && i < s.size(); ++i) ok = hex(s[i]) >= 0;
  if (!ok)
    node.fail("expected a colour of " + std::to_string(digits) + " hex digits (" +
              (digits == 8 ? "rrggbbaa" : "rrggbb") + "), found \"" + s + "\"");
  for (int c = 0; c < digits / 2; ++c) {
    const std::size_t i = static_cast<std::size_t>(2 * c);
    out[c] = (hex(s[i]) * 16 + hex(s[i + 1])) / 255.0;
  }
}

// ---- shared steps -----------------------------------------------------------------------------

AnimationConverter::AnimationConverter(const json::Value& root, const SkeletonSource& skeleton, const Context& context)
    : root_(root), skeleton_(skeleton), context_(context) {}

float AnimationConverter::read_time(KeyFields& key, float previous, bool allow_equal) {
  const double t = key.number("time", 0);
  const float tf = static_cast<float>(t);
  auto where = [&] { return key.optional("time").value_or(key.node()); };
  if (t < 0) where().fail("key times must be >= 0");
  if (tf < previous || (tf == previous && !allow_equal))
    where().fail(std::string("key times must ") + (allow_equal ? "not decrease" : "increase") + ": " +
                 json::format_float(tf) + " follows " + json::format_float(previous));
  length_ = std::max(length_, t);
  return tf;
}

void AnimationConverter::note_unused(KeyFields& key, std::vector<std::string>& noted) {
  for (const std::string& member : key.unread()) {
    if (std::find(noted.begin(), noted.end(), member) != noted.end()) continue;
    noted.push_back(member);
    note(path_key(key.node().path(), member), "key member \"" + member + "\" is not known for this timeline; ignored");
  }
}

std::optional<KeyTrack> AnimationConverter::read_track(const Node& keys, int components, int curved,
                                                       const ValueReader& read) {
  const std::size_t n = keys.size();
  if (n == 0) {
    note(keys.path(), "timeline without keys; ignored");
    return std::nullopt;
  }
  KeyTrack track;
  track.components = components;
  track.curved = curved;
  track.values.resize(n * static_cast<std::size_t>(components));
  track.curves.resize((n - 1) * static_cast<std::size_t>(curved));
  std::vector<std::string> noted;
  float previous = -1;
  for (std::size_t i = 0; i < n; ++i) {
    KeyFields key(keys[i]);
    previous = read_time(key, previous, false);
    track.times.push_back(previous);
    read(key, track.values.data() + i * static_cast<std::size_t>(components));
    if (auto curve = key.optional("curve"); curve && i + 1 < n) {
      if (curve->is_string()) {
        if (curve->as_string() != "stepped")
          curve->fail("expected \"stepped\" or an array of bezier control values, found \"" + curve->as_string() + "\"");
        for (int c = 0; c < curved; ++c) track.curve(i, c) = SpineCurve::stepped();
      } else {
        const std::size_t expected = 4 * static_cast<std::size_t>(curved);
        if (curve->size() != expected)
          curve->fail("expected " + std::to_string(expected) + " bezier control values (4 per interpolated value), found " +
                      std::to_string(curve->size()));
        for (int c = 0; c < curved; ++c) {
          double cv[4];
          for (std::size_t j = 0; j < 4; ++j) cv[j] = (*curve)[4 * static_cast<std::size_t>(c) + j].as_float();
          track.curve(i, c) = SpineCurve::bezier(cv[0], cv[1], cv[2], cv[3]);
        }
      }
    }
    // A curve on the last key shapes no segment: Spine ignores it, and so do we.
    note_unused(key, noted);
  }
  return track;
}

void AnimationConverter::add_curve_timeline(KeyTrack track, CurveKind kind, const std::string& target,
                                            const std::string& where, std::uint32_t channels) {
  round_to_float(track);
  reexpress_as_polylines(track);  // also takes the flat segments with an overshoot
  NormaliseReport report;
  CurveTimeline tl;
  tl.kind = kind;
  tl.target = target;
  tl.channels = channels;
  tl.curves = normalised_curves(track, report);
  tl.times.assign(track.times.begin(), track.times.end());
  tl.values.assign(track.values.begin(), track.values.end());
  if (report.clamped_x > 0)
    note(where, std::to_string(report.clamped_x) +
                    " bezier handle(s) reach outside their segment in time; clamped into it (timing changes slightly)");
  if (report.flattened > 0)
    note(where, std::to_string(report.flattened) + " flat segment(s) with an overshoot too short to split; made constant");
  clip_.curves.push_back(std::move(tl));
}

int AnimationConverter::constraint(const Node& node, const std::string& name, ConstraintKind kind) const {
  const int index = skeleton_.find_constraint(kind, name);
  if (index >= 0) return index;
  // Names are unique per kind: say which other kind has this one.
  std::string other;
  for (ConstraintKind k : {ConstraintKind::Ik, ConstraintKind::Transform, ConstraintKind::Path, ConstraintKind::Physics})
    if (k != kind && other.empty() && skeleton_.find_constraint(k, name) >= 0)
      other = std::string(" (there is ") + (k == ConstraintKind::Ik ? "an " : "a ") + to_string(k) +
              " constraint of that name)";
  node.fail("unknown " + std::string(to_string(kind)) + " constraint \"" + name + "\"" + other);
}

// ---- the walk ---------------------------------------------------------------------------------

ClipSource AnimationConverter::convert(const std::string& name, const Node& node) {
  if (!node.is_object()) node.fail("expected an animation object");
  clip_ = ClipSource{};
  length_ = 0;
  for (const auto& [section, value] : node.members()) {
    if (section == "bones") {
      bones(value);
    } else if (section == "slots") {
      slots(value);
    } else if (section == "ik") {
      ik(value);
    } else if (section == "transform") {
      transform(value);
    } else if (section == "path") {
      path(value);
    } else if (section == "physics") {
      physics(value);
    } else if (section == "attachments") {
      attachments_section(value);
    } else if (section == "deform") {
      deform_section(value);
    } else if (section == "drawOrder") {
      draw_order(value);
    } else if (section == "events") {
      events(value);
    } else if (section == "slider") {
      note(value.path(), "slider constraint timelines have no counterpart in this toolkit; not imported");
    } else {
      note(value.path(), "unknown animation section \"" + section + "\"; not imported");
    }
  }
  clip_.uid = derive_uid(kClipUidPrefix, skeleton_.uid + "/animations/" + name);
  clip_.skeleton_uid = skeleton_.uid;
  clip_.fps = skeleton_.fps;
  clip_.length = static_cast<float>(length_);
  clip_.loop = LoopMode::Linear;
  sort_timelines(clip_);
  return std::move(clip_);
}

// ---- bones ------------------------------------------------------------------------------------

namespace {

// A bone timeline of Spine's: its JSON name, our kind, the key members it reads, their default and
// which components flip sign.
struct BoneTimelineSpec {
  std::string_view spine_name;
  CurveKind kind;
  std::string_view members[2];  // one member ("value") or two ("x", "y")
  double fallback;
  bool negate[2];
};

constexpr BoneTimelineSpec kBoneTimelines[] = {
    {"rotate", CurveKind::Rotate, {"value", {}}, 0, {true, false}},
    {"translate", CurveKind::Translate, {"x", "y"}, 0, {false, true}},
    {"translatex", CurveKind::TranslateX, {"value", {}}, 0, {false, false}},
    {"translatey", CurveKind::TranslateY, {"value", {}}, 0, {true, false}},
    {"scale", CurveKind::Scale, {"x", "y"}, 1, {false, false}},
    {"scalex", CurveKind::ScaleX, {"value", {}}, 1, {false, false}},
    {"scaley", CurveKind::ScaleY, {"value", {}}, 1, {false, false}},
    {"shear", CurveKind::Shear, {"x", "y"}, 0, {true, true}},
    {"shearx", CurveKind::ShearX, {"value", {}}, 0, {true, false}},
    {"sheary", CurveKind::ShearY, {"value", {}}, 0, {true, false}},
};

}  // namespace

void AnimationConverter::bones(const Node& section) {
  if (!section.is_object()) section.fail("expected an object of bone names");
  for (const auto& [bone, timelines] : section.members()) {
    if (skeleton_.find_bone(bone) < 0) timelines.fail("unknown bone \"" + bone + "\"");
    if (!timelines.is_object()) timelines.fail("expected an object of timelines");
    for (const auto& [kind, keys] : timelines.members()) {
      if (kind == "inherit") {
        inherit_timeline(keys, bone);
        continue;
      }
      const std::string& name = kind;  // clang 14 cannot capture a structured binding
      const auto spec = std::find_if(std::begin(kBoneTimelines), std::end(kBoneTimelines),
                                     [&](const BoneTimelineSpec& s) { return s.spine_name == name; });
      if (spec == std::end(kBoneTimelines)) {
        note(keys.path(), "unknown bone timeline \"" + kind + "\"; not imported");
        continue;
      }
      const int comps = spec->members[1].empty() ? 1 : 2;
      auto track = read_track(keys, comps, comps, [&](KeyFields& key, double* out) {
        for (int c = 0; c < comps; ++c) out[c] = key.number(spec->members[c], spec->fallback);
      });
      if (!track) continue;
      for (int c = 0; c < comps; ++c)
        if (spec->negate[c]) negate_component(*track, c);
      add_curve_timeline(std::move(*track), spec->kind, bone, keys.path());
    }
  }
}

void AnimationConverter::inherit_timeline(const Node& keys, const std::string& bone) {
  InheritTimeline tl;
  tl.bone = bone;
  std::vector<std::string> noted;
  float previous = -1;
  for (const Node& k : keys.items()) {
    KeyFields key(k);
    previous = read_time(key, previous, false);
    Inherit mode = Inherit::Normal;
    if (auto v = key.optional("inherit")) {
      auto parsed = parse_spine_inherit(v->as_string());
      if (!parsed)
        v->fail("unknown inherit mode \"" + v->as_string() +
                "\" (expected normal, onlyTranslation, noRotationOrReflection, noScale or noScaleOrReflection)");
      mode = *parsed;
    }
    tl.times.push_back(previous);
    tl.values.push_back(mode);
    note_unused(key, noted);
  }
  if (tl.times.empty()) {
    note(keys.path(), "timeline without keys; ignored");
    return;
  }
  clip_.inherits.push_back(std::move(tl));
}

// ---- slots ------------------------------------------------------------------------------------

void AnimationConverter::slots(const Node& section) {
  if (!section.is_object()) section.fail("expected an object of slot names");
  for (const auto& [slot_name, timelines] : section.members()) {
    const int slot = skeleton_.find_slot(slot_name);
    if (slot < 0) timelines.fail("unknown slot \"" + slot_name + "\"");
    if (!timelines.is_object()) timelines.fail("expected an object of timelines");
    for (const auto& [kind, keys] : timelines.members()) {
      std::optional<KeyTrack> track;
      CurveKind ours = CurveKind::Rgba;
      if (kind == "attachment") {
        attachment_timeline(keys, slot, slot_name);
        continue;
      } else if (kind == "rgba") {
        ours = CurveKind::Rgba;
        track = read_track(keys, 4, 4, [](KeyFields& key, double* out) {
          auto color = key.optional("color");
          if (!color) key.node().fail("an rgba key needs \"color\"");
          read_hex_color(*color, 8, out);
        });
      } else if (kind == "rgb") {
        ours = CurveKind::Rgb;
        track = read_track(keys, 3, 3, [](KeyFields& key, double* out) {
          auto color = key.optional("color");
          if (!color) key.node().fail("an rgb key needs \"color\"");
          read_hex_color(*color, 6, out);
        });
      } else if (kind == "alpha") {
        ours = CurveKind::Alpha;
        track = read_track(keys, 1, 1, [](KeyFields& key, double* out) {
          out[0] = key.number("value", 0);
          if (out[0] < 0 || out[0] > 1) key.optional("value")->fail("alpha must be from 0 to 1");
        });
      } else if (kind == "rgba2" || kind == "rgb2") {
        const bool alpha = kind == "rgba2";
        ours = alpha ? CurveKind::Rgba2 : CurveKind::Rgb2;
        const int light = alpha ? 4 : 3;
        const std::string missing = "an " + kind + " key needs \"light\" and \"dark\"";
        track = read_track(keys, light + 3, light + 3, [alpha, light, &missing](KeyFields& key, double* out) {
          auto l = key.optional("light"), d = key.optional("dark");
          if (!l || !d) key.node().fail(missing);
          read_hex_color(*l, alpha ? 8 : 6, out);
          read_hex_color(*d, 6, out + light);
        });
      } else {
        note(keys.path(), "unknown slot timeline \"" + kind + "\"; not imported");
        continue;
      }
      if (track) add_curve_timeline(std::move(*track), ours, slot_name, keys.path());
    }
  }
}

void AnimationConverter::attachment_timeline(const Node& keys, int slot, const std::string& slot_name) {
  AttachmentTimeline tl;
  tl.slot = slot_name;
  std::vector<std::string> noted;
  float previous = -1;
  for (const Node& k : keys.items()) {
    KeyFields key(k);
    previous = read_time(key, previous, false);
    std::optional<std::string> name;
    if (auto v = key.optional("name"); v && !v->is_null()) {
      name = v->as_string();
      const bool exists = std::any_of(skeleton_.skins.begin(), skeleton_.skins.end(), [&](const Skin& skin) {
        return std::any_of(skin.attachments.begin(), skin.attachments.end(),
                           [&](const Attachment& a) { return a.slot == slot && a.name == *name; });
      });
      if (!exists) v->fail("no skin has an attachment \"" + *name + "\" for slot \"" + slot_name + "\"");
    }
    tl.times.push_back(previous);
    tl.names.push_back(std::move(name));
    note_unused(key, noted);
  }
  if (tl.times.empty()) {
    note(keys.path(), "timeline without keys; ignored");
    return;
  }
  clip_.attachments.push_back(std::move(tl));
}

// ---- draw order and events --------------------------------------------------------------------

void AnimationConverter::draw_order(const Node& keys) {
  const int slot_count = static_cast<int>(skeleton_.slots.size());
  std::vector<std::string> noted;
  float previous = -1;
  for (const Node& k : keys.items()) {
    KeyFields key(k);
    previous = read_time(key, previous, false);
    std::vector<DrawOrderMove> moves;
    if (auto offsets = key.optional("offsets")) {
      std::vector<int> moved, places;
      for (const Node& o : offsets->items()) {
        KeyFields move(o);
        auto slot_node = move.optional("slot");
        if (!slot_node) o.fail("a draw-order offset needs \"slot\"");
        const std::string& name = slot_node->as_string();
        const int slot = skeleton_.find_slot(name);
        if (slot < 0) slot_node->fail("unknown slot \"" + name + "\"");
        if (std::find(moved.begin(), moved.end(), slot) != moved.end())
          slot_node->fail("slot \"" + name + "\" is moved twice in one key");
        int offset = 0;
        if (auto off = move.optional("offset")) offset = off->as_int();
        const long long place = static_cast<long long>(slot) + offset;
        if (place < 0 || place >= slot_count)
          o.fail("moving slot \"" + name + "\" by " + std::to_string(offset) + " leaves the draw order");
        if (std::find(places.begin(), places.end(), static_cast<int>(place)) != places.end())
          o.fail("slot \"" + name + "\" moves onto a place another moved slot takes");
        moved.push_back(slot);
        places.push_back(static_cast<int>(place));
        note_unused(move, noted);
        moves.push_back({name, offset});
      }
    }
    clip_.draw_order.times.push_back(previous);
    clip_.draw_order.keys.push_back(std::move(moves));
    note_unused(key, noted);
  }
}

void AnimationConverter::events(const Node& keys) {
  std::vector<std::string> noted;
  float previous = -1;
  for (const Node& k : keys.items()) {
    KeyFields key(k);
    previous = read_time(key, previous, true);
    EventKeySource event;
    auto name = key.optional("name");
    if (!name) k.fail("an event key needs \"name\"");
    event.name = name->as_string();
    if (skeleton_.find_event(event.name) < 0) name->fail("unknown event \"" + event.name + "\"");
    if (auto v = key.optional("int")) event.int_value = v->as_int();
    if (auto v = key.optional("float")) event.float_value = v->as_float();
    if (auto v = key.optional("string")) event.string_value = v->as_string();
    auto ranged = [&](const char* member, float lo, float hi) -> std::optional<float> {
      auto v = key.optional(member);
      if (!v) return std::nullopt;
      const float f = v->as_float();
      const float clamped = std::clamp(f, lo, hi);
      if (clamped != f)
        note(v->path(), std::string(member) + " " + json::format_float(f) + " is outside [" + json::format_float(lo) +
                            ", " + json::format_float(hi) + "]; clamped");
      return clamped;
    };
    event.volume = ranged("volume", 0, 1);
    event.balance = ranged("balance", -1, 1);
    clip_.events.times.push_back(previous);
    clip_.events.keys.push_back(std::move(event));
    note_unused(key, noted);
  }
}

// ---- entry point ------------------------------------------------------------------------------

Expected<std::vector<std::pair<std::string, ClipSource>>> convert_animations(const json::Value& root, const SkeletonSource& skeleton,
                                                                        const Context& context) {
  std::vector<std::pair<std::string, ClipSource>> clips;
  const json::Value* animations = root.find("animations");
  if (!animations) return clips;
  try {
    const Node section(*animations, "animations", context.file);
    if (!section.is_object()) section.fail("expected an object of animations");
    AnimationConverter converter(root, skeleton, context);
    for (const auto& [name, node] : section.members()) {
      if (name.empty()) node.fail("an animation name must not be empty");
      clips.emplace_back(name, converter.convert(name, node));
    }
  } catch (const json::ReadError& e) {
    return Unexpected{e.error};
  }
  return clips;
}

}  // namespace mf::offline::spine
