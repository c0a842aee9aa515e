#include "mf/offline/format/clip_key_edit.hpp"

#include <algorithm>
#include <cmath>

#include "mf/offline/format/clip_edit.hpp"
#include "mf/offline/json/json_path.hpp"
#include "mf/offline/json/json_writer.hpp"

namespace mf::offline {
namespace {

std::string quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

std::optional<TimelineTarget> curve_target(KeyTarget t) {
  switch (t) {
    case KeyTarget::Bone: return TimelineTarget::Bone;
    case KeyTarget::Slot: return TimelineTarget::Slot;
    case KeyTarget::Ik: return TimelineTarget::Ik;
    case KeyTarget::Transform: return TimelineTarget::Transform;
    case KeyTarget::Path: return TimelineTarget::Path;
    case KeyTarget::Physics: return TimelineTarget::Physics;
    case KeyTarget::Event: return std::nullopt;
  }
  return std::nullopt;
}

// The single layout of a constraint kind whose components are named arrays.
const CurveLayout* channel_layout(KeyTarget t) {
  switch (t) {
    case KeyTarget::Ik: return &layout(CurveKind::Ik);
    case KeyTarget::Transform: return &layout(CurveKind::Transform);
    case KeyTarget::Path: return &layout(CurveKind::Path);
    default: return nullptr;
  }
}

std::optional<ConstraintKind> constraint_kind(KeyTarget t) {
  switch (t) {
    case KeyTarget::Ik: return ConstraintKind::Ik;
    case KeyTarget::Transform: return ConstraintKind::Transform;
    case KeyTarget::Path: return ConstraintKind::Path;
    case KeyTarget::Physics: return ConstraintKind::Physics;
    default: return std::nullopt;
  }
}

std::string join(const std::vector<std::string>& names) {
  if (names.empty()) return "(none)";
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// "the bones are: a, b" or "the rig has no physics constraints".
std::string names_or_none(const std::vector<std::string>& names, const char* plural) {
  if (names.empty()) return std::string("the rig has no ") + plural;
  return std::string("the ") + plural + " are: " + join(names);
}

std::string times_list(const std::vector<float>& times) {
  std::string out = "[";
  for (std::size_t i = 0; i < times.size(); ++i) out += (i ? ", " : "") + json::format_float(times[i]);
  return out + "]";
}

// The skeleton's names a target can take, for "no bone named ...; the bones are: ...".
std::vector<std::string> target_names(const SkeletonSource& sk, KeyTarget t) {
  std::vector<std::string> out;
  switch (t) {
    case KeyTarget::Bone:
      for (const Bone& b : sk.bones) out.push_back(b.name);
      break;
    case KeyTarget::Slot:
      for (const Slot& s : sk.slots) out.push_back(s.name);
      break;
    case KeyTarget::Event:
      for (const EventDef& e : sk.events) out.push_back(e.name);
      break;
    default: {
      const ConstraintKind kind = *constraint_kind(t);
      for (std::size_t i = 0; i < sk.constraint_count(kind); ++i)
        out.push_back(sk.constraint_name({kind, static_cast<int>(i)}));
    }
  }
  return out;
}

int find_target(const SkeletonSource& sk, KeyTarget t, std::string_view name) {
  switch (t) {
    case KeyTarget::Bone: return sk.find_bone(name);
    case KeyTarget::Slot: return sk.find_slot(name);
    case KeyTarget::Event: return sk.find_event(name);
    default: return sk.find_constraint(*constraint_kind(t), name);
  }
}

const char* target_words(KeyTarget t) {
  switch (t) {
    case KeyTarget::Bone: return "bone";
    case KeyTarget::Slot: return "slot";
    case KeyTarget::Ik: return "ik constraint";
    case KeyTarget::Transform: return "transform constraint";
    case KeyTarget::Path: return "path constraint";
    case KeyTarget::Physics: return "physics constraint";
    case KeyTarget::Event: return "event";
  }
  return "";
}

const char* target_plural(KeyTarget t) {
  switch (t) {
    case KeyTarget::Bone: return "bones";
    case KeyTarget::Slot: return "slots";
    case KeyTarget::Ik: return "ik constraints";
    case KeyTarget::Transform: return "transform constraints";
    case KeyTarget::Path: return "path constraints";
    case KeyTarget::Physics: return "physics constraints";
    case KeyTarget::Event: return "events";
  }
  return "";
}

// The setup values of a constraint's channels, which a channel keyed for the first time takes at the
// timeline's other keys.
std::vector<float> setup_channels(const SkeletonSource& sk, KeyTarget t, int index) {
  const auto i = static_cast<std::size_t>(index);
  switch (t) {
    case KeyTarget::Ik: {
      const IkConstraint& c = sk.ik[i];
      return {c.mix, c.softness, static_cast<float>(c.bend), c.compress ? 1.0f : 0.0f, c.stretch ? 1.0f : 0.0f};
    }
    case KeyTarget::Transform: {
      const TransformConstraint& c = sk.transform[i];
      return {c.mix_rotate, c.mix_x, c.mix_y, c.mix_scale_x, c.mix_scale_y, c.mix_shear_y};
    }
    case KeyTarget::Path: {
      const PathConstraint& c = sk.path[i];
      return {c.position, c.spacing, c.mix_rotate, c.mix_x, c.mix_y};
    }
    default: return {};
  }
}

bool slot_has_attachment(const SkeletonSource& sk, int slot, std::string_view name) {
  for (const Skin& skin : sk.skins)
    for (const Attachment& a : skin.attachments)
      if (a.slot == slot && a.name == name) return true;
  return false;
}

std::vector<std::string> slot_attachments(const SkeletonSource& sk, int slot) {
  std::vector<std::string> out;
  for (const Skin& skin : sk.skins)
    for (const Attachment& a : skin.attachments)
      if (a.slot == slot && std::find(out.begin(), out.end(), a.name) == out.end()) out.push_back(a.name);
  return out;
}

bool near(float a, float b) { return std::fabs(a - b) <= kKeyTimeEpsilon; }

// Sets or removes a key of a timeline with a times array and one value array (inherit, attachment,
// sequence, physics reset): `values` is nullptr for a reset timeline.
template <class Timeline, class Value>
std::optional<KeyEditOutcome> edit_stepped(std::vector<Timeline>& list, std::string Timeline::*target,
                                           std::vector<Value> Timeline::*values, const KeyEdit& edit,
                                           const Value& value, ClipSource& clip) {
  auto found = std::find_if(list.begin(), list.end(), [&](const Timeline& tl) { return tl.*target == edit.name; });
  if (edit.remove) {
    if (found == list.end()) return std::nullopt;
    const auto at = std::find_if(found->times.begin(), found->times.end(), [&](float k) { return near(k, edit.t); });
    if (at == found->times.end()) return std::nullopt;
    const auto i = at - found->times.begin();
    found->times.erase(at);
    if (values) ((*found).*values).erase(((*found).*values).begin() + i);
    const std::size_t left = found->times.size();
    if (left == 0) list.erase(found);
    return KeyEditOutcome{KeyChange::Removed, left};
  }
  if (found == list.end()) {
    Timeline tl;
    tl.*target = edit.name;
    tl.times = {edit.t};
    if (values) tl.*values = {value};
    list.push_back(std::move(tl));
    sort_timelines(clip);
    return KeyEditOutcome{KeyChange::Added, 1};
  }
  for (std::size_t i = 0; i < found->times.size(); ++i) {
    if (!near(found->times[i], edit.t)) continue;
    if (values) ((*found).*values)[i] = value;
    return KeyEditOutcome{KeyChange::Replaced, found->times.size()};
  }
  const auto at = std::upper_bound(found->times.begin(), found->times.end(), edit.t) - found->times.begin();
  found->times.insert(found->times.begin() + at, edit.t);
  if (values) ((*found).*values).insert(((*found).*values).begin() + at, value);
  return KeyEditOutcome{KeyChange::Added, found->times.size()};
}

std::size_t event_count(const EventTimeline& tl, std::string_view name) {
  return static_cast<std::size_t>(
      std::count_if(tl.keys.begin(), tl.keys.end(), [&](const EventKeySource& k) { return k.name == name; }));
}

std::optional<KeyEditOutcome> edit_event(ClipSource& clip, const KeyEdit& edit) {
  EventTimeline& tl = clip.events;
  std::size_t match = tl.times.size();
  for (std::size_t i = 0; i < tl.times.size(); ++i)
    if (near(tl.times[i], edit.t) && tl.keys[i].name == edit.name) match = i;
  if (edit.remove) {
    if (match == tl.times.size()) return std::nullopt;
    tl.times.erase(tl.times.begin() + static_cast<std::ptrdiff_t>(match));
    tl.keys.erase(tl.keys.begin() + static_cast<std::ptrdiff_t>(match));
    return KeyEditOutcome{KeyChange::Removed, event_count(tl, edit.name)};
  }
  EventKeySource key = edit.event;
  key.name = edit.name;
  if (match < tl.times.size()) {
    tl.keys[match] = std::move(key);
    return KeyEditOutcome{KeyChange::Replaced, event_count(tl, edit.name)};
  }
  // After the keys at the same time: events that share a time fire in file order.
  const auto at = std::upper_bound(tl.times.begin(), tl.times.end(), edit.t) - tl.times.begin();
  tl.times.insert(tl.times.begin() + at, edit.t);
  tl.keys.insert(tl.keys.begin() + at, std::move(key));
  return KeyEditOutcome{KeyChange::Added, event_count(tl, edit.name)};
}

// The times of the edited timeline, for "its keys are at [...]".
std::vector<float> timeline_times(const ClipSource& clip, const KeyEdit& edit) {
  const KeyTimeline& k = edit.timeline;
  auto of = [&](const auto& list, auto member) -> std::vector<float> {
    for (const auto& tl : list)
      if (tl.*member == edit.name) return tl.times;
    return {};
  };
  switch (k.kind) {
    case KeyKind::Curve:
    case KeyKind::Channel:
      for (const CurveTimeline& tl : clip.curves)
        if (tl.kind == k.curve && tl.target == edit.name) return tl.times;
      return {};
    case KeyKind::Inherit: return of(clip.inherits, &InheritTimeline::bone);
    case KeyKind::Attachment: return of(clip.attachments, &AttachmentTimeline::slot);
    case KeyKind::Sequence: return of(clip.sequences, &SequenceTimeline::slot);
    case KeyKind::PhysicsReset: return of(clip.physics_resets, &PhysicsResetTimeline::constraint);
    case KeyKind::Event: {
      std::vector<float> out;
      for (std::size_t i = 0; i < clip.events.times.size(); ++i)
        if (clip.events.keys[i].name == edit.name) out.push_back(clip.events.times[i]);
      return out;
    }
  }
  return {};
}

std::string describe_value_problem(const KeyEdit& edit) {
  const KeyTimeline& k = edit.timeline;
  auto finite = [&] {
    return std::all_of(edit.values.begin(), edit.values.end(), [](float v) { return std::isfinite(v); });
  };
  switch (k.kind) {
    case KeyKind::Curve: {
      const CurveLayout& lay = layout(k.curve);
      if (edit.values.size() != static_cast<std::size_t>(lay.components))
        return "a " + std::string(lay.name) + " key takes " + std::to_string(lay.components) + " value" +
               (lay.components == 1 ? "" : "s") + ", found " + std::to_string(edit.values.size());
      if (!finite()) return "key values must be finite";
      if (k.curve == CurveKind::Alpha && (edit.values[0] < 0 || edit.values[0] > 1))
        return "alpha must be from 0 to 1, found " + json::format_float(edit.values[0]);
      for (float v : edit.values)
        if (lay.target == TimelineTarget::Slot && (v < 0 || v > 1)) return "colour components must be from 0 to 1";
      return {};
    }
    case KeyKind::Channel: {
      if (edit.values.size() != 1)
        return "a " + std::string(k.name) + " key takes 1 value, found " + std::to_string(edit.values.size());
      if (!finite()) return "key values must be finite";
      const float v = edit.values[0];
      if (k.curve == CurveKind::Ik && k.channel == 2 && v != 1 && v != -1)
        return "bend must be 1 or -1, found " + json::format_float(v);
      if (k.curve == CurveKind::Ik && k.channel >= 3 && v != 0 && v != 1)
        return std::string(k.name) + " must be true or false";
      return {};
    }
    case KeyKind::Sequence:
      if (edit.sequence.index < 0) return "a sequence index must be 0 or more";
      if (!(edit.sequence.delay >= 0) || !std::isfinite(edit.sequence.delay))
        return "a sequence delay must be a number >= 0";
      return {};
    case KeyKind::Event: {
      const EventKeySource& e = edit.event;
      if (e.float_value && !std::isfinite(*e.float_value)) return "the event's float must be finite";
      if (e.volume && !(*e.volume >= 0 && *e.volume <= 1))
        return "volume must be from 0 to 1, found " + json::format_float(*e.volume);
      if (e.balance && !(*e.balance >= -1 && *e.balance <= 1))
        return "balance must be from -1 to 1, found " + json::format_float(*e.balance);
      return {};
    }
    case KeyKind::Attachment:
      if (edit.attachment && edit.attachment->empty()) return "an attachment name must not be empty (null hides the attachment)";
      return {};
    default: return {};
  }
}

}  // namespace

std::string_view to_string(KeyTarget target) { return kKeyTargetNames[static_cast<std::size_t>(target)]; }

bool KeyTimeline::curved() const {
  switch (kind) {
    case KeyKind::Curve: return layout(curve).curved > 0;
    case KeyKind::Channel: return channel < layout(curve).curved;
    default: return false;
  }
}

int KeyTimeline::value_count() const {
  if (kind == KeyKind::Curve) return layout(curve).components;
  return kind == KeyKind::Channel ? 1 : 0;
}

std::vector<std::string_view> key_timeline_names(KeyTarget target) {
  std::vector<std::string_view> out;
  if (target == KeyTarget::Event) return out;
  if (target == KeyTarget::Slot) out.push_back("attachment");
  if (const CurveLayout* lay = channel_layout(target)) {
    out.assign(lay->channel_names.begin(), lay->channel_names.end());
    return out;
  }
  for (const CurveLayout& l : all_curve_layouts())
    if (l.target == curve_target(target)) out.push_back(l.name);
  if (target == KeyTarget::Bone) out.push_back("inherit");
  if (target == KeyTarget::Slot) out.push_back("sequence");
  if (target == KeyTarget::Physics) out.push_back("reset");
  return out;
}

std::optional<KeyTimeline> find_key_timeline(KeyTarget target, std::string_view name) {
  KeyTimeline k;
  k.target = target;
  if (target == KeyTarget::Event) {
    if (!name.empty()) return std::nullopt;
    k.kind = KeyKind::Event;
    return k;
  }
  if (const CurveLayout* lay = channel_layout(target)) {
    for (std::size_t c = 0; c < lay->channel_names.size(); ++c)
      if (lay->channel_names[c] == name) {
        k.kind = KeyKind::Channel;
        k.curve = lay->kind;
        k.channel = static_cast<int>(c);
        k.name = lay->channel_names[c];
        return k;
      }
    return std::nullopt;
  }
  if (const CurveLayout* lay = find_layout(*curve_target(target), name)) {
    k.kind = KeyKind::Curve;
    k.curve = lay->kind;
    k.name = lay->name;
    return k;
  }
  const std::pair<KeyTarget, std::string_view> others[] = {
      {KeyTarget::Bone, "inherit"}, {KeyTarget::Slot, "attachment"}, {KeyTarget::Slot, "sequence"},
      {KeyTarget::Physics, "reset"}};
  const KeyKind kinds[] = {KeyKind::Inherit, KeyKind::Attachment, KeyKind::Sequence, KeyKind::PhysicsReset};
  for (std::size_t i = 0; i < std::size(others); ++i)
    if (others[i].first == target && others[i].second == name) {
      k.kind = kinds[i];
      k.name = others[i].second;
      return k;
    }
  return std::nullopt;
}

std::string key_timeline_path(const KeyEdit& edit) {
  const KeyTimeline& k = edit.timeline;
  switch (k.target) {
    case KeyTarget::Bone: return json::path_key(json::path_key("bones", edit.name), k.name);
    case KeyTarget::Slot: return json::path_key(json::path_key("slots", edit.name), k.name);
    case KeyTarget::Ik: return json::path_key(json::path_key("ik", edit.name), k.name);
    case KeyTarget::Transform: return json::path_key(json::path_key("transform", edit.name), k.name);
    case KeyTarget::Path: return json::path_key(json::path_key("path", edit.name), k.name);
    case KeyTarget::Physics: return json::path_key(json::path_key("physics", edit.name), k.name);
    case KeyTarget::Event: return "events";
  }
  return {};
}

namespace {

// One edit; `with_curve` false checks the curve but leaves the curves to the caller (apply_key_edits).
KeyEditResult apply_one(ClipSource& clip, const KeyEdit& edit, const SkeletonSource* skeleton, std::string_view rig,
                        bool with_curve) {
  const KeyTimeline& k = edit.timeline;
  auto fail = [](KeyField field, std::string message) {
    return KeyEditResult{KeyEditFailure{field, std::move(message)}, {}};
  };

  // The target.
  if (edit.name.empty()) return fail(KeyField::Target, std::string("the ") + target_words(k.target) + " name is empty");
  int index = -1;
  if (skeleton) {
    index = find_target(*skeleton, k.target, edit.name);
    if (index < 0)
      return fail(KeyField::Target, std::string("no ") + target_words(k.target) + " named " + quoted(edit.name) +
                                        (rig.empty() ? "" : " in " + std::string(rig)) + "; " +
                                        names_or_none(target_names(*skeleton, k.target), target_plural(k.target)));
  }

  // The time.
  if (!std::isfinite(edit.t) || edit.t < 0) return fail(KeyField::Time, "the key time must be a number >= 0");
  if (!edit.remove && edit.t > clip.length)
    return fail(KeyField::Time, "the key time " + json::format_float(edit.t) + " is past the clip's length " +
                                    json::format_float(clip.length) + " s");

  if (edit.remove) {
    // A channel's keys are the keys of its constraint's timeline, but only while the channel is keyed.
    if (k.kind == KeyKind::Channel)
      for (const CurveTimeline& tl : clip.curves)
        if (tl.kind == k.curve && tl.target == edit.name && !tl.keyed(k.channel))
          return fail(KeyField::Time, "the clip has no " + key_timeline_path(edit) + " keys to remove");
    std::optional<KeyEditOutcome> removed;
    switch (k.kind) {
      case KeyKind::Curve:
      case KeyKind::Channel:
        if (const std::optional<std::size_t> left = remove_curve_key(clip, k.curve, edit.name, edit.t))
          removed = KeyEditOutcome{KeyChange::Removed, *left};
        break;
      case KeyKind::Inherit:
        removed = edit_stepped(clip.inherits, &InheritTimeline::bone, &InheritTimeline::values, edit, edit.inherit, clip);
        break;
      case KeyKind::Attachment:
        removed = edit_stepped(clip.attachments, &AttachmentTimeline::slot, &AttachmentTimeline::names, edit,
                               edit.attachment, clip);
        break;
      case KeyKind::Sequence:
        removed = edit_stepped(clip.sequences, &SequenceTimeline::slot, &SequenceTimeline::keys, edit, edit.sequence, clip);
        break;
      case KeyKind::PhysicsReset: {
        std::vector<float> PhysicsResetTimeline::*none = nullptr;
        removed = edit_stepped(clip.physics_resets, &PhysicsResetTimeline::constraint, none, edit, 0.0f, clip);
        break;
      }
      case KeyKind::Event: removed = edit_event(clip, edit); break;
    }
    if (!removed) {
      const std::vector<float> times = timeline_times(clip, edit);
      const std::string what = k.kind == KeyKind::Event ? "event " + quoted(edit.name) : key_timeline_path(edit);
      if (times.empty()) return fail(KeyField::Time, "the clip has no " + what + " keys to remove");
      return fail(KeyField::Time, "no " + what + " key within 0.0001 s of " + json::format_float(edit.t) +
                                      "; its keys are at " + times_list(times));
    }
    return {std::nullopt, *removed};
  }

  // The value.
  if (std::string problem = describe_value_problem(edit); !problem.empty()) return fail(KeyField::Value, problem);
  if (k.kind == KeyKind::Attachment && skeleton && edit.attachment &&
      !slot_has_attachment(*skeleton, index, *edit.attachment))
    return fail(KeyField::Value, "no skin has an attachment " + quoted(*edit.attachment) + " for slot " +
                                     quoted(edit.name) + "; its attachments are: " +
                                     join(slot_attachments(*skeleton, index)) + " (or null for none)");

  // The curve.
  if (!edit.curve.empty()) {
    if (!k.curved())
      return fail(KeyField::Curve, (k.kind == KeyKind::Event ? std::string("event") : std::string(k.name)) +
                                       " keys are stepped: they take no curve");
    const std::size_t per_component = k.kind == KeyKind::Curve ? static_cast<std::size_t>(layout(k.curve).curved) : 1;
    if (edit.curve.size() != 1 && edit.curve.size() != per_component)
      return fail(KeyField::Curve, "expected one curve, or one per interpolated component (" +
                                       std::to_string(per_component) + "), found " + std::to_string(edit.curve.size()));
    for (const Curve& c : edit.curve)
      if (std::string problem = curve_problem(c); !problem.empty()) return fail(KeyField::Curve, problem);
  }

  const bool curve_given = with_curve && !edit.curve.empty();
  switch (k.kind) {
    case KeyKind::Curve: {
      const CurveLayout& lay = layout(k.curve);
      std::vector<Curve> curves;
      if (curve_given)
        curves = edit.curve.size() == 1 ? std::vector<Curve>(static_cast<std::size_t>(lay.curved), edit.curve[0]) : edit.curve;
      const bool added = set_curve_key(clip, k.curve, edit.name, ~0u, edit.t, edit.values, curves, {});
      return {std::nullopt, {added ? KeyChange::Added : KeyChange::Replaced, timeline_times(clip, edit).size()}};
    }
    case KeyKind::Channel: {
      const CurveLayout& lay = layout(k.curve);
      const auto comps = static_cast<std::size_t>(lay.components);
      const auto c = static_cast<std::size_t>(k.channel);
      std::vector<float> values(comps, 0.0f);
      values[c] = edit.values[0];
      std::vector<float> fill = skeleton ? setup_channels(*skeleton, k.target, index) : std::vector<float>(comps, edit.values[0]);
      std::vector<Curve> curves;
      if (curve_given) {
        curves.assign(static_cast<std::size_t>(lay.curved), Curve::linear());
        curves[c] = edit.curve[0];
      }
      const bool added = set_curve_key(clip, k.curve, edit.name, 1u << c, edit.t, values, curves, fill);
      return {std::nullopt, {added ? KeyChange::Added : KeyChange::Replaced, timeline_times(clip, edit).size()}};
    }
    case KeyKind::Inherit:
      return {std::nullopt,
              *edit_stepped(clip.inherits, &InheritTimeline::bone, &InheritTimeline::values, edit, edit.inherit, clip)};
    case KeyKind::Attachment:
      return {std::nullopt, *edit_stepped(clip.attachments, &AttachmentTimeline::slot, &AttachmentTimeline::names, edit,
                                          edit.attachment, clip)};
    case KeyKind::Sequence:
      return {std::nullopt,
              *edit_stepped(clip.sequences, &SequenceTimeline::slot, &SequenceTimeline::keys, edit, edit.sequence, clip)};
    case KeyKind::PhysicsReset: {
      std::vector<float> PhysicsResetTimeline::*none = nullptr;
      return {std::nullopt,
              *edit_stepped(clip.physics_resets, &PhysicsResetTimeline::constraint, none, edit, 0.0f, clip)};
    }
    case KeyKind::Event: return {std::nullopt, *edit_event(clip, edit)};
  }
  return fail(KeyField::Timeline, "unknown timeline");
}

}  // namespace

KeyEditResult apply_key_edit(ClipSource& clip, const KeyEdit& edit, const SkeletonSource* skeleton,
                             std::string_view rig) {
  return apply_one(clip, edit, skeleton, rig, true);
}

std::vector<KeyEditResult> apply_key_edits(ClipSource& clip, std::span<const KeyEdit> edits,
                                           const SkeletonSource* skeleton, std::string_view rig) {
  std::vector<KeyEditResult> out;
  for (const KeyEdit& e : edits) {
    out.push_back(apply_one(clip, e, skeleton, rig, false));
    if (out.back().failure) return out;
  }
  // Every key is in place: set the curves. A last key's curve goes first, so that the curve of
  // the key before it, which names the same segment, wins; then every other key's, in order.
  for (const KeySegment which : {KeySegment::BeforeLast, KeySegment::After}) {
    for (const KeyEdit& e : edits) {
      const KeyTimeline& k = e.timeline;
      if (e.remove || e.curve.empty() || (k.kind != KeyKind::Curve && k.kind != KeyKind::Channel)) continue;
      const std::size_t curved = static_cast<std::size_t>(layout(k.curve).curved);
      std::vector<Curve> curves(curved, e.curve[0]);
      if (e.curve.size() == curved) curves = e.curve;
      const std::uint32_t mask = k.kind == KeyKind::Channel ? 1u << k.channel : ~0u;
      set_key_curve(clip, k.curve, e.name, mask, e.t, curves, which);
    }
  }
  return out;
}

}  // namespace mf::offline
