#pragma once
// Commands on the four kinds of constraint (Setup mode). A constraint is given by its kind and index
// (offline::ConstraintRef); the set-fields commands by index into their kind's list.
//
// The update order: new constraints run in the default order (after those with an explicit order,
// in their kind's place); ReorderConstraint moves one. After every change the model's `order`
// fields are canonical (SkeletonSource::canonicalize_orders), as a re-read file's are.

#include <span>
#include <string>
#include <variant>

#include "mf/editor/core/commands/patch_command.hpp"
#include "mf/editor/core/commands/set_object_command.hpp"

namespace mf::editor {

template <class C>
struct ConstraintTraits {
  using Value = C;
  using Key = int;
  static C* find(offline::SkeletonSource& s, int index);
  static const C* find(const offline::SkeletonSource& s, int index);
  static std::string noun(const offline::SkeletonSource& s, int index, const C& v);
  static std::span<const FieldGroup<C>> groups();
  // The name and order stay (RenameConstraint, ReorderConstraint); bones and targets follow the
  // reader's rules.
  static Status validate(const Document& doc, int index, const C& before, const C& after);
};

// Field edits. History names: "Set bones of", "Set target of", "Set mix of", "Set softness of",
// "Set bend direction of", "Set mixes of", "Set offsets of", "Set modes of", "Set position of",
// "Set spacing of", "Set strength of", ... or "Edit" for several.
using SetIkConstraint = SetObjectCommand<ConstraintTraits<offline::IkConstraint>>;
using SetTransformConstraint = SetObjectCommand<ConstraintTraits<offline::TransformConstraint>>;
using SetPathConstraint = SetObjectCommand<ConstraintTraits<offline::PathConstraint>>;
using SetPhysicsConstraint = SetObjectCommand<ConstraintTraits<offline::PhysicsConstraint>>;

using AnyConstraint = std::variant<offline::IkConstraint, offline::TransformConstraint, offline::PathConstraint,
                                   offline::PhysicsConstraint>;

// Adds a constraint at the end of its kind's list (an empty name becomes a free "ik", "transform",
// ... name; its `order` is ignored: it runs in the default order). "Create ik constraint \"x\"".
class CreateConstraint final : public PatchCommand {
 public:
  explicit CreateConstraint(AnyConstraint constraint)
      : PatchCommand("Create constraint", false), constraint_(std::move(constraint)) {}
  offline::ConstraintRef ref() const { return ref_; }

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  AnyConstraint constraint_;
  offline::ConstraintRef ref_;
};

// Deletes a constraint with its entries in skins and its timelines. "Delete ik constraint \"x\"".
class DeleteConstraint final : public PatchCommand {
 public:
  explicit DeleteConstraint(offline::ConstraintRef ref) : PatchCommand("Delete constraint", true), ref_(ref) {}

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  offline::ConstraintRef ref_;
};

// Renames a constraint (unique within its kind); skins refer to it by index, the loaded clips'
// timelines are renamed. "Rename ik constraint \"x\" to \"y\"".
class RenameConstraint final : public PatchCommand {
 public:
  RenameConstraint(offline::ConstraintRef ref, std::string name)
      : PatchCommand("Rename constraint", true), ref_(ref), name_(std::move(name)) {}

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  offline::ConstraintRef ref_;
  std::string name_;
};

// Moves a constraint to `position` in the update order (SkeletonSource::update_order), the others
// keeping their relative order. "Move ik constraint \"x\" in the update order".
class ReorderConstraint final : public PatchCommand {
 public:
  ReorderConstraint(offline::ConstraintRef ref, int position)
      : PatchCommand("Move constraint in the update order", false), ref_(ref), position_(position) {}

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  offline::ConstraintRef ref_;
  int position_;
};

}  // namespace mf::editor
