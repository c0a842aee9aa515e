#pragma once
// Internal: where clip timelines land — the bone properties, slot colour channels and constraint
// parameters each timeline kind keys, and the setup values they are relative to. Shared by the clip
// sampler's accumulating and direct paths.

#include <array>
#include <cmath>
#include <cstdint>

#include "mf/skel/skeleton_pose.hpp"
#include "timeline_eval.hpp"

namespace mf::skel::detail::clip_targets {

inline constexpr int kBoneProps = 7;  // x, y, rotation, scale x, scale y, shear x, shear y
inline constexpr int kSlotChannels = 7;
inline constexpr int kIkParams = 2, kTransformParams = 6, kPathParams = 5, kPhysicsParams = 7;

enum BoneProp { kX, kY, kRotation, kScaleX, kScaleY, kShearX, kShearY };

// Wraps an angle difference into [−180, 180).
inline float wrap180(float degrees) { return degrees - 360.0f * std::floor((degrees + 180.0f) / 360.0f); }

inline bool is_bone_kind(TimelineKind k) { return k <= TimelineKind::Inherit; }
inline bool is_slot_kind(TimelineKind k) { return k >= TimelineKind::Attachment && k <= TimelineKind::Sequence; }

// Which local properties a bone timeline keys, and how its components map onto them.
struct BoneMapping {
  int first;  // first BoneProp
  int count;
};

inline BoneMapping bone_mapping(TimelineKind k) {
  switch (k) {
    case TimelineKind::Rotate: return {kRotation, 1};
    case TimelineKind::Translate: return {kX, 2};
    case TimelineKind::TranslateX: return {kX, 1};
    case TimelineKind::TranslateY: return {kY, 1};
    case TimelineKind::Scale: return {kScaleX, 2};
    case TimelineKind::ScaleX: return {kScaleX, 1};
    case TimelineKind::ScaleY: return {kScaleY, 1};
    case TimelineKind::Shear: return {kShearX, 2};
    case TimelineKind::ShearX: return {kShearX, 1};
    case TimelineKind::ShearY: return {kShearY, 1};
    default: return {0, 0};
  }
}

inline float setup_value(const BoneTable& bones, std::size_t bone, int prop) {
  switch (prop) {
    case kX: return bones.x[bone];
    case kY: return bones.y[bone];
    case kRotation: return bones.rotation[bone];
    case kScaleX: return bones.scale_x[bone];
    case kScaleY: return bones.scale_y[bone];
    case kShearX: return bones.shear_x[bone];
    default: return bones.shear_y[bone];
  }
}

inline float& pose_value(SkeletonPose& pose, std::size_t bone, int prop) {
  switch (prop) {
    case kX: return pose.x[bone];
    case kY: return pose.y[bone];
    case kRotation: return pose.rotation[bone];
    case kScaleX: return pose.scale_x[bone];
    case kScaleY: return pose.scale_y[bone];
    case kShearX: return pose.shear_x[bone];
    default: return pose.shear_y[bone];
  }
}

// Colour channels (light r, g, b, a, dark r, g, b) a slot timeline's components land on.
struct SlotMapping {
  std::array<std::int8_t, kMaxComponents> channel;
  int count;
};

inline SlotMapping slot_mapping(TimelineKind k) {
  switch (k) {
    case TimelineKind::Rgba: return {{0, 1, 2, 3}, 4};
    case TimelineKind::Rgb: return {{0, 1, 2}, 3};
    case TimelineKind::Alpha: return {{3}, 1};
    case TimelineKind::Rgba2: return {{0, 1, 2, 3, 4, 5, 6}, 7};
    case TimelineKind::Rgb2: return {{0, 1, 2, 4, 5, 6}, 6};
    default: return {{}, 0};
  }
}

inline float& channel_of(ColorF& c, int k) { return k == 0 ? c.r : k == 1 ? c.g : k == 2 ? c.b : c.a; }

// Channel 0–3: light r, g, b, a; 4–6: dark r, g, b.
inline float& slot_channel(SkeletonPose& pose, std::size_t slot, int channel) {
  return channel < 4 ? channel_of(pose.color[slot], channel) : channel_of(pose.dark[slot], channel - 4);
}

inline float setup_channel(const SlotTable& slots, std::size_t slot, int channel) {
  if (channel < 4) {
    ColorF c = to_color_f(slots.color[slot]);
    return channel_of(c, channel);
  }
  if (!slots.has_dark[slot]) return 0;
  ColorF c = to_color_f(slots.dark[slot]);
  return channel_of(c, channel - 4);
}

// A physics parameter key's value as the pose holds it: mass keys are stored as the inverse mass.
inline float physics_param_value(TimelineKind kind, float keyed) {
  return kind == TimelineKind::PhysicsMass ? (keyed != 0 ? 1.0f / keyed : 0.0f) : keyed;
}

}  // namespace mf::skel::detail::clip_targets
