#include "mf/skel/clip_sampler.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>

#include "mf/skel/sequence.hpp"
#include "clip_targets.hpp"
#include "timeline_eval.hpp"

namespace mf::skel {
namespace {

using detail::evaluate_timeline;
using detail::find_key;
using detail::curve_fraction;
using detail::kMaxComponents;
using namespace detail::clip_targets;

}  // namespace

bool ClipSampler::keep_best(Discrete& best, float weight, float threshold, std::array<float, 3> value, float key_time,
                            float time) {
  // Ties go to the later sample: newer entries come later in a layer.
  if (weight < threshold || weight < best.weight) return false;
  best = {weight, {value[0], value[1], value[2]}, key_time, time};
  return true;
}

ClipSampler::ClipSampler(const SkeletonData& data) : data_(&data) {
  const std::size_t bones = data.bones.size(), slots = data.slots.size();
  transform_base_ = static_cast<std::uint32_t>(data.ik.size() * kIkParams);
  path_base_ = transform_base_ + static_cast<std::uint32_t>(data.transform.size() * kTransformParams);
  physics_base_ = path_base_ + static_cast<std::uint32_t>(data.path.size() * kPathParams);
  constraint_params_ = physics_base_ + data.physics.size() * kPhysicsParams;

  for (auto* v : {&bone_sum_, &bone_weight_, &bone_add_}) v->assign(bones * kBoneProps, 0.0f);
  rotation_ref_.assign(bones, 0.0f);
  scale_negative_.assign(bones * 2, 0);
  for (auto* v : {&slot_sum_, &slot_weight_, &slot_add_}) v->assign(slots * kSlotChannels, 0.0f);
  for (auto* v : {&param_sum_, &param_weight_, &param_add_}) v->assign(constraint_params_, 0.0f);
  std::size_t deform_floats = 0;
  for (std::uint32_t n : data.slot_deform_floats) deform_floats += n;
  deform_sum_.assign(deform_floats, 0.0f);
  deform_add_.assign(deform_floats, 0.0f);
  deform_weight_.assign(slots, 0.0f);
  deform_target_.assign(slots, -1);
  deform_additive_.assign(slots, 0);
  attachment_.assign(slots, Discrete{});
  sequence_.assign(slots, Discrete{});
  inherit_.assign(bones, Discrete{});
  ik_flags_.assign(data.ik.size(), Discrete{});
  physics_reset_.assign(data.physics.size(), 0);
  const Discrete none{-1.0f, {0, 0, 0}, 0, 0};
  for (auto* v : {&attachment_, &sequence_, &inherit_, &ik_flags_}) std::fill(v->begin(), v->end(), none);
  touched_bones_.resize(bones);
  touched_slots_.resize(slots);
  touched_constraints_.resize(data.ik.size() + data.transform.size() + data.path.size() + data.physics.size());
}

void ClipSampler::apply(SkeletonPose& pose, std::span<const anim::ClipSample> samples, EventBuffer& events) {
  assert(&pose.data() == data_);
  pose.set_to_setup();
  std::size_t begin = 0;
  while (begin < samples.size()) {
    std::size_t end = begin + 1;
    while (end < samples.size() && samples[end].layer == samples[begin].layer) ++end;
    assert(end == samples.size() || samples[end].layer > samples[begin].layer);
    apply_layer(pose, samples.subspan(begin, end - begin), static_cast<std::int32_t>(begin), events);
    begin = end;
  }
}

void ClipSampler::fire_events(std::span<const anim::ClipSample> samples, EventBuffer& events) const {
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const anim::ClipSample& sample = samples[i];
    if (sample.clip < 0 || static_cast<std::size_t>(sample.clip) >= data_->clips.size()) continue;
    const ClipData* clip = data_->clip(sample.clip);
    if (!clip) continue;
    if (sample.weight >= sample.event_threshold) fire_events(sample, *clip, static_cast<std::int32_t>(i), events);
  }
}

// The accumulators are 0 (and the discrete slots empty) outside a layer: finish_layer resets what the
// layer touched. Only the draw order is kept apart.
void ClipSampler::clear_layer() {
  draw_order_ = Discrete{-1.0f, {0, 0, 0}, 0, 0};
  draw_order_value_ = nullptr;
}

