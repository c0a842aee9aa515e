#include "mf/editor/core/commands/constraint_commands.hpp"

#include <algorithm>
#include <type_traits>

#include "mf/editor/core/model/clip_references.hpp"
#include "mf/editor/core/model/names.hpp"
#include "mf/editor/core/model/rig_deletion.hpp"
#include "mf/editor/core/model/validate.hpp"

namespace mf::editor {

using namespace offline;

namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }

template <class C>
constexpr ConstraintKind kind_of() {
  if constexpr (std::is_same_v<C, IkConstraint>) return ConstraintKind::Ik;
  else if constexpr (std::is_same_v<C, TransformConstraint>) return ConstraintKind::Transform;
  else if constexpr (std::is_same_v<C, PathConstraint>) return ConstraintKind::Path;
  else return ConstraintKind::Physics;
}

template <class C, class S>
auto& list_of(S& s) {
  if constexpr (std::is_same_v<C, IkConstraint>) return s.ik;
  else if constexpr (std::is_same_v<C, TransformConstraint>) return s.transform;
  else if constexpr (std::is_same_v<C, PathConstraint>) return s.path;
  else return s.physics;
}

std::string noun_of(ConstraintKind kind, const std::string& name) {
  return std::string(to_string(kind)) + " constraint " + quoted(name);
}

bool valid_ref(const SkeletonSource& s, ConstraintRef r) {
  return r.index >= 0 && at(r.index) < s.constraint_count(r.kind);
}

Unexpected no_constraint(ConstraintRef r) {
  return edit_error(std::string("there is no ") + to_string(r.kind) + " constraint at index " + std::to_string(r.index));
}

// True when any of the members differs between a and b.
template <class C, class... M>
bool members_differ(const C& a, const C& b, M C::*... m) {
  return ((a.*m != b.*m) || ...);
}

const FieldGroup<IkConstraint> kIkGroups[] = {
    {"Set bones of", [](const IkConstraint& a, const IkConstraint& b) { return a.bones != b.bones; }},
    {"Set target of", [](const IkConstraint& a, const IkConstraint& b) { return a.target != b.target; }},
    {"Set mix of", [](const IkConstraint& a, const IkConstraint& b) { return a.mix != b.mix; }},
    {"Set softness of", [](const IkConstraint& a, const IkConstraint& b) { return a.softness != b.softness; }},
    {"Set bend direction of", [](const IkConstraint& a, const IkConstraint& b) { return a.bend != b.bend; }},
    {"Set stretch options of",
     [](const IkConstraint& a, const IkConstraint& b) {
       return members_differ(a, b, &IkConstraint::compress, &IkConstraint::stretch, &IkConstraint::uniform);
     }},
    {"Set skin requirement of", [](const IkConstraint& a, const IkConstraint& b) { return a.skin_required != b.skin_required; }},
};

const FieldGroup<TransformConstraint> kTransformGroups[] = {
    {"Set bones of", [](const TransformConstraint& a, const TransformConstraint& b) { return a.bones != b.bones; }},
    {"Set target of", [](const TransformConstraint& a, const TransformConstraint& b) { return a.target != b.target; }},
    {"Set mixes of",
     [](const TransformConstraint& a, const TransformConstraint& b) {
       return members_differ(a, b, &TransformConstraint::mix_rotate, &TransformConstraint::mix_x, &TransformConstraint::mix_y,
                             &TransformConstraint::mix_scale_x, &TransformConstraint::mix_scale_y,
                             &TransformConstraint::mix_shear_y);
     }},
    {"Set offsets of",
     [](const TransformConstraint& a, const TransformConstraint& b) {
       return members_differ(a, b, &TransformConstraint::offset_rotation, &TransformConstraint::offset_x,
                             &TransformConstraint::offset_y, &TransformConstraint::offset_scale_x,
                             &TransformConstraint::offset_scale_y, &TransformConstraint::offset_shear_y);
     }},
    {"Set space of",
     [](const TransformConstraint& a, const TransformConstraint& b) {
       return members_differ(a, b, &TransformConstraint::local, &TransformConstraint::relative);
     }},
    {"Set skin requirement of",
     [](const TransformConstraint& a, const TransformConstraint& b) { return a.skin_required != b.skin_required; }},
};

