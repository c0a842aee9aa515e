// Spine attachment timelines to clip timelines: deform keys (Spine 4.0's "deform" section, and
// "deform" under 4.1's "attachments" section) and sequence keys (4.1+, under "attachments").
//
// Deform values are offsets in each vertex's own space (the slot bone's, or each influence's bone
// for weighted meshes), so every y offset flips sign. Spine's deform curve already has its y as a
// fraction from one key's vertices to the next.

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "mf/offline/json/json_path.hpp"
#include "spine_anim_convert.hpp"

namespace mf::offline::spine {

using json::Node;

namespace {

const Attachment* find_attachment(const Skin& skin, int slot, const std::string& name) {
  for (const Attachment& a : skin.attachments)
    if (a.slot == slot && a.name == name) return &a;
  return nullptr;
}

}  // namespace

int AnimationConverter::deform_floats(const Node& where, int skin, int slot, const std::string& attachment) {
  const Skin& s = skeleton_.skins[static_cast<std::size_t>(skin)];
  const Attachment* a = find_attachment(s, slot, attachment);
  if (!a) where.fail("skin \"" + s.name + "\" has no attachment \"" + attachment + "\" in this slot");
  // Spine deforms every vertex attachment: mesh, linked mesh, path, clipping and bounding box.
  const DeformVertices target = deform_vertices(skeleton_, skin, *a);
  if (target.not_shared) return -1;
  if (!target.vertices) where.fail(target.problem);
  return static_cast<int>(deform_float_count(*target.vertices));
}

namespace {

// A deform key's offsets for every vertex float (zero outside the keyed run).
std::vector<float> dense_deform(const DeformKeySource& key, int floats) {
  std::vector<float> out(static_cast<std::size_t>(std::max(floats, 0)), 0.0f);
  for (std::size_t j = 0; j < key.values.size(); ++j)
    if (static_cast<std::size_t>(key.offset) + j < out.size()) out[static_cast<std::size_t>(key.offset) + j] = key.values[j];
  return out;
}

// The keyed run of dense offsets: from the first non-zero float to the last.
DeformKeySource sparse_deform(const std::vector<float>& dense) {
  DeformKeySource out;
  std::size_t first = 0, last = dense.size();
  while (first < last && dense[first] == 0) ++first;
  while (last > first && dense[last - 1] == 0) --last;
  out.offset = static_cast<int>(first);
  out.values.assign(dense.begin() + static_cast<std::ptrdiff_t>(first), dense.begin() + static_cast<std::ptrdiff_t>(last));
  if (out.values.empty()) out.offset = 0;
  for (float& v : out.values)
    if (v == 0) v = 0.0f;  // no negative zeros
  return out;
}

}  // namespace

void AnimationConverter::deform(const Node& keys, const std::string& skin, int slot, const std::string& slot_name,
                                const std::string& attachment) {
  const int floats = deform_floats(keys, skeleton_.find_skin(skin), slot, attachment);
  if (floats < 0) {
    note(keys.path(), "deform keys on linked mesh \"" + attachment +
                          "\", which does not share its parent's deform keys, have no counterpart; not imported");
    return;
  }
  for (const DeformTimeline& d : clip_.deforms)
    if (d.skin == skin && d.slot == slot_name && d.attachment == attachment) keys.fail("this attachment's deform is keyed twice");

  DeformTimeline tl;
  tl.skin = skin;
  tl.slot = slot_name;
  tl.attachment = attachment;
  std::vector<SpineCurve> curves;
  std::vector<std::string> noted;
  float previous = -1;
  const std::size_t n = keys.size();
  for (std::size_t i = 0; i < n; ++i) {
    KeyFields key(keys[i]);
    previous = read_time(key, previous, false);
    DeformKeySource dk;
    if (auto offset = key.optional("offset")) dk.offset = offset->as_int(0, floats);
    if (auto vertices = key.optional("vertices")) {
      dk.values = vertices->as_floats();
      if (dk.offset + static_cast<long long>(dk.values.size()) > floats)
        vertices->fail("offset " + std::to_string(dk.offset) + " and " + std::to_string(dk.values.size()) +
                       " values pass the attachment's " + std::to_string(floats) + " vertex floats");
      for (std::size_t j = 0; j < dk.values.size(); ++j)
        if ((static_cast<std::size_t>(dk.offset) + j) % 2 == 1 && dk.values[j] != 0) dk.values[j] = -dk.values[j];
    }
    if (i + 1 < n) {
      SpineCurve curve;
      if (auto c = key.optional("curve")) {
        if (c->is_string()) {
          if (c->as_string() != "stepped") c->fail("expected \"stepped\" or 4 bezier control values");
          curve = SpineCurve::stepped();
        } else {
          if (c->size() != 4) c->fail("expected 4 bezier control values, found " + std::to_string(c->size()));
          curve = SpineCurve::bezier((*c)[0].as_float(), (*c)[1].as_float(), (*c)[2].as_float(), (*c)[3].as_float());
        }
      }
      curves.push_back(curve);
    } else {
      key.optional("curve");  // a curve on the last key shapes no segment
    }
    tl.times.push_back(previous);
    tl.keys.push_back(std::move(dk));
    note_unused(key, noted);
  }
  if (tl.times.empty()) {
    note(keys.path(), "timeline without keys; ignored");
    return;
  }
  // Segments whose bezier handles leave them in time take Spine's polyline reading: keys of their own
  // at the pieces' ends, each the vertices interpolated by the reading's fraction (from the last
  // segment back, so the indices still to visit stay put).
  for (std::size_t s = curves.size(); s-- > 0;) {
    KeyTrack segment;
    segment.times = {tl.times[s], tl.times[s + 1]};
    segment.values = {0, 1};
    segment.curves = {curves[s]};
    if (reexpress_as_polylines(segment) == 0) continue;
    const std::vector<float> from = dense_deform(tl.keys[s], floats), to = dense_deform(tl.keys[s + 1], floats);
    std::vector<float> inserted_times;
    std::vector<DeformKeySource> inserted_keys;
    for (std::size_t k = 1; k + 1 < segment.key_count(); ++k) {
      const double f = segment.value(k, 0);
      std::vector<float> v(static_cast<std::size_t>(floats));
      for (std::size_t j = 0; j < v.size(); ++j) v[j] = static_cast<float>(from[j] + (to[j] - from[j]) * f);
      inserted_times.push_back(static_cast<float>(segment.times[k]));
      inserted_keys.push_back(sparse_deform(v));
    }
    const auto at = static_cast<std::ptrdiff_t>(s);
    tl.times.insert(tl.times.begin() + at + 1, inserted_times.begin(), inserted_times.end());
    tl.keys.insert(tl.keys.begin() + at + 1, inserted_keys.begin(), inserted_keys.end());
    curves.erase(curves.begin() + at);
    curves.insert(curves.begin() + at, segment.curves.begin(), segment.curves.end());
  }
  // The curve's y is already the fraction from one key to the next: a track whose values run 0 → 1
  // in every segment normalises it unchanged, and normalises x as for every other timeline.
  NormaliseReport report;
  for (std::size_t s = 0; s < curves.size(); ++s) {
    KeyTrack segment;
    segment.times = {tl.times[s], tl.times[s + 1]};
    segment.values = {0, 1};
    segment.curves = {curves[s]};
    tl.curves.push_back(normalised_curves(segment, report).front());
  }
  if (report.clamped_x > 0)
    note(keys.path(), std::to_string(report.clamped_x) +
                          " bezier handle(s) reach outside their segment in time; clamped into it (timing changes slightly)");
  clip_.deforms.push_back(std::move(tl));
}

void AnimationConverter::sequence(const Node& keys, const std::string& slot_name) {
  for (const SequenceTimeline& s : clip_.sequences)
    if (s.slot == slot_name) {
      note(keys.path(), "slot \"" + slot_name +
                            "\" already has sequence keys for another attachment; one sequence timeline per slot is "
                            "kept, these are not imported");
      return;
    }
  SequenceTimeline tl;
  tl.slot = slot_name;
  std::vector<std::string> noted;
  float previous = -1;
  for (const Node& k : keys.items()) {
    KeyFields key(k);
    previous = read_time(key, previous, false);
    SequenceKey sk;
    if (auto mode = key.optional("mode")) {
      // Spine names the modes as our format does.
      auto parsed = parse_sequence_mode(mode->as_string());
      if (!parsed)
        mode->fail("unknown sequence mode \"" + mode->as_string() +
                   "\" (expected hold, once, loop, pingpong, onceReverse, loopReverse or pingpongReverse)");
      sk.mode = *parsed;
    }
    if (auto index = key.optional("index")) sk.index = index->as_int(0, 1 << 30);
    if (auto delay = key.optional("delay")) {
      sk.delay = delay->as_float();
      if (!(sk.delay >= 0)) delay->fail("a sequence delay must be >= 0");
    }
    tl.times.push_back(previous);
    tl.keys.push_back(sk);
    note_unused(key, noted);
  }
  if (tl.times.empty()) {
    note(keys.path(), "timeline without keys; ignored");
    return;
  }
  clip_.sequences.push_back(std::move(tl));
}

namespace {

// Calls `visit(skin, slot index, slot name, attachment name, node)` for every attachment of a
// skin → slot → attachment section, after checking that the skin and slot exist.
template <class Visit>
void walk_skins(const Node& section, const SkeletonSource& skeleton, Visit visit) {
  if (!section.is_object()) section.fail("expected an object of skin names");
  for (const auto& [skin, slots] : section.members()) {
    if (skeleton.find_skin(skin) < 0) slots.fail("unknown skin \"" + skin + "\"");
    if (!slots.is_object()) slots.fail("expected an object of slot names");
    for (const auto& [slot_name, attachments] : slots.members()) {
      const int slot = skeleton.find_slot(slot_name);
      if (slot < 0) attachments.fail("unknown slot \"" + slot_name + "\"");
      if (!attachments.is_object()) attachments.fail("expected an object of attachment names");
      for (const auto& [attachment, node] : attachments.members()) visit(skin, slot, slot_name, attachment, node);
    }
  }
}

}  // namespace

void AnimationConverter::deform_section(const Node& section) {
  walk_skins(section, skeleton_,
             [this](const std::string& skin, int slot, const std::string& slot_name, const std::string& attachment,
                    const Node& keys) { deform(keys, skin, slot, slot_name, attachment); });
}

void AnimationConverter::attachments_section(const Node& section) {
  walk_skins(section, skeleton_,
             [this](const std::string& skin, int slot, const std::string& slot_name, const std::string& attachment,
                    const Node& timelines) {
               if (!timelines.is_object()) timelines.fail("expected an object of timelines");
               const Skin& s = skeleton_.skins[static_cast<std::size_t>(skeleton_.find_skin(skin))];
               if (!find_attachment(s, slot, attachment))
                 timelines.fail("skin \"" + skin + "\" has no attachment \"" + attachment + "\" in this slot");
               for (const auto& [kind, keys] : timelines.members()) {
                 if (kind == "deform")
                   deform(keys, skin, slot, slot_name, attachment);
                 else if (kind == "sequence")
                   sequence(keys, slot_name);
                 else
                   note(keys.path(), "unknown attachment timeline \"" + kind + "\"; not imported");
               }
             });
}

}  // namespace mf::offline::spine