void ClipSampler::apply_layer(SkeletonPose& pose, std::span<const anim::ClipSample> layer, std::int32_t first_index,
                              EventBuffer& events) {
  clear_layer();
  for (std::size_t i = 0; i < layer.size(); ++i) {
    const anim::ClipSample& sample = layer[i];
    if (sample.clip < 0 || static_cast<std::size_t>(sample.clip) >= data_->clips.size()) continue;
    const ClipData* clip = data_->clip(sample.clip);
    if (!clip) continue;
    if (applies_directly(layer, *clip)) apply_direct(pose, sample, *clip);
    else if (sample.weight > 0) sample_into_layer(pose, sample, *clip);
    mark_physics_resets(sample, *clip);
    if (sample.weight >= sample.event_threshold) fire_events(sample, *clip, first_index + static_cast<std::int32_t>(i), events);
  }
  finish_layer(pose);
}

// A reset is an instant, not a value to blend: every sample that plays a reset key resets, mixing in
// or out, whatever its weight (a mixing-out entry's last sample, when its mix completes, has none).
void ClipSampler::mark_physics_resets(const anim::ClipSample& sample, const ClipData& clip) {
  if (!clip.has_physics_resets) return;
  const float t = sample.time;
  for (const Timeline& tl : clip.timelines) {
    if (tl.kind != TimelineKind::PhysicsReset) continue;
    const float* times = clip.times.data() + tl.key_start;
    for (std::uint32_t k = 0; k < tl.key_count; ++k) {
      const float kt = times[k];
      const bool in_window = sample.loops > 0 ? (kt > sample.previous_time || kt <= t)
                                              : ((kt > sample.previous_time || (sample.first && kt == sample.previous_time)) && kt <= t);
      if (in_window) {
        physics_reset_[static_cast<std::size_t>(tl.target)] = 1;
        touched_constraints_.mark(physics_index(tl.target));
      }
    }
  }
}

void ClipSampler::sample_into_layer(SkeletonPose& pose, const anim::ClipSample& sample, const ClipData& clip) {
  for (std::size_t ti = 0; ti < clip.timelines.size(); ++ti) accumulate_timeline(pose, sample, clip, ti);
}