const FieldGroup<PathConstraint> kPathGroups[] = {
    {"Set bones of", [](const PathConstraint& a, const PathConstraint& b) { return a.bones != b.bones; }},
    {"Set target of", [](const PathConstraint& a, const PathConstraint& b) { return a.target != b.target; }},
    {"Set modes of",
     [](const PathConstraint& a, const PathConstraint& b) {
       return members_differ(a, b, &PathConstraint::position_mode, &PathConstraint::spacing_mode, &PathConstraint::rotate_mode);
     }},
    {"Set rotation offset of",
     [](const PathConstraint& a, const PathConstraint& b) { return a.offset_rotation != b.offset_rotation; }},
    {"Set position of", [](const PathConstraint& a, const PathConstraint& b) { return a.position != b.position; }},
    {"Set spacing of", [](const PathConstraint& a, const PathConstraint& b) { return a.spacing != b.spacing; }},
    {"Set mixes of",
     [](const PathConstraint& a, const PathConstraint& b) {
       return members_differ(a, b, &PathConstraint::mix_rotate, &PathConstraint::mix_x, &PathConstraint::mix_y);
     }},
    {"Set skin requirement of", [](const PathConstraint& a, const PathConstraint& b) { return a.skin_required != b.skin_required; }},
};

using Ph = PhysicsConstraint;
const FieldGroup<Ph> kPhysicsGroups[] = {
    {"Set bone of", [](const Ph& a, const Ph& b) { return a.bone != b.bone; }},
    {"Set channels of",
     [](const Ph& a, const Ph& b) { return members_differ(a, b, &Ph::x, &Ph::y, &Ph::rotate, &Ph::scale_x, &Ph::shear_x); }},
    {"Set limit of", [](const Ph& a, const Ph& b) { return a.limit != b.limit; }},
    {"Set step rate of", [](const Ph& a, const Ph& b) { return a.fps != b.fps; }},
    {"Set inertia of", [](const Ph& a, const Ph& b) { return a.inertia != b.inertia; }},
    {"Set strength of", [](const Ph& a, const Ph& b) { return a.strength != b.strength; }},
    {"Set damping of", [](const Ph& a, const Ph& b) { return a.damping != b.damping; }},
    {"Set mass of", [](const Ph& a, const Ph& b) { return a.mass != b.mass; }},
    {"Set wind of", [](const Ph& a, const Ph& b) { return a.wind != b.wind; }},
    {"Set gravity of", [](const Ph& a, const Ph& b) { return a.gravity != b.gravity; }},
    {"Set mix of", [](const Ph& a, const Ph& b) { return a.mix != b.mix; }},
    {"Set skin requirement of", [](const Ph& a, const Ph& b) { return a.skin_required != b.skin_required; }},
};

}  // namespace

template <class C>
C* ConstraintTraits<C>::find(SkeletonSource& s, int index) {
  auto& list = list_of<C>(s);
  return index >= 0 && at(index) < list.size() ? &list[at(index)] : nullptr;
}

template <class C>
const C* ConstraintTraits<C>::find(const SkeletonSource& s, int index) {
  const auto& list = list_of<C>(s);
  return index >= 0 && at(index) < list.size() ? &list[at(index)] : nullptr;
}

template <class C>
std::string ConstraintTraits<C>::noun(const SkeletonSource&, int, const C& v) {
  return noun_of(kind_of<C>(), v.name);
}

template <class C>
std::span<const FieldGroup<C>> ConstraintTraits<C>::groups() {
  if constexpr (std::is_same_v<C, IkConstraint>) return kIkGroups;
  else if constexpr (std::is_same_v<C, TransformConstraint>) return kTransformGroups;
  else if constexpr (std::is_same_v<C, PathConstraint>) return kPathGroups;
  else return kPhysicsGroups;
}

