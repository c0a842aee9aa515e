#include "mf/editor/core/model/rig_patch.hpp"

#include <cassert>

namespace mf::editor {

using offline::ClipSource;
using offline::SkeletonSource;
using offline::Skin;

RigPatch::SkeletonHeader RigPatch::header_of(const SkeletonSource& s) {
  return {s.format, s.uid, s.fps, s.import, s.clips};
}

void RigPatch::set_header(SkeletonSource& s, const SkeletonHeader& h) {
  s.format = h.format;
  s.uid = h.uid;
  s.fps = h.fps;
  s.import = h.import;
  s.clips = h.clips;
}

RigPatch::SkinHeader RigPatch::header_of(const Skin& s) { return {s.name, s.bones, s.constraints}; }

void RigPatch::set_header(Skin& s, const SkinHeader& h) {
  s.name = h.name;
  s.bones = h.bones;
  s.constraints = h.constraints;
}

RigPatch::ClipHeader RigPatch::header_of(const ClipSource& c) {
  return {c.format, c.uid, c.skeleton_uid, c.skeleton_path, c.length, c.fps, c.loop};
}

void RigPatch::set_header(ClipSource& c, const ClipHeader& h) {
  c.format = h.format;
  c.uid = h.uid;
  c.skeleton_uid = h.skeleton_uid;
  c.skeleton_path = h.skeleton_path;
  c.length = h.length;
  c.fps = h.fps;
  c.loop = h.loop;
}

namespace {

template <class T>
std::optional<std::pair<T, T>> pair_if_changed(const T& a, const T& b) {
  if (a == b) return std::nullopt;
  return std::pair<T, T>(a, b);
}

}  // namespace

RigPatch RigPatch::diff(const RigModel& before, const RigModel& after) {
  assert(before.clips.size() == after.clips.size());
  RigPatch p;
  const SkeletonSource& a = before.skeleton;
  const SkeletonSource& b = after.skeleton;
  p.header_ = pair_if_changed(header_of(a), header_of(b));
  p.images_ = VectorPatch<offline::ImageEntry>::diff(a.images, b.images);
  p.bones_ = VectorPatch<offline::Bone>::diff(a.bones, b.bones);
  p.slots_ = VectorPatch<offline::Slot>::diff(a.slots, b.slots);
  p.ik_ = VectorPatch<offline::IkConstraint>::diff(a.ik, b.ik);
  p.transform_ = VectorPatch<offline::TransformConstraint>::diff(a.transform, b.transform);
  p.path_ = VectorPatch<offline::PathConstraint>::diff(a.path, b.path);
  p.physics_ = VectorPatch<offline::PhysicsConstraint>::diff(a.physics, b.physics);
  p.events_ = VectorPatch<offline::EventDef>::diff(a.events, b.events);
  if (a.skins.size() == b.skins.size()) {
    for (std::size_t i = 0; i < a.skins.size(); ++i) {
      SkinChange c;
      c.index = i;
      c.header = pair_if_changed(header_of(a.skins[i]), header_of(b.skins[i]));
      c.attachments = VectorPatch<offline::Attachment>::diff(a.skins[i].attachments, b.skins[i].attachments);
      if (c.header || c.attachments.changed) p.skin_changes_.push_back(std::move(c));
    }
  } else {
    p.skins_ = VectorPatch<Skin>::diff(a.skins, b.skins);
  }
  for (std::size_t i = 0; i < before.clips.size(); ++i) {
    const ClipSource& ca = before.clips[i];
    const ClipSource& cb = after.clips[i];
    if (ca == cb) continue;
    ClipChange c;
    c.index = i;
    c.header = pair_if_changed(header_of(ca), header_of(cb));
    c.curves = VectorPatch<offline::CurveTimeline>::diff(ca.curves, cb.curves);
    c.inherits = VectorPatch<offline::InheritTimeline>::diff(ca.inherits, cb.inherits);
    c.attachments = VectorPatch<offline::AttachmentTimeline>::diff(ca.attachments, cb.attachments);
    c.sequences = VectorPatch<offline::SequenceTimeline>::diff(ca.sequences, cb.sequences);
    c.deforms = VectorPatch<offline::DeformTimeline>::diff(ca.deforms, cb.deforms);
    c.physics_resets = VectorPatch<offline::PhysicsResetTimeline>::diff(ca.physics_resets, cb.physics_resets);
    c.draw_order = pair_if_changed(ca.draw_order, cb.draw_order);
    c.events = pair_if_changed(ca.events, cb.events);
    p.clips_.push_back(std::move(c));
  }
  return p;
}

bool RigPatch::skeleton_changed() const {
  return header_ || images_.changed || bones_.changed || slots_.changed || ik_.changed || transform_.changed ||
         path_.changed || physics_.changed || events_.changed || !skin_changes_.empty() || skins_.changed;
}

void RigPatch::apply(Document& doc, bool forward) const {
  if (skeleton_changed()) {
    SkeletonSource& s = doc.edit_skeleton();
    if (header_) set_header(s, forward ? header_->second : header_->first);
    images_.apply(s.images, forward);
    bones_.apply(s.bones, forward);
    slots_.apply(s.slots, forward);
    ik_.apply(s.ik, forward);
    transform_.apply(s.transform, forward);
    path_.apply(s.path, forward);
    physics_.apply(s.physics, forward);
    events_.apply(s.events, forward);
    skins_.apply(s.skins, forward);
    for (const SkinChange& c : skin_changes_) {
      Skin& skin = s.skins[c.index];
      if (c.header) set_header(skin, forward ? c.header->second : c.header->first);
      c.attachments.apply(skin.attachments, forward);
    }
  }
  for (const ClipChange& c : clips_) {
    ClipSource& clip = doc.edit_clip(c.index);
    if (c.header) set_header(clip, forward ? c.header->second : c.header->first);
    c.curves.apply(clip.curves, forward);
    c.inherits.apply(clip.inherits, forward);
    c.attachments.apply(clip.attachments, forward);
    c.sequences.apply(clip.sequences, forward);
    c.deforms.apply(clip.deforms, forward);
    c.physics_resets.apply(clip.physics_resets, forward);
    if (c.draw_order) clip.draw_order = forward ? c.draw_order->second : c.draw_order->first;
    if (c.events) clip.events = forward ? c.events->second : c.events->first;
  }
}

}  // namespace mf::editor