// One timeline's values added to the layer's accumulators (or kept as the best discrete value).
void ClipSampler::accumulate_timeline(SkeletonPose& pose, const anim::ClipSample& sample, const ClipData& clip,
                                      std::size_t ti) {
  const SkeletonData& data = *data_;
  const float w = std::min(sample.weight, 1.0f);
  const bool additive = sample.blend == anim::ClipBlend::Additive;
  const float t = sample.time;
  float v[kMaxComponents];
  const Timeline& tl = clip.timelines[ti];
  std::uint32_t& cursor = pose.cursors[clip.cursor_base + ti];
  const auto target = static_cast<std::size_t>(tl.target);

  if (is_bone_kind(tl.kind)) {
    if (sample.mask && !sample.mask->contains(tl.target)) return;
    if (!evaluate_timeline(clip, tl, t, cursor, v)) return;
    touched_bones_.mark(target);
    if (tl.kind == TimelineKind::Inherit) {
      if (!additive)
        keep_best(inherit_[target], w, sample.attachment_threshold, {v[0], 0, 0}, 0, t);
      return;
    }
    const BoneMapping m = bone_mapping(tl.kind);
    for (int k = 0; k < m.count; ++k) {
      const int prop = m.first + k;
      const float setup = setup_value(data.bones, target, prop);
      const bool is_scale = prop == kScaleX || prop == kScaleY;
      const float sampled = is_scale ? setup * v[k] : setup + v[k];
      const std::size_t at = target * kBoneProps + static_cast<std::size_t>(prop);
      if (additive) {
        bone_add_[at] += (sampled - setup) * w;
      } else if (prop == kRotation) {
        // Average as differences from the first sample's angle, along the (latched) shortest arc.
        if (bone_weight_[at] == 0) {
          rotation_ref_[target] = sampled;
        } else {
          float diff = wrap180(sampled - rotation_ref_[target]);
          if (float* latch = sample.rotation_latch ? &sample.rotation_latch[target] : nullptr) {
            if (!std::isnan(*latch)) diff = *latch + wrap180(diff - *latch);  // stay continuous
            *latch = diff;
          }
          bone_sum_[at] += diff * w;
        }
        bone_weight_[at] += w;
      } else if (is_scale) {
        // Magnitudes average; the sign is the newest sample's (samples come oldest first).
        bone_sum_[at] += std::abs(sampled) * w;
        bone_weight_[at] += w;
        scale_negative_[target * 2 + static_cast<std::size_t>(prop - kScaleX)] = std::signbit(sampled) ? 1 : 0;
      } else {
        bone_sum_[at] += sampled * w;
        bone_weight_[at] += w;
      }
    }
    return;
  }

  if (is_slot_kind(tl.kind)) {
    const std::int32_t bone = data.slots.bone[target];
    if (sample.mask && !sample.mask->contains(bone)) return;
    if (tl.kind == TimelineKind::Attachment || tl.kind == TimelineKind::Sequence) {
      if (additive) return;
      const float* times = clip.times.data() + tl.key_start;
      const std::int32_t key = find_key(times, tl.key_count, t, cursor);
      if (key < 0) return;
      touched_slots_.mark(target);
      const float* kv = clip.values.data() + tl.value_start + static_cast<std::size_t>(key) * tl.components;
      if (tl.kind == TimelineKind::Attachment)
        keep_best(attachment_[target], w, sample.attachment_threshold, {kv[0], 0, 0}, times[key], t);
      else
        keep_best(sequence_[target], w, sample.attachment_threshold, {kv[0], kv[1], kv[2]}, times[key], t);
      return;
    }
    if (!evaluate_timeline(clip, tl, t, cursor, v)) return;
    touched_slots_.mark(target);
    const SlotMapping m = slot_mapping(tl.kind);
    for (int k = 0; k < m.count; ++k) {
      const std::size_t at = target * kSlotChannels + static_cast<std::size_t>(m.channel[static_cast<std::size_t>(k)]);
      if (additive) {
        slot_add_[at] += (v[k] - setup_channel(data.slots, target, m.channel[static_cast<std::size_t>(k)])) * w;
      } else {
        slot_sum_[at] += v[k] * w;
        slot_weight_[at] += w;
      }
    }
    return;
  }

  switch (tl.kind) {
    case TimelineKind::Ik:
    case TimelineKind::Transform:
    case TimelineKind::Path: {
      if (!evaluate_timeline(clip, tl, t, cursor, v)) break;
      std::size_t base = 0;
      int curved_params = 0;
      touched_constraints_.mark(tl.kind == TimelineKind::Ik          ? target
                                : tl.kind == TimelineKind::Transform ? data.ik.size() + target
                                                                     : data.ik.size() + data.transform.size() + target);
      if (tl.kind == TimelineKind::Ik) {
        base = target * kIkParams;
        curved_params = kIkParams;
        if (!additive && (tl.channels & 0b11100))
          keep_best(ik_flags_[target], w, sample.attachment_threshold,
                    {(tl.channels & 4) ? v[2] : NAN, (tl.channels & 8) ? v[3] : NAN, (tl.channels & 16) ? v[4] : NAN}, 0, t);
      } else if (tl.kind == TimelineKind::Transform) {
        base = transform_base_ + target * kTransformParams;
        curved_params = kTransformParams;
      } else {
        base = path_base_ + target * kPathParams;
        curved_params = kPathParams;
      }
      for (int k = 0; k < curved_params; ++k) {
        if (!(tl.channels & (1u << k))) continue;
        const std::size_t at = base + static_cast<std::size_t>(k);
        if (additive) {
          param_add_[at] += v[k] * w;  // constraint keys are absolute; additive adds the key × weight
        } else {
          param_sum_[at] += v[k] * w;
          param_weight_[at] += w;
        }
      }
      break;
    }
    case TimelineKind::PhysicsInertia:
    case TimelineKind::PhysicsStrength:
    case TimelineKind::PhysicsDamping:
    case TimelineKind::PhysicsMass:
    case TimelineKind::PhysicsWind:
    case TimelineKind::PhysicsGravity:
    case TimelineKind::PhysicsMix: {
      if (!evaluate_timeline(clip, tl, t, cursor, v)) break;
      touched_constraints_.mark(physics_index(tl.target));
      const int k = static_cast<int>(tl.kind) - static_cast<int>(TimelineKind::PhysicsInertia);
      const float value = physics_param_value(tl.kind, v[0]);
      const std::size_t at = physics_base_ + target * kPhysicsParams + static_cast<std::size_t>(k);
      if (additive) {
        param_add_[at] += value * w;
      } else {
        param_sum_[at] += value * w;
        param_weight_[at] += w;
      }
      break;
    }
    case TimelineKind::PhysicsReset: break;  // mark_physics_resets: every sample, whatever its weight
    case TimelineKind::Deform: {
      const AttachmentRecord& att = data.attachments[target];
      const auto slot = static_cast<std::size_t>(att.slot);
      if (sample.mask && !sample.mask->contains(data.slots.bone[slot])) break;
      const float* times = clip.times.data() + tl.key_start;
      const std::int32_t key = find_key(times, tl.key_count, t, cursor);
      if (key < 0) break;
      touched_slots_.mark(slot);
      float f = 0;
      if (static_cast<std::uint32_t>(key) + 1 < tl.key_count) {
        const float t0 = times[key], t1 = times[key + 1];
        f = curve_fraction(clip, clip.curves[tl.curve_start + static_cast<std::size_t>(key)], t1 > t0 ? (t - t0) / (t1 - t0) : 0.0f);
      }
      if (deform_target_[slot] != tl.target) {
        if (deform_target_[slot] >= 0 && deform_weight_[slot] >= w) break;  // a heavier sample deforms another attachment
        deform_target_[slot] = tl.target;
        deform_weight_[slot] = 0;
        const std::size_t start = pose.deform_start[slot];
        const std::size_t size = data.slot_deform_floats[slot];
        std::fill(deform_sum_.begin() + static_cast<std::ptrdiff_t>(start), deform_sum_.begin() + static_cast<std::ptrdiff_t>(start + size), 0.0f);
        std::fill(deform_add_.begin() + static_cast<std::ptrdiff_t>(start), deform_add_.begin() + static_cast<std::ptrdiff_t>(start + size), 0.0f);
      }
      float* out = (additive ? deform_add_.data() : deform_sum_.data()) + pose.deform_start[slot];
      const std::size_t limit = data.slot_deform_floats[slot];
      auto add_key = [&](std::uint32_t k, float scale) {
        const DeformKey& dk = clip.deform_keys[tl.value_start + k];
        const float* values = clip.values.data() + dk.value_start;
        for (std::uint32_t j = 0; j < dk.count && dk.offset + j < limit; ++j) out[dk.offset + j] += values[j] * scale;
      };
      add_key(static_cast<std::uint32_t>(key), w * (1 - f));
      if (f > 0) add_key(static_cast<std::uint32_t>(key) + 1, w * f);
      if (additive) deform_additive_[slot] = 1;
      else deform_weight_[slot] += w;
      break;
    }
    case TimelineKind::DrawOrder: {
      if (additive) break;
      const float* times = clip.times.data() + tl.key_start;
      const std::int32_t key = find_key(times, tl.key_count, t, cursor);
      if (key < 0 || !keep_best(draw_order_, w, sample.draw_order_threshold, {0, 0, 0}, times[key], t)) break;
      draw_order_value_ = clip.draw_orders.data() + tl.value_start + static_cast<std::size_t>(key) * data.slots.size();
      break;
    }
    default:
      break;
  }
}

