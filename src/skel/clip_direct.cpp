// The clip sampler's direct path. Most frames play one clip per layer at full weight (one looping
// track, or a crossfade that has completed); then the weighted average of the layer is that sample's
// own values, so they are written straight into the pose, with the same arithmetic the average would
// do, and the layer's accumulators are left alone. It needs each property keyed by one timeline at
// most (two timelines on one property would average). Kinds whose result the layer's bookkeeping
// settles (inherit, sequence frames, draw order, IK bend and flags) still go through it.

#include <algorithm>
#include <cmath>
#include <vector>

#include "clip_targets.hpp"
#include "mf/skel/clip_sampler.hpp"
#include "timeline_eval.hpp"

namespace mf::skel {
namespace {

using namespace detail::clip_targets;
using detail::curve_fraction;
using detail::find_key;

// A curve timeline of N components at time t into out; false before the first key.
template <std::size_t N>
[[gnu::always_inline]] inline bool evaluate_fixed(const ClipData& clip, const Timeline& tl, float t, std::uint32_t& cursor, float* out) {
  const float* times = clip.times.data() + tl.key_start;
  const std::int32_t key = find_key(times, tl.key_count, t, cursor);
  if (key < 0) return false;
  const float* v0 = clip.values.data() + tl.value_start + static_cast<std::size_t>(key) * N;
  if (static_cast<std::uint32_t>(key) + 1 >= tl.key_count) {
    for (std::size_t j = 0; j < N; ++j) out[j] = v0[j];
    return true;
  }
  const float* v1 = v0 + N;
  const float t0 = times[key], t1 = times[key + 1];
  const float f = t1 > t0 ? (t - t0) / (t1 - t0) : 0.0f;
  const std::uint32_t* codes = clip.curves.data() + tl.curve_start + static_cast<std::size_t>(key) * tl.curved;
  for (std::size_t j = 0; j < N; ++j)
    out[j] = j < tl.curved ? v0[j] + (v1[j] - v0[j]) * curve_fraction(clip, codes[j], f) : v0[j];
  return true;
}

// Numbers every keyed property so that two timelines keying one property meet at the same number.
struct PropertyNumbers {
  std::size_t bones, slots, ik, transform, path, physics;
  std::size_t bone(std::size_t b, int prop) const { return b * (kBoneProps + 1) + static_cast<std::size_t>(prop); }
  std::size_t inherit(std::size_t b) const { return bone(b, kBoneProps); }
  std::size_t slot_base() const { return bones * (kBoneProps + 1); }
  // 7 colour channels, attachment, sequence, deform
  std::size_t slot(std::size_t s, int channel) const { return slot_base() + s * 10 + static_cast<std::size_t>(channel); }
  std::size_t ik_base() const { return slot_base() + slots * 10; }
  std::size_t ik_param(std::size_t c, int k) const { return ik_base() + c * 5 + static_cast<std::size_t>(k); }
  std::size_t transform_param(std::size_t c, int k) const {
    return ik_base() + ik * 5 + c * kTransformParams + static_cast<std::size_t>(k);
  }
  std::size_t path_param(std::size_t c, int k) const {
    return ik_base() + ik * 5 + transform * kTransformParams + c * kPathParams + static_cast<std::size_t>(k);
  }
  std::size_t physics_param(std::size_t c, int k) const {
    return ik_base() + ik * 5 + transform * kTransformParams + path * kPathParams + c * (kPhysicsParams + 1) +
           static_cast<std::size_t>(k);
  }
  std::size_t draw_order() const {
    return ik_base() + ik * 5 + transform * kTransformParams + path * kPathParams + physics * (kPhysicsParams + 1);
  }
  std::size_t count() const { return draw_order() + 1; }
};

}  // namespace

bool keys_each_property_once(const ClipData& clip, const SkeletonData& data) {
  const PropertyNumbers n{data.bones.size(), data.slots.size(), data.ik.size(),
                          data.transform.size(), data.path.size(), data.physics.size()};
  std::vector<std::uint8_t> keyed(n.count(), 0);
  auto claim = [&](std::size_t number) {
    if (number >= keyed.size() || keyed[number]) return false;
    keyed[number] = 1;
    return true;
  };
  for (const Timeline& tl : clip.timelines) {
    const auto target = static_cast<std::size_t>(tl.target);
    bool ok = true;
    if (tl.kind == TimelineKind::DrawOrder) {
      ok = claim(n.draw_order());
    } else if (tl.target < 0) {
      return false;
    } else if (tl.kind == TimelineKind::Inherit) {
      ok = target < n.bones && claim(n.inherit(target));
    } else if (is_bone_kind(tl.kind)) {
      const BoneMapping m = bone_mapping(tl.kind);
      for (int k = 0; k < m.count && ok; ++k) ok = target < n.bones && claim(n.bone(target, m.first + k));
    } else if (tl.kind == TimelineKind::Attachment || tl.kind == TimelineKind::Sequence) {
      ok = target < n.slots && claim(n.slot(target, tl.kind == TimelineKind::Attachment ? 7 : 8));
    } else if (is_slot_kind(tl.kind)) {
      const SlotMapping m = slot_mapping(tl.kind);
      for (int k = 0; k < m.count && ok; ++k)
        ok = target < n.slots && claim(n.slot(target, m.channel[static_cast<std::size_t>(k)]));
    } else if (tl.kind == TimelineKind::Deform) {
      if (target >= data.attachments.size()) return false;
      const std::int32_t slot = data.attachments[target].slot;
      ok = slot >= 0 && static_cast<std::size_t>(slot) < n.slots && claim(n.slot(static_cast<std::size_t>(slot), 9));
    } else if (tl.kind == TimelineKind::Ik || tl.kind == TimelineKind::Transform || tl.kind == TimelineKind::Path) {
      const int params = tl.kind == TimelineKind::Ik ? 5 : tl.kind == TimelineKind::Transform ? kTransformParams : kPathParams;
      const std::size_t limit = tl.kind == TimelineKind::Ik ? n.ik : tl.kind == TimelineKind::Transform ? n.transform : n.path;
      if (target >= limit) return false;
      for (int k = 0; k < params && ok; ++k) {
        if (!(tl.channels & (1u << k))) continue;
        ok = claim(tl.kind == TimelineKind::Ik          ? n.ik_param(target, k)
                   : tl.kind == TimelineKind::Transform ? n.transform_param(target, k)
                                                        : n.path_param(target, k));
      }
    } else if (tl.kind >= TimelineKind::PhysicsInertia && tl.kind <= TimelineKind::PhysicsMix) {
      ok = target < n.physics &&
           claim(n.physics_param(target, static_cast<int>(tl.kind) - static_cast<int>(TimelineKind::PhysicsInertia)));
    }
    if (!ok) return false;
  }
  return true;
}

bool ClipSampler::applies_directly(std::span<const anim::ClipSample> layer, const ClipData& clip) {
  return layer.size() == 1 && layer[0].weight >= 1 && layer[0].blend == anim::ClipBlend::Replace &&
         clip.keys_each_property_once;
}

void ClipSampler::apply_direct(SkeletonPose& pose, const anim::ClipSample& sample, const ClipData& clip) {
  const SkeletonData& data = *data_;
  const BoneTable& setup = data.bones;
  const float t = sample.time;
  const anim::BoneMask* mask = sample.mask;
  float v[detail::kMaxComponents];

  // Bone properties in BoneProp order: the pose's values and the setup values keys are relative to.
  float* const values[kBoneProps] = {pose.x.data(),       pose.y.data(),       pose.rotation.data(), pose.scale_x.data(),
                                     pose.scale_y.data(), pose.shear_x.data(), pose.shear_y.data()};
  const float* const setups[kBoneProps] = {setup.x.data(),       setup.y.data(),       setup.rotation.data(),
                                            setup.scale_x.data(), setup.scale_y.data(), setup.shear_x.data(),
                                            setup.shear_y.data()};
  auto write = [&](int prop, std::size_t bone, float v) {
    // Scale keys multiply the setup scale; the others add to the setup value.
    values[prop][bone] = prop == kScaleX || prop == kScaleY ? setups[prop][bone] * v : setups[prop][bone] + v;
  };

  std::uint32_t* cursors = pose.cursors.data() + clip.cursor_base;
  for (std::size_t ti = 0; ti < clip.timelines.size(); ++ti) {
    const Timeline& tl = clip.timelines[ti];
    std::uint32_t& cursor = cursors[ti];
    const auto target = static_cast<std::size_t>(tl.target);
    if (tl.kind < TimelineKind::Inherit) {  // a bone's rotation, translation, scale or shear
      if (mask && !mask->contains(tl.target)) continue;
      const BoneMapping m = bone_mapping(tl.kind);
      if (m.count == 1) {
        if (evaluate_fixed<1>(clip, tl, t, cursor, v)) write(m.first, target, v[0]);
      } else if (evaluate_fixed<2>(clip, tl, t, cursor, v)) {
        write(m.first, target, v[0]);
        write(m.first + 1, target, v[1]);
      }
      continue;
    }
    switch (tl.kind) {
      case TimelineKind::Rgba:
      case TimelineKind::Rgb:
      case TimelineKind::Alpha:
      case TimelineKind::Rgba2:
      case TimelineKind::Rgb2: {
        if (mask && !mask->contains(data.slots.bone[target])) break;
        if (!detail::evaluate_timeline(clip, tl, t, cursor, v)) break;
        const SlotMapping m = slot_mapping(tl.kind);
        for (int k = 0; k < m.count; ++k)
          slot_channel(pose, target, m.channel[static_cast<std::size_t>(k)]) = std::clamp(v[k], 0.0f, 1.0f);
        break;
      }
      case TimelineKind::Attachment: {
        if (mask && !mask->contains(data.slots.bone[target])) break;
        const float* times = clip.times.data() + tl.key_start;
        const std::int32_t key = find_key(times, tl.key_count, t, cursor);
        if (key < 0 || 1.0f < sample.attachment_threshold) break;
        const auto name = static_cast<std::int32_t>(clip.values[tl.value_start + static_cast<std::size_t>(key) * tl.components]);
        pose.attachment[target] =
            name < 0 || !pose.skin ? -1 : find_skin_attachment(*pose.skin, static_cast<std::int32_t>(target), name);
        pose.attachment_override[target] = SkeletonPose::kNoOverride;  // a key replaces what code set
        break;
      }
      case TimelineKind::Deform: {
        const AttachmentRecord& att = data.attachments[target];
        const auto slot = static_cast<std::size_t>(att.slot);
        if (mask && !mask->contains(data.slots.bone[slot])) break;
        const float* times = clip.times.data() + tl.key_start;
        const std::int32_t key = find_key(times, tl.key_count, t, cursor);
        if (key < 0) break;
        float f = 0;
        if (static_cast<std::uint32_t>(key) + 1 < tl.key_count) {
          const float t0 = times[key], t1 = times[key + 1];
          f = curve_fraction(clip, clip.curves[tl.curve_start + static_cast<std::size_t>(key)],
                             t1 > t0 ? (t - t0) / (t1 - t0) : 0.0f);
        }
        float* out = pose.deform.data() + pose.deform_start[slot];
        const std::size_t limit = data.slot_deform_floats[slot];
        std::fill(out, out + limit, 0.0f);
        auto add_key = [&](std::uint32_t k, float scale) {
          const DeformKey& dk = clip.deform_keys[tl.value_start + k];
          const float* values = clip.values.data() + dk.value_start;
          for (std::uint32_t j = 0; j < dk.count && dk.offset + j < limit; ++j) out[dk.offset + j] += values[j] * scale;
        };
        add_key(static_cast<std::uint32_t>(key), 1 - f);
        if (f > 0) add_key(static_cast<std::uint32_t>(key) + 1, f);
        pose.deform_attachment[slot] = tl.target;
        break;
      }
      case TimelineKind::Ik: {
        if (!detail::evaluate_timeline(clip, tl, t, cursor, v)) break;
        IkPose& p = pose.ik[target];
        if (tl.channels & 1) p.mix = v[0];
        if (tl.channels & 2) p.softness = v[1];
        if (tl.channels & 0b11100) {  // bend and flags: the layer's discrete bookkeeping
          keep_best(ik_flags_[target], 1.0f, sample.attachment_threshold,
                    {(tl.channels & 4) ? v[2] : NAN, (tl.channels & 8) ? v[3] : NAN, (tl.channels & 16) ? v[4] : NAN}, 0, t);
          touched_constraints_.mark(target);
        }
        break;
      }
      case TimelineKind::Transform: {
        if (!detail::evaluate_timeline(clip, tl, t, cursor, v)) break;
        TransformPose& p = pose.transform[target];
        float* fields[] = {&p.mix_rotate, &p.mix_x, &p.mix_y, &p.mix_scale_x, &p.mix_scale_y, &p.mix_shear_y};
        for (int k = 0; k < kTransformParams; ++k)
          if (tl.channels & (1u << k)) *fields[k] = v[k];
        break;
      }
      case TimelineKind::Path: {
        if (!detail::evaluate_timeline(clip, tl, t, cursor, v)) break;
        PathPose& p = pose.path[target];
        float* fields[] = {&p.position, &p.spacing, &p.mix_rotate, &p.mix_x, &p.mix_y};
        for (int k = 0; k < kPathParams; ++k)
          if (tl.channels & (1u << k)) *fields[k] = v[k];
        break;
      }
      case TimelineKind::PhysicsInertia:
      case TimelineKind::PhysicsStrength:
      case TimelineKind::PhysicsDamping:
      case TimelineKind::PhysicsMass:
      case TimelineKind::PhysicsWind:
      case TimelineKind::PhysicsGravity:
      case TimelineKind::PhysicsMix: {
        if (!evaluate_fixed<1>(clip, tl, t, cursor, v)) break;
        PhysicsPose& p = pose.physics[target];
        float* fields[] = {&p.inertia, &p.strength, &p.damping, &p.mass_inverse, &p.wind, &p.gravity, &p.mix};
        const int k = static_cast<int>(tl.kind) - static_cast<int>(TimelineKind::PhysicsInertia);
        *fields[k] = physics_param_value(tl.kind, v[0]);
        break;
      }
      case TimelineKind::PhysicsReset: break;  // mark_physics_resets: every sample, whatever its weight
      case TimelineKind::Rotate:
      case TimelineKind::Translate:
      case TimelineKind::TranslateX:
      case TimelineKind::TranslateY:
      case TimelineKind::Scale:
      case TimelineKind::ScaleX:
      case TimelineKind::ScaleY:
      case TimelineKind::Shear:
      case TimelineKind::ShearX:
      case TimelineKind::ShearY: break;  // above
      case TimelineKind::Inherit:
      case TimelineKind::Sequence:
      case TimelineKind::DrawOrder:
        accumulate_timeline(pose, sample, clip, ti);
        break;
    }
  }
}

}  // namespace mf::skel
