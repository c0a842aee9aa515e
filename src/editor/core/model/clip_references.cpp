#include "mf/editor/core/model/clip_references.hpp"

#include <algorithm>

namespace mf::editor {

using namespace offline;

namespace {

template <class T, class P>
void erase_if(std::vector<T>& v, P pred) {
  v.erase(std::remove_if(v.begin(), v.end(), pred), v.end());
}

bool targets(const CurveTimeline& tl, TimelineTarget target, std::string_view name) {
  return layout(tl.kind).target == target && tl.target == name;
}

TimelineTarget target_of(ConstraintKind kind) {
  switch (kind) {
    case ConstraintKind::Ik: return TimelineTarget::Ik;
    case ConstraintKind::Transform: return TimelineTarget::Transform;
    case ConstraintKind::Path: return TimelineTarget::Path;
    case ConstraintKind::Physics: return TimelineTarget::Physics;
  }
  return TimelineTarget::Ik;
}

void rename_curves(ClipSource& clip, TimelineTarget target, std::string_view from, std::string_view to) {
  for (CurveTimeline& tl : clip.curves)
    if (targets(tl, target, from)) tl.target = std::string(to);
}

void remove_curves(ClipSource& clip, TimelineTarget target, std::string_view name) {
  erase_if(clip.curves, [&](const CurveTimeline& tl) { return targets(tl, target, name); });
}

}  // namespace

void rename_bone(ClipSource& clip, std::string_view from, std::string_view to) {
  rename_curves(clip, TimelineTarget::Bone, from, to);
  for (InheritTimeline& tl : clip.inherits)
    if (tl.bone == from) tl.bone = std::string(to);
  sort_timelines(clip);
}

void remove_bone(ClipSource& clip, std::string_view bone) {
  remove_curves(clip, TimelineTarget::Bone, bone);
  erase_if(clip.inherits, [&](const InheritTimeline& tl) { return tl.bone == bone; });
}

void rename_slot(ClipSource& clip, std::string_view from, std::string_view to) {
  rename_curves(clip, TimelineTarget::Slot, from, to);
  for (AttachmentTimeline& tl : clip.attachments)
    if (tl.slot == from) tl.slot = std::string(to);
  for (SequenceTimeline& tl : clip.sequences)
    if (tl.slot == from) tl.slot = std::string(to);
  for (DeformTimeline& tl : clip.deforms)
    if (tl.slot == from) tl.slot = std::string(to);
  for (std::vector<DrawOrderMove>& key : clip.draw_order.keys)
    for (DrawOrderMove& m : key)
      if (m.slot == from) m.slot = std::string(to);
  sort_timelines(clip);
}

void remove_slot(ClipSource& clip, std::string_view slot) {
  remove_curves(clip, TimelineTarget::Slot, slot);
  erase_if(clip.attachments, [&](const AttachmentTimeline& tl) { return tl.slot == slot; });
  erase_if(clip.sequences, [&](const SequenceTimeline& tl) { return tl.slot == slot; });
  erase_if(clip.deforms, [&](const DeformTimeline& tl) { return tl.slot == slot; });
}

void rename_constraint(ClipSource& clip, ConstraintKind kind, std::string_view from, std::string_view to) {
  rename_curves(clip, target_of(kind), from, to);
  if (kind == ConstraintKind::Physics)
    for (PhysicsResetTimeline& tl : clip.physics_resets)
      if (tl.constraint == from) tl.constraint = std::string(to);
  sort_timelines(clip);
}

void remove_constraint(ClipSource& clip, ConstraintKind kind, std::string_view name) {
  remove_curves(clip, target_of(kind), name);
  if (kind == ConstraintKind::Physics)
    erase_if(clip.physics_resets, [&](const PhysicsResetTimeline& tl) { return tl.constraint == name; });
}

void rename_skin(ClipSource& clip, std::string_view from, std::string_view to) {
  for (DeformTimeline& tl : clip.deforms)
    if (tl.skin == from) tl.skin = std::string(to);
  sort_timelines(clip);
}

void remove_skin(ClipSource& clip, std::string_view skin) {
  erase_if(clip.deforms, [&](const DeformTimeline& tl) { return tl.skin == skin; });
}

void copy_skin_deforms(ClipSource& clip, std::string_view from, std::string_view to) {
  std::vector<DeformTimeline> copies;
  for (const DeformTimeline& tl : clip.deforms)
    if (tl.skin == from) {
      copies.push_back(tl);
      copies.back().skin = std::string(to);
    }
  clip.deforms.insert(clip.deforms.end(), copies.begin(), copies.end());
  sort_timelines(clip);
}

void rename_attachment_keys(ClipSource& clip, std::string_view slot, std::string_view from, std::string_view to) {
  for (AttachmentTimeline& tl : clip.attachments) {
    if (tl.slot != slot) continue;
    for (std::optional<std::string>& n : tl.names)
      if (n && *n == from) *n = std::string(to);
  }
}

void remove_attachment_keys(ClipSource& clip, std::string_view slot, std::string_view name) {
  for (AttachmentTimeline& tl : clip.attachments) {
    if (tl.slot != slot) continue;
    std::vector<float> times;
    std::vector<std::optional<std::string>> names;
    for (std::size_t k = 0; k < tl.times.size(); ++k) {
      if (tl.names[k] && *tl.names[k] == name) continue;
      times.push_back(tl.times[k]);
      names.push_back(std::move(tl.names[k]));
    }
    tl.times = std::move(times);
    tl.names = std::move(names);
  }
  erase_if(clip.attachments, [](const AttachmentTimeline& tl) { return tl.times.empty(); });
}

void rename_deform(ClipSource& clip, std::string_view skin, std::string_view slot, std::string_view from,
                   std::string_view to) {
  for (DeformTimeline& tl : clip.deforms)
    if (tl.skin == skin && tl.slot == slot && tl.attachment == from) tl.attachment = std::string(to);
  sort_timelines(clip);
}

void remove_deform(ClipSource& clip, std::string_view skin, std::string_view slot, std::string_view name) {
  erase_if(clip.deforms,
           [&](const DeformTimeline& tl) { return tl.skin == skin && tl.slot == slot && tl.attachment == name; });
}

void rename_event(ClipSource& clip, std::string_view from, std::string_view to) {
  for (EventKeySource& k : clip.events.keys)
    if (k.name == from) k.name = std::string(to);
}

void remove_event(ClipSource& clip, std::string_view name) {
  EventTimeline kept;
  for (std::size_t k = 0; k < clip.events.times.size(); ++k) {
    if (clip.events.keys[k].name == name) continue;
    kept.times.push_back(clip.events.times[k]);
    kept.keys.push_back(std::move(clip.events.keys[k]));
  }
  clip.events = std::move(kept);
}

}  // namespace mf::editor