void ClipSampler::finish_layer(SkeletonPose& pose) {
  for (std::uint32_t b : touched_bones_.items()) finish_bone(pose, b);
  for (std::uint32_t s : touched_slots_.items()) finish_slot(pose, s);
  if (draw_order_value_) {
    for (std::size_t i = 0; i < data_->slots.size(); ++i) pose.draw_order[i] = static_cast<std::uint16_t>(draw_order_value_[i]);
  }
  for (std::uint32_t c : touched_constraints_.items()) finish_constraint(pose, c);
  touched_bones_.clear();
  touched_slots_.clear();
  touched_constraints_.clear();
}

// A bone's weighted average over the pose below, then its additive contributions; resets its sums.
void ClipSampler::finish_bone(SkeletonPose& pose, std::size_t b) {
  for (int prop = 0; prop < kBoneProps; ++prop) {
    const std::size_t at = b * kBoneProps + static_cast<std::size_t>(prop);
    const float weight = bone_weight_[at];
    float& value = pose_value(pose, b, prop);
    if (weight > 0) {
      if (prop == kRotation) {
        const float average = rotation_ref_[b] + bone_sum_[at] / weight;
        value = weight >= 1 ? average : value + wrap180(average - value) * weight;
      } else if (prop == kScaleX || prop == kScaleY) {
        // The pose below takes part with its magnitude; the sign is the newest sample's.
        const float magnitude = weight >= 1 ? bone_sum_[at] / weight : std::abs(value) * (1 - weight) + bone_sum_[at];
        value = scale_negative_[b * 2 + static_cast<std::size_t>(prop - kScaleX)] ? -magnitude : magnitude;
      } else {
        value = weight >= 1 ? bone_sum_[at] / weight : value * (1 - weight) + bone_sum_[at];
      }
    }
    value += bone_add_[at];
    bone_sum_[at] = bone_weight_[at] = bone_add_[at] = 0;
  }
  Discrete& inh = inherit_[b];
  if (inh.weight >= 0) pose.inherit[b] = static_cast<Inherit>(static_cast<int>(inh.value[0]));
  inh.weight = -1;
}

