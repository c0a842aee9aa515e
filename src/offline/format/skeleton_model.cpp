#include "mf/offline/format/skeleton_model.hpp"
#include "mf/core/named.hpp"

#include <array>

namespace mf::offline {
namespace {

constexpr std::array<const char*, 5> kInheritNames = {"Normal", "OnlyTranslation", "NoRotationOrReflection",
                                                      "NoScale", "NoScaleOrReflection"};
constexpr std::array<const char*, 4> kBlendNames = {"Normal", "Additive", "Multiply", "Screen"};
constexpr std::array<const char*, 2> kFilterNames = {"Linear", "Nearest"};
constexpr std::array<const char*, 7> kAttachmentNames = {"Region",   "Mesh",  "LinkedMesh", "BoundingBox",
                                                         "Clipping", "Point", "Path"};
constexpr std::array<const char*, 4> kConstraintNames = {"ik", "transform", "path", "physics"};
constexpr std::array<const char*, 2> kPositionNames = {"Fixed", "Percent"};
constexpr std::array<const char*, 4> kSpacingNames = {"Length", "Fixed", "Percent", "Proportional"};
constexpr std::array<const char*, 3> kRotateNames = {"Tangent", "Chain", "ChainScale"};

}  // namespace

const char* to_string(Inherit v) { return kInheritNames[static_cast<std::size_t>(v)]; }
const char* to_string(BlendMode v) { return kBlendNames[static_cast<std::size_t>(v)]; }
const char* to_string(TextureFilter v) { return kFilterNames[static_cast<std::size_t>(v)]; }
const char* to_string(AttachmentType v) { return kAttachmentNames[static_cast<std::size_t>(v)]; }
const char* to_string(ConstraintKind v) { return kConstraintNames[static_cast<std::size_t>(v)]; }
const char* to_string(PositionMode v) { return kPositionNames[static_cast<std::size_t>(v)]; }
const char* to_string(SpacingMode v) { return kSpacingNames[static_cast<std::size_t>(v)]; }
const char* to_string(RotateMode v) { return kRotateNames[static_cast<std::size_t>(v)]; }

std::optional<Inherit> parse_inherit(std::string_view s) { return parse_enum<Inherit>(s, kInheritNames); }
std::optional<BlendMode> parse_blend_mode(std::string_view s) { return parse_enum<BlendMode>(s, kBlendNames); }
std::optional<TextureFilter> parse_texture_filter(std::string_view s) {
  return parse_enum<TextureFilter>(s, kFilterNames);
}
std::optional<AttachmentType> parse_attachment_type(std::string_view s) {
  return parse_enum<AttachmentType>(s, kAttachmentNames);
}
std::optional<PositionMode> parse_position_mode(std::string_view s) {
  return parse_enum<PositionMode>(s, kPositionNames);
}
std::optional<SpacingMode> parse_spacing_mode(std::string_view s) { return parse_enum<SpacingMode>(s, kSpacingNames); }
std::optional<RotateMode> parse_rotate_mode(std::string_view s) { return parse_enum<RotateMode>(s, kRotateNames); }

int SkeletonSource::find_bone(std::string_view name) const { return find_named(bones, name); }
int SkeletonSource::find_slot(std::string_view name) const { return find_named(slots, name); }
int SkeletonSource::find_skin(std::string_view name) const { return find_named(skins, name); }
int SkeletonSource::find_event(std::string_view name) const { return find_named(events, name); }

std::optional<ConstraintRef> SkeletonSource::find_constraint(std::string_view name) const {
  if (int i = find_named(ik, name); i >= 0) return ConstraintRef{ConstraintKind::Ik, i};
  if (int i = find_named(transform, name); i >= 0) return ConstraintRef{ConstraintKind::Transform, i};
  if (int i = find_named(path, name); i >= 0) return ConstraintRef{ConstraintKind::Path, i};
  if (int i = find_named(physics, name); i >= 0) return ConstraintRef{ConstraintKind::Physics, i};
  return std::nullopt;
}

const std::string& SkeletonSource::constraint_name(ConstraintRef ref) const {
  const auto i = static_cast<std::size_t>(ref.index);
  switch (ref.kind) {
    case ConstraintKind::Ik: return ik[i].name;
    case ConstraintKind::Transform: return transform[i].name;
    case ConstraintKind::Path: return path[i].name;
    case ConstraintKind::Physics: return physics[i].name;
  }
  return ik[i].name;
}

}  // namespace mf::offline