template <class C>
Status ConstraintTraits<C>::validate(const Document& doc, int, const C& before, const C& after) {
  const std::string what = noun_of(kind_of<C>(), before.name);
  if (after.name != before.name) return edit_error(what + ": rename it with RenameConstraint");
  if (after.order != before.order) return edit_error(what + ": move it in the update order with ReorderConstraint");
  return validate_constraint(doc.skeleton(), after);
}

template struct ConstraintTraits<IkConstraint>;
template struct ConstraintTraits<TransformConstraint>;
template struct ConstraintTraits<PathConstraint>;
template struct ConstraintTraits<PhysicsConstraint>;

Status CreateConstraint::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  return std::visit(
      [&](auto& c) -> Status {
        using C = std::decay_t<decltype(c)>;
        constexpr ConstraintKind kind = kind_of<C>();
        const auto taken = [&](std::string_view n) { return s.find_constraint(kind, n) >= 0; };
        if (c.name.empty()) c.name = unique_name(to_string(kind), taken);
        if (Status st = check_name(std::string(to_string(kind)) + " constraint", c.name, "", taken); !st) return st;
        c.order.reset();
        if (Status st = validate_constraint(s, c); !st) return st;
        auto& list = list_of<C>(s);
        list.push_back(c);
        ref_ = {kind, static_cast<int>(list.size() - 1)};
        s.canonicalize_orders();
        set_name("Create " + noun_of(kind, c.name));
        return {};
      },
      constraint_);
}

Status DeleteConstraint::edit(RigModel& model, const Document&) {
  if (!valid_ref(model.skeleton, ref_)) return no_constraint(ref_);
  set_name("Delete " + noun_of(ref_.kind, model.skeleton.constraint_name(ref_)));
  delete_constraints(model, {ref_});
  return {};
}

Status RenameConstraint::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  if (!valid_ref(s, ref_)) return no_constraint(ref_);
  const std::string old = s.constraint_name(ref_);
  const auto taken = [&](std::string_view n) { return s.find_constraint(ref_.kind, n) >= 0; };
  if (Status st = check_name(std::string(to_string(ref_.kind)) + " constraint", name_, old, taken); !st) return st;
  switch (ref_.kind) {
    case ConstraintKind::Ik: s.ik[at(ref_.index)].name = name_; break;
    case ConstraintKind::Transform: s.transform[at(ref_.index)].name = name_; break;
    case ConstraintKind::Path: s.path[at(ref_.index)].name = name_; break;
    case ConstraintKind::Physics: s.physics[at(ref_.index)].name = name_; break;
  }
  for (ClipSource& clip : model.clips) rename_constraint(clip, ref_.kind, old, name_);
  set_name("Rename " + noun_of(ref_.kind, old) + " to " + quoted(name_));
  add_rename({ConstraintId{ref_.kind, old}, ConstraintId{ref_.kind, name_}});
  return {};
}

Status ReorderConstraint::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  if (!valid_ref(s, ref_)) return no_constraint(ref_);
  std::vector<ConstraintRef> order = s.update_order();
  if (position_ < 0 || at(position_) >= order.size())
    return edit_error("update order place " + std::to_string(position_) + " is outside the " +
                      std::to_string(order.size()) + " constraints");
  order.erase(std::find(order.begin(), order.end(), ref_));
  order.insert(order.begin() + position_, ref_);
  for (std::size_t i = 0; i < order.size(); ++i) {
    const ConstraintRef r = order[i];
    const int o = static_cast<int>(i);
    switch (r.kind) {
      case ConstraintKind::Ik: s.ik[at(r.index)].order = o; break;
      case ConstraintKind::Transform: s.transform[at(r.index)].order = o; break;
      case ConstraintKind::Path: s.path[at(r.index)].order = o; break;
      case ConstraintKind::Physics: s.physics[at(r.index)].order = o; break;
    }
  }
  s.canonicalize_orders();
  set_name("Move " + noun_of(ref_.kind, s.constraint_name(ref_)) + " in the update order");
  return {};
}

}  // namespace mf::editor