// A slot's colours, attachment, sequence frame and deform; resets its sums.
void ClipSampler::finish_slot(SkeletonPose& pose, std::size_t s) {
  const SkeletonData& data = *data_;
  for (int ch = 0; ch < kSlotChannels; ++ch) {
    const std::size_t at = s * kSlotChannels + static_cast<std::size_t>(ch);
    float& value = slot_channel(pose, s, ch);
    const float weight = slot_weight_[at];
    if (weight > 0) value = weight >= 1 ? slot_sum_[at] / weight : value * (1 - weight) + slot_sum_[at];
    value = std::clamp(value + slot_add_[at], 0.0f, 1.0f);
    slot_sum_[at] = slot_weight_[at] = slot_add_[at] = 0;
  }
  Discrete& att = attachment_[s];
  if (att.weight >= 0) {
    const auto name = static_cast<std::int32_t>(att.value[0]);
    pose.attachment[s] = name < 0 || !pose.skin ? -1 : find_skin_attachment(*pose.skin, static_cast<std::int32_t>(s), name);
    pose.attachment_override[s] = SkeletonPose::kNoOverride;  // a key replaces what code set
    att.weight = -1;
  }
  Discrete& seq = sequence_[s];
  const std::int32_t shown = pose.attachment[s];
  if (seq.weight >= 0 && shown >= 0) {
    const AttachmentRecord& rec = data.attachments[static_cast<std::size_t>(shown)];
    pose.sequence_index[s] = sequence_frame(static_cast<SequenceMode>(static_cast<int>(seq.value[0])),
                                            static_cast<std::int32_t>(seq.value[1]), seq.value[2],
                                            seq.time - seq.key_time, static_cast<std::int32_t>(rec.region_count));
  }
  seq.weight = -1;
  if (deform_target_[s] >= 0) {
    const std::size_t start = pose.deform_start[s];
    const std::size_t size = data.slot_deform_floats[s];
    float* value = pose.deform.data() + start;
    const float weight = deform_weight_[s];
    const bool same = pose.deform_attachment[s] == deform_target_[s];
    for (std::size_t j = 0; j < size; ++j) {
      const float below = same ? value[j] : 0.0f;
      float v = below;
      if (weight > 0) v = weight >= 1 ? deform_sum_[start + j] / weight : below * (1 - weight) + deform_sum_[start + j];
      value[j] = v + deform_add_[start + j];
    }
    pose.deform_attachment[s] = deform_target_[s];
    deform_target_[s] = -1;  // its sums are cleared when a sample next targets the slot
    deform_weight_[s] = 0;
    deform_additive_[s] = 0;
  }
}

