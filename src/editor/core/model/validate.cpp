#include "mf/editor/core/model/validate.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <type_traits>
#include <unordered_set>

#include "mf/editor/core/model/attachment_references.hpp"
#include "mf/editor/core/model/bone_hierarchy.hpp"
#include "mf/editor/core/model/names.hpp"

namespace mf::editor {

using namespace offline;

namespace {

bool finite(std::initializer_list<float> values) {
  return std::all_of(values.begin(), values.end(), [](float v) { return std::isfinite(v); });
}

bool finite(const std::vector<float>& values) {
  return std::all_of(values.begin(), values.end(), [](float v) { return std::isfinite(v); });
}

bool valid_bone(const SkeletonSource& s, int b) { return b >= 0 && static_cast<std::size_t>(b) < s.bones.size(); }
bool valid_slot(const SkeletonSource& s, int i) { return i >= 0 && static_cast<std::size_t>(i) < s.slots.size(); }

Unexpected not_finite(const std::string& what) { return edit_error(what + ": every number must be finite"); }

// Bone indices valid and each once.
Status check_bone_list(const SkeletonSource& s, const std::string& what, const std::vector<int>& bones, std::size_t min,
                       std::size_t max) {
  if (bones.size() < min || bones.size() > max)
    return edit_error(what + " needs " + (min == max ? std::to_string(min) : std::to_string(min) + " to " + std::to_string(max)) +
                      " bones, found " + std::to_string(bones.size()));
  std::unordered_set<int> seen;
  for (int b : bones) {
    if (!valid_bone(s, b)) return edit_error(what + ": bone index " + std::to_string(b) + " does not exist");
    if (!seen.insert(b).second)
      return edit_error(what + ": bone " + quoted(s.bones[static_cast<std::size_t>(b)].name) + " is listed twice");
  }
  return {};
}

std::string constraint_what(ConstraintKind kind, const std::string& name) {
  return std::string(to_string(kind)) + " constraint " + quoted(name);
}

Status check_order(const std::optional<int>& order, const std::string& what) {
  if (order && *order < 0) return edit_error(what + ": the update order cannot be negative");
  return {};
}

Status check_vertices(const SkeletonSource& s, const Vertices& v, const std::string& what, std::size_t min) {
  if (!v.weights.empty() && !v.positions.empty()) return edit_error(what + " has both plain and weighted vertices");
  if (!v.weighted()) {
    if (v.positions.size() % 2 != 0) return edit_error(what + ": vertices come as x, y pairs");
    if (!finite(v.positions)) return not_finite(what);
  }
  for (const std::vector<InfluenceSource>& vertex : v.weights) {
    if (vertex.empty()) return edit_error(what + ": a weighted vertex needs at least one influence");
    std::unordered_set<int> bones;
    for (const InfluenceSource& i : vertex) {
      if (!valid_bone(s, i.bone)) return edit_error(what + ": a weight names bone index " + std::to_string(i.bone) + ", which does not exist");
      if (!bones.insert(i.bone).second) return edit_error(what + ": a bone influences one vertex twice");
      if (!finite({i.weight, i.x, i.y})) return not_finite(what);
    }
  }
  if (v.count() < min)
    return edit_error(what + " needs at least " + std::to_string(min) + " vertices, found " + std::to_string(v.count()));
  return {};
}

Status check_sequence(const std::optional<Sequence>& seq, const std::string& what) {
  if (!seq) return {};
  if (seq->count < 1) return edit_error(what + ": a sequence needs at least one frame");
  if (seq->start < 0) return edit_error(what + ": a sequence cannot start below 0");
  if (seq->digits < 0 || seq->digits > 10) return edit_error(what + ": sequence digits must be from 0 to 10");
  if (seq->setup < 0 || seq->setup >= seq->count)
    return edit_error(what + ": the setup frame must be from 0 to " + std::to_string(seq->count - 1));
  return {};
}

Status check_indices(const std::vector<int>& indices, std::size_t count, const std::string& what) {
  for (int i : indices)
    if (i < 0 || static_cast<std::size_t>(i) >= count)
      return edit_error(what + ": vertex index " + std::to_string(i) + " is out of range (" + std::to_string(count) +
                        " vertices)");
  return {};
}

}  // namespace

Status validate_bone(const SkeletonSource&, const Bone& b) {
  const std::string what = "bone " + quoted(b.name);
  if (b.name.empty()) return edit_error("a bone name cannot be empty");
  if (!finite({b.x, b.y, b.rotation, b.scale_x, b.scale_y, b.shear_x, b.shear_y, b.length})) return not_finite(what);
  if (b.length < 0) return edit_error(what + ": the length cannot be negative");
  return {};
}

Status validate_slot(const SkeletonSource& s, int index, const Slot& slot) {
  const std::string what = "slot " + quoted(slot.name);
  if (slot.name.empty()) return edit_error("a slot name cannot be empty");
  if (!valid_bone(s, slot.bone)) return edit_error(what + ": its bone does not exist");
  if (!slot.attachment.empty() && !slot_has_attachment(s, index, slot.attachment))
    return edit_error(what + ": no skin has an attachment " + quoted(slot.attachment) + " for it");
  return {};
}

Status validate_constraint(const SkeletonSource& s, const IkConstraint& c) {
  const std::string what = constraint_what(ConstraintKind::Ik, c.name);
  if (Status st = check_order(c.order, what); !st) return st;
  if (Status st = check_bone_list(s, what, c.bones, 1, 2); !st) return st;
  if (c.bones.size() == 2 && s.bones[static_cast<std::size_t>(c.bones[1])].parent != c.bones[0])
    return edit_error(what + ": the second bone " + quoted(s.bones[static_cast<std::size_t>(c.bones[1])].name) +
                      " must be a child of the first, " + quoted(s.bones[static_cast<std::size_t>(c.bones[0])].name));
  if (!valid_bone(s, c.target)) return edit_error(what + ": its target bone does not exist");
  if (is_ancestor_or_self(s, c.bones[0], c.target))
    return edit_error(what + ": the target " + quoted(s.bones[static_cast<std::size_t>(c.target)].name) +
                      " is inside its own chain");
  if (!finite({c.mix, c.softness})) return not_finite(what);
  if (c.softness < 0) return edit_error(what + ": the softness cannot be negative");
  if (c.bend != 1 && c.bend != -1) return edit_error(what + ": the bend direction must be 1 or -1");
  return {};
}

Status validate_constraint(const SkeletonSource& s, const TransformConstraint& c) {
  const std::string what = constraint_what(ConstraintKind::Transform, c.name);
  if (Status st = check_order(c.order, what); !st) return st;
  if (Status st = check_bone_list(s, what, c.bones, 1, s.bones.size()); !st) return st;
  if (!valid_bone(s, c.target)) return edit_error(what + ": its target bone does not exist");
  if (std::find(c.bones.begin(), c.bones.end(), c.target) != c.bones.end())
    return edit_error(what + ": the target " + quoted(s.bones[static_cast<std::size_t>(c.target)].name) +
                      " is one of the constrained bones");
  if (!finite({c.mix_rotate, c.mix_x, c.mix_y, c.mix_scale_x, c.mix_scale_y, c.mix_shear_y, c.offset_rotation, c.offset_x,
               c.offset_y, c.offset_scale_x, c.offset_scale_y, c.offset_shear_y}))
    return not_finite(what);
  return {};
}

Status validate_constraint(const SkeletonSource& s, const PathConstraint& c) {
  const std::string what = constraint_what(ConstraintKind::Path, c.name);
  if (Status st = check_order(c.order, what); !st) return st;
  if (Status st = check_bone_list(s, what, c.bones, 1, s.bones.size()); !st) return st;
  if (!valid_slot(s, c.target)) return edit_error(what + ": its target slot does not exist");
  if (!finite({c.offset_rotation, c.position, c.spacing, c.mix_rotate, c.mix_x, c.mix_y})) return not_finite(what);
  return {};
}

Status validate_constraint(const SkeletonSource& s, const PhysicsConstraint& c) {
  const std::string what = constraint_what(ConstraintKind::Physics, c.name);
  if (Status st = check_order(c.order, what); !st) return st;
  if (!valid_bone(s, c.bone)) return edit_error(what + ": its bone does not exist");
  if (!finite({c.x, c.y, c.rotate, c.scale_x, c.shear_x, c.limit, c.fps, c.inertia, c.strength, c.damping, c.mass, c.wind,
               c.gravity, c.mix}))
    return not_finite(what);
  if (c.limit <= 0) return edit_error(what + ": the limit must be greater than 0");
  if (c.fps <= 0) return edit_error(what + ": the step rate (fps) must be greater than 0");
  if (c.mass <= 0) return edit_error(what + ": the mass must be greater than 0");
  return {};
}

Status validate_event(const EventDef& e) {
  const std::string what = "event " + quoted(e.name);
  if (e.name.empty()) return edit_error("an event name cannot be empty");
  if (!finite({e.float_value, e.volume, e.balance})) return not_finite(what);
  if (e.volume < 0 || e.volume > 1) return edit_error(what + ": the volume must be from 0 to 1");
  if (e.balance < -1 || e.balance > 1) return edit_error(what + ": the balance must be from -1 to 1");
  return {};
}

Status validate_attachment(const SkeletonSource& s, int skin, const Attachment& a) {
  if (a.name.empty()) return edit_error("an attachment name cannot be empty");
  if (!valid_slot(s, a.slot)) return edit_error("attachment " + quoted(a.name) + ": its slot does not exist");
  const std::string what = std::string(to_string(a.type())) + " attachment " + quoted(a.name);
  return std::visit(
      [&](const auto& d) -> Status {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, RegionAttachment>) {
          if (!finite({d.x, d.y, d.rotation, d.scale_x, d.scale_y, d.width, d.height})) return not_finite(what);
          if (d.width < 0 || d.height < 0) return edit_error(what + ": the size cannot be negative");
          return check_sequence(d.sequence, what);
        } else if constexpr (std::is_same_v<T, MeshAttachment>) {
          if (Status st = check_vertices(s, d.vertices, what, 3); !st) return st;
          const std::size_t n = d.vertices.count();
          if (d.hull < 3 || static_cast<std::size_t>(d.hull) > n)
            return edit_error(what + ": the hull must be from 3 to the vertex count (" + std::to_string(n) + ")");
          if (d.uvs.size() != 2 * n) return edit_error(what + ": expected 2 uvs per vertex");
          if (!finite(d.uvs) || !finite({d.width, d.height})) return not_finite(what);
          if (d.triangles.empty() || d.triangles.size() % 3 != 0)
            return edit_error(what + ": triangles come as 3 vertex indices each, at least one");
          if (Status st = check_indices(d.triangles, n, what); !st) return st;
          if (d.edges.size() % 2 != 0) return edit_error(what + ": edges come as pairs of vertex indices");
          if (Status st = check_indices(d.edges, n, what); !st) return st;
          if (d.width < 0 || d.height < 0) return edit_error(what + ": the size cannot be negative");
          return check_sequence(d.sequence, what);
        } else if constexpr (std::is_same_v<T, LinkedMeshAttachment>) {
          const int parent_skin = d.skin.empty() ? skin : s.find_skin(d.skin);
          if (parent_skin < 0) return edit_error(what + ": unknown skin " + quoted(d.skin));
          for (const Attachment& p : s.skins[static_cast<std::size_t>(parent_skin)].attachments)
            if (p.slot == a.slot && p.name == d.parent) {
              if (p.type() != AttachmentType::Mesh) return edit_error(what + ": its parent " + quoted(d.parent) + " is not a Mesh");
              return check_sequence(d.sequence, what);
            }
          return edit_error(what + ": there is no parent mesh " + quoted(d.parent) + " for its slot");
        } else if constexpr (std::is_same_v<T, BoundingBoxAttachment>) {
          return check_vertices(s, d.vertices, what, 3);
        } else if constexpr (std::is_same_v<T, ClippingAttachment>) {
          if (d.end_slot != -1 && !valid_slot(s, d.end_slot)) return edit_error(what + ": its end slot does not exist");
          return check_vertices(s, d.vertices, what, 3);
        } else if constexpr (std::is_same_v<T, PointAttachment>) {
          if (!finite({d.x, d.y, d.rotation})) return not_finite(what);
          return {};
        } else {
          static_assert(std::is_same_v<T, PathAttachment>);
          if (Status st = check_vertices(s, d.vertices, what, 0); !st) return st;
          const std::size_t points = d.vertices.count();
          if (points % 3 != 0) return edit_error(what + ": path control points come 3 per knot");
          const std::size_t knots = points / 3;
          if (knots < 2) return edit_error(what + ": a path needs at least 2 knots");
          const std::size_t segments = d.closed ? knots : knots - 1;
          if (d.lengths.size() != segments)
            return edit_error(what + ": expected one length per segment (" + std::to_string(segments) + ")");
          if (!finite(d.lengths)) return not_finite(what);
          for (std::size_t i = 0; i < d.lengths.size(); ++i)
            if (d.lengths[i] < (i == 0 ? 0.f : d.lengths[i - 1]))
              return edit_error(what + ": lengths are cumulative and must not decrease");
          return {};
        }
      },
      a.data);
}

}  // namespace mf::editor
