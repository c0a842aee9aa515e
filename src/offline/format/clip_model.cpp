#include "mf/offline/format/clip_model.hpp"
#include "mf/core/named.hpp"

#include <algorithm>
#include <array>
#include <tuple>

namespace mf::offline {
namespace {

constexpr std::string_view kIkChannels[] = {"mix", "softness", "bend", "compress", "stretch"};
constexpr std::string_view kTransformChannels[] = {"mixRotate", "mixX", "mixY", "mixScaleX", "mixScaleY", "mixShearY"};
constexpr std::string_view kPathChannels[] = {"position", "spacing", "mixRotate", "mixX", "mixY"};

// Indexed by CurveKind.
constexpr CurveLayout kLayouts[] = {
    {CurveKind::Rotate, TimelineTarget::Bone, "rotate", 1, 1, {}},
    {CurveKind::Translate, TimelineTarget::Bone, "translate", 2, 2, {}},
    {CurveKind::TranslateX, TimelineTarget::Bone, "translateX", 1, 1, {}},
    {CurveKind::TranslateY, TimelineTarget::Bone, "translateY", 1, 1, {}},
    {CurveKind::Scale, TimelineTarget::Bone, "scale", 2, 2, {}},
    {CurveKind::ScaleX, TimelineTarget::Bone, "scaleX", 1, 1, {}},
    {CurveKind::ScaleY, TimelineTarget::Bone, "scaleY", 1, 1, {}},
    {CurveKind::Shear, TimelineTarget::Bone, "shear", 2, 2, {}},
    {CurveKind::ShearX, TimelineTarget::Bone, "shearX", 1, 1, {}},
    {CurveKind::ShearY, TimelineTarget::Bone, "shearY", 1, 1, {}},
    {CurveKind::Rgba, TimelineTarget::Slot, "rgba", 4, 4, {}},
    {CurveKind::Rgb, TimelineTarget::Slot, "rgb", 3, 3, {}},
    {CurveKind::Alpha, TimelineTarget::Slot, "alpha", 1, 1, {}},
    {CurveKind::Rgba2, TimelineTarget::Slot, "rgba2", 7, 7, {}},
    {CurveKind::Rgb2, TimelineTarget::Slot, "rgb2", 6, 6, {}},
    {CurveKind::Ik, TimelineTarget::Ik, "ik", 5, 2, kIkChannels},
    {CurveKind::Transform, TimelineTarget::Transform, "transform", 6, 6, kTransformChannels},
    {CurveKind::Path, TimelineTarget::Path, "path", 5, 5, kPathChannels},
    {CurveKind::PhysicsInertia, TimelineTarget::Physics, "inertia", 1, 1, {}},
    {CurveKind::PhysicsStrength, TimelineTarget::Physics, "strength", 1, 1, {}},
    {CurveKind::PhysicsDamping, TimelineTarget::Physics, "damping", 1, 1, {}},
    {CurveKind::PhysicsMass, TimelineTarget::Physics, "mass", 1, 1, {}},
    {CurveKind::PhysicsWind, TimelineTarget::Physics, "wind", 1, 1, {}},
    {CurveKind::PhysicsGravity, TimelineTarget::Physics, "gravity", 1, 1, {}},
    {CurveKind::PhysicsMix, TimelineTarget::Physics, "mix", 1, 1, {}},
};

constexpr std::array<const char*, 3> kCurveTypeNames = {"linear", "stepped", "bezier"};
constexpr std::array<const char*, 7> kSequenceModeNames = {"hold",        "once",        "loop",           "pingpong",
                                                           "onceReverse", "loopReverse", "pingpongReverse"};
constexpr std::array<const char*, 3> kLoopModeNames = {"None", "Linear", "PingPong"};

}  // namespace

const CurveLayout& layout(CurveKind kind) { return kLayouts[static_cast<std::size_t>(kind)]; }

std::span<const CurveLayout> all_curve_layouts() { return kLayouts; }

const CurveLayout* find_layout(TimelineTarget target, std::string_view name) {
  for (const CurveLayout& l : kLayouts)
    if (l.target == target && l.name == name) return &l;
  return nullptr;
}

void sort_timelines(ClipSource& clip) {
  std::stable_sort(clip.curves.begin(), clip.curves.end(), [](const CurveTimeline& a, const CurveTimeline& b) {
    return std::tuple(layout(a.kind).target, a.target, a.kind) < std::tuple(layout(b.kind).target, b.target, b.kind);
  });
  auto by = [](auto member) {
    return [member](const auto& a, const auto& b) { return a.*member < b.*member; };
  };
  std::stable_sort(clip.inherits.begin(), clip.inherits.end(), by(&InheritTimeline::bone));
  std::stable_sort(clip.attachments.begin(), clip.attachments.end(), by(&AttachmentTimeline::slot));
  std::stable_sort(clip.sequences.begin(), clip.sequences.end(), by(&SequenceTimeline::slot));
  std::stable_sort(clip.physics_resets.begin(), clip.physics_resets.end(), by(&PhysicsResetTimeline::constraint));
  std::stable_sort(clip.deforms.begin(), clip.deforms.end(), [](const DeformTimeline& a, const DeformTimeline& b) {
    return std::tie(a.skin, a.slot, a.attachment) < std::tie(b.skin, b.slot, b.attachment);
  });
}

const char* to_string(CurveType v) { return kCurveTypeNames[static_cast<std::size_t>(v)]; }
const char* to_string(SequenceMode v) { return kSequenceModeNames[static_cast<std::size_t>(v)]; }
const char* to_string(LoopMode v) { return kLoopModeNames[static_cast<std::size_t>(v)]; }
std::optional<SequenceMode> parse_sequence_mode(std::string_view s) {
  return parse_enum<SequenceMode>(s, kSequenceModeNames);
}
std::optional<LoopMode> parse_loop_mode(std::string_view s) { return parse_enum<LoopMode>(s, kLoopModeNames); }

}  // namespace mf::offline