// A constraint's parameters (IK, transform, path, physics in the numbering of touched_constraints_).
void ClipSampler::finish_constraint(SkeletonPose& pose, std::size_t c) {
  const SkeletonData& data = *data_;
  auto blend_param = [&](std::size_t at, float& value) {
    const float weight = param_weight_[at];
    if (weight > 0) value = weight >= 1 ? param_sum_[at] / weight : value * (1 - weight) + param_sum_[at];
    value += param_add_[at];
    param_sum_[at] = param_weight_[at] = param_add_[at] = 0;
  };
  if (c < data.ik.size()) {
    IkPose& p = pose.ik[c];
    blend_param(c * kIkParams + 0, p.mix);
    blend_param(c * kIkParams + 1, p.softness);
    Discrete& flags = ik_flags_[c];
    if (flags.weight >= 0) {
      if (!std::isnan(flags.value[0])) p.bend = flags.value[0] < 0 ? -1 : 1;
      if (!std::isnan(flags.value[1])) p.compress = flags.value[1] != 0;
      if (!std::isnan(flags.value[2])) p.stretch = flags.value[2] != 0;
      flags.weight = -1;
    }
    return;
  }
  c -= data.ik.size();
  if (c < data.transform.size()) {
    TransformPose& p = pose.transform[c];
    float* fields[] = {&p.mix_rotate, &p.mix_x, &p.mix_y, &p.mix_scale_x, &p.mix_scale_y, &p.mix_shear_y};
    for (int k = 0; k < kTransformParams; ++k) blend_param(transform_base_ + c * kTransformParams + static_cast<std::size_t>(k), *fields[k]);
    return;
  }
  c -= data.transform.size();
  if (c < data.path.size()) {
    PathPose& p = pose.path[c];
    float* fields[] = {&p.position, &p.spacing, &p.mix_rotate, &p.mix_x, &p.mix_y};
    for (int k = 0; k < kPathParams; ++k) blend_param(path_base_ + c * kPathParams + static_cast<std::size_t>(k), *fields[k]);
    return;
  }
  c -= data.path.size();
  PhysicsPose& p = pose.physics[c];
  float* fields[] = {&p.inertia, &p.strength, &p.damping, &p.mass_inverse, &p.wind, &p.gravity, &p.mix};
  for (int k = 0; k < kPhysicsParams; ++k) blend_param(physics_base_ + c * kPhysicsParams + static_cast<std::size_t>(k), *fields[k]);
  if (physics_reset_[c]) ++p.reset_count;
  physics_reset_[c] = 0;
}

void ClipSampler::fire_events(const anim::ClipSample& sample, const ClipData& clip, std::int32_t sample_index,
                              EventBuffer& events) const {
  if (clip.events.empty()) return;
  const SkeletonData& data = *data_;
  auto fire_range = [&](float from, bool include_from, float to) {
    // Events are sorted by time: skip to the first at or after `from`.
    auto it = std::lower_bound(clip.events.begin(), clip.events.end(), from,
                               [](const EventKey& e, float t) { return e.time < t; });
    for (; it != clip.events.end() && it->time <= to; ++it) {
      if (it->time == from && !include_from) continue;
      const EventData& def = data.events[static_cast<std::size_t>(it->event)];
      const std::string* text = it->string_value >= 0 ? &clip.strings[static_cast<std::size_t>(it->string_value)] : &def.string_value;
      events.push({it->event, sample.clip, sample_index, it->time, it->int_value, it->float_value, text, it->volume, it->balance});
    }
  };
  if (sample.loops <= 0) {
    if (sample.time >= sample.previous_time) fire_range(sample.previous_time, sample.first, sample.time);
    return;
  }
  // A loop wrap: (previous, length], then each full pass, then [0, time]. At most 4 full passes fire in
  // one frame, so a huge time step cannot flood the buffer.
  fire_range(sample.previous_time, sample.first, clip.length);
  const std::int32_t full_passes = std::min<std::int32_t>(sample.loops - 1, 4);
  for (std::int32_t k = 0; k < full_passes; ++k) fire_range(0, true, clip.length);
  fire_range(0, true, sample.time);
}

void sample_timeline(const ClipData& clip, const Timeline& timeline, float time, std::span<float> out) {
  std::uint32_t cursor = 0;
  float v[kMaxComponents];
  if (!evaluate_timeline(clip, timeline, time, cursor, v)) {
    const float* first = clip.values.data() + timeline.value_start;
    std::copy(first, first + timeline.components, v);
  }
  std::copy(v, v + std::min<std::size_t>(timeline.components, out.size()), out.begin());
}

}  // namespace mf::skel
