#include "mf/offline/format/skeleton_model.hpp"
#include "mf/core/named.hpp"

#include <algorithm>
#include <array>
#include <type_traits>
#include <variant>

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

int SkeletonSource::find_constraint(ConstraintKind kind, std::string_view name) const {
  switch (kind) {
    case ConstraintKind::Ik: return find_named(ik, name);
    case ConstraintKind::Transform: return find_named(transform, name);
    case ConstraintKind::Path: return find_named(path, name);
    case ConstraintKind::Physics: return find_named(physics, name);
  }
  return -1;
}

namespace {
// Calls f(c) with the constraint `ref` names, whatever its kind.
template <class S, class F>
decltype(auto) visit_constraint(S& s, ConstraintRef ref, F&& f) {
  const auto i = static_cast<std::size_t>(ref.index);
  switch (ref.kind) {
    case ConstraintKind::Transform: return f(s.transform[i]);
    case ConstraintKind::Path: return f(s.path[i]);
    case ConstraintKind::Physics: return f(s.physics[i]);
    case ConstraintKind::Ik: break;
  }
  return f(s.ik[i]);
}
}  // namespace

const std::string& SkeletonSource::constraint_name(ConstraintRef ref) const {
  return visit_constraint(*this, ref, [](const auto& c) -> const std::string& { return c.name; });
}

const std::optional<int>& SkeletonSource::constraint_order(ConstraintRef ref) const {
  return visit_constraint(*this, ref, [](const auto& c) -> const std::optional<int>& { return c.order; });
}

std::size_t SkeletonSource::constraint_count(ConstraintKind kind) const {
  switch (kind) {
    case ConstraintKind::Ik: return ik.size();
    case ConstraintKind::Transform: return transform.size();
    case ConstraintKind::Path: return path.size();
    case ConstraintKind::Physics: return physics.size();
  }
  return 0;
}

std::vector<ConstraintRef> SkeletonSource::update_order() const {
  std::vector<ConstraintRef> explicit_order, implicit_order;
  for (ConstraintKind kind : {ConstraintKind::Ik, ConstraintKind::Transform, ConstraintKind::Path, ConstraintKind::Physics})
    for (std::size_t i = 0; i < constraint_count(kind); ++i) {
      const ConstraintRef ref{kind, static_cast<int>(i)};
      (constraint_order(ref) ? explicit_order : implicit_order).push_back(ref);
    }
  std::stable_sort(explicit_order.begin(), explicit_order.end(), [&](ConstraintRef a, ConstraintRef b) {
    return *constraint_order(a) < *constraint_order(b);
  });
  explicit_order.insert(explicit_order.end(), implicit_order.begin(), implicit_order.end());
  return explicit_order;
}

SkeletonSource::ConstraintOrders SkeletonSource::canonical_orders() const {
  ConstraintOrders out;
  std::array<std::size_t, 4> first{};  // default position of each kind's first constraint
  std::size_t total = 0;
  for (ConstraintKind kind : {ConstraintKind::Ik, ConstraintKind::Transform, ConstraintKind::Path, ConstraintKind::Physics}) {
    first[static_cast<std::size_t>(kind)] = total;
    total += constraint_count(kind);
    out[static_cast<std::size_t>(kind)].resize(constraint_count(kind));
  }
  const std::vector<ConstraintRef> order = update_order();
  const auto default_position = [&](ConstraintRef r) {
    return first[static_cast<std::size_t>(r.kind)] + static_cast<std::size_t>(r.index);
  };
  std::size_t k = order.size();
  while (k > 0 && (k == order.size() || default_position(order[k - 1]) < default_position(order[k]))) --k;
  for (std::size_t i = 0; i < k; ++i)
    out[static_cast<std::size_t>(order[i].kind)][static_cast<std::size_t>(order[i].index)] = static_cast<int>(i);
  return out;
}

void SkeletonSource::canonicalize_orders() {
  const ConstraintOrders orders = canonical_orders();
  const auto apply = [&](auto& list, ConstraintKind kind) {
    for (std::size_t i = 0; i < list.size(); ++i) list[i].order = orders[static_cast<std::size_t>(kind)][i];
  };
  apply(ik, ConstraintKind::Ik);
  apply(transform, ConstraintKind::Transform);
  apply(path, ConstraintKind::Path);
  apply(physics, ConstraintKind::Physics);
}

DeformVertices deform_vertices(const SkeletonSource& s, int skin, const Attachment& attachment) {
  DeformVertices out;
  const auto quoted = [](const std::string& n) { return "\"" + n + "\""; };
  std::visit(
      [&](const auto& a) {
        using T = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<T, MeshAttachment> || std::is_same_v<T, BoundingBoxAttachment> ||
                      std::is_same_v<T, ClippingAttachment> || std::is_same_v<T, PathAttachment>) {
          out.vertices = &a.vertices;
        } else if constexpr (std::is_same_v<T, LinkedMeshAttachment>) {
          if (!a.deform) {
            out.not_shared = true;
            out.problem = "linked mesh " + quoted(attachment.name) + " does not share deform keys (deform is false)";
            return;
          }
          const int parent_skin = a.skin.empty() ? skin : s.find_skin(a.skin);
          if (parent_skin >= 0 && static_cast<std::size_t>(parent_skin) < s.skins.size())
            for (const Attachment& p : s.skins[static_cast<std::size_t>(parent_skin)].attachments)
              if (p.slot == attachment.slot && p.name == a.parent)
                if (const auto* mesh = std::get_if<MeshAttachment>(&p.data)) out.vertices = &mesh->vertices;
          if (!out.vertices)
            out.problem = "linked mesh " + quoted(attachment.name) + " has no parent mesh " + quoted(a.parent);
        } else {
          out.problem = "deform needs a vertex attachment (Mesh, LinkedMesh, BoundingBox, Clipping or Path), but " +
                        quoted(attachment.name) + " is a " + to_string(attachment.type());
        }
      },
      attachment.data);
  return out;
}

std::size_t deform_float_count(const Vertices& v) {
  if (!v.weighted()) return v.positions.size();
  std::size_t n = 0;
  for (const std::vector<InfluenceSource>& influences : v.weights) n += 2 * influences.size();
  return n;
}

}  // namespace mf::offline
