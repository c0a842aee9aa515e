#pragma once
// Commands on bones (Setup mode). Bones are given by index into SkeletonSource::bones at the time
// the command executes (the application resolves a BoneId with find()).

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "mf/editor/core/commands/patch_command.hpp"
#include "mf/editor/core/commands/set_object_command.hpp"

namespace mf::editor {

// ---- set fields ----

struct BoneTraits {
  using Value = offline::Bone;
  using Key = int;
  static Value* find(offline::SkeletonSource& s, int bone);
  static const Value* find(const offline::SkeletonSource& s, int bone);
  static std::string noun(const offline::SkeletonSource& s, int bone, const Value& v);
  static std::span<const FieldGroup<Value>> groups();
  // The name and parent stay (RenameBone, ReparentBone change them).
  static Status validate(const Document& doc, int bone, const Value& before, const Value& after);
};

// Any transform field, length, inherit mode, colour or skin requirement of a bone. History names:
// "Move" (x, y), "Rotate", "Scale", "Shear", "Set length of", "Set inherit mode of", "Set colour
// of", "Set skin requirement of", or "Edit" for several.
using SetBone = SetObjectCommand<BoneTraits>;

// Sets a bone's local pose while its children keep their world transforms (tools/bone_tools.hpp,
// move_without_children): "Move bone \"x\" without its children" and so on. Merges as SetBone does.
class SetBoneKeepChildren final : public Command {
 public:
  SetBoneKeepChildren(int bone, offline::Bone value) : bone_(bone), value_(std::move(value)) {}
  std::string name() const override { return name_; }
  Status execute(Document& doc) override;
  void undo(Document& doc) override;
  void redo(Document& doc) override;
  bool merge_with(const Command& next) override;

 private:
  int bone_;
  offline::Bone value_;
  std::vector<std::pair<int, offline::Bone>> before_, after_;
  std::string name_;
};

// ---- structure ----

// Adds `bone` (its parent, -1 for a root, and its local pose as given; tools/bone_tools.hpp's bone_at
// places one at a world point). An empty name becomes a free "bone", "bone2", ...; a taken name is
// an error. It is listed after its parent's sub-tree. "Create bone \"x\"".
class CreateBone final : public PatchCommand {
 public:
  explicit CreateBone(offline::Bone bone) : PatchCommand("Create bone", false), bone_(std::move(bone)) {}
  // The index the bone got (after execute).
  int index() const { return index_; }

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  offline::Bone bone_;
  int index_ = -1;
};

// Deletes a bone with its descendants and everything that depends on them (model/rig_deletion.hpp
// lists the cascade and the one refusal). "Delete bone \"x\"".
class DeleteBone final : public PatchCommand {
 public:
  explicit DeleteBone(int bone) : PatchCommand("Delete bone", true), bone_(bone) {}

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  int bone_;
};

// Renames a bone. Slots, constraints and skins refer to bones by index and follow by themselves;
// the loaded clips' bone timelines are renamed. "Rename bone \"x\" to \"y\"".
class RenameBone final : public PatchCommand {
 public:
  RenameBone(int bone, std::string name) : PatchCommand("Rename bone", true), bone_(bone), name_(std::move(name)) {}

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  int bone_;
  std::string name_;
};

// Copies a bone (with its descendants when `with_descendants`) under the same parent, with free
// names, listed after the original's sub-tree. Slots and constraints are not copied.
// "Duplicate bone \"x\"".
class DuplicateBone final : public PatchCommand {
 public:
  DuplicateBone(int bone, bool with_descendants)
      : PatchCommand("Duplicate bone", false), bone_(bone), with_descendants_(with_descendants) {}
  int index() const { return index_; }  // the copy's index (after execute)

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  int bone_;
  bool with_descendants_;
  int index_ = -1;
};

// Moves a bone (with its sub-tree) under `new_parent` (-1: a root). With `keep_world` its local pose
// is recomputed so nothing moves in the world (tools/bone_tools.hpp, reparented); without, it keeps
// its local values. The list is reordered when the new parent comes later. Refused: a parent inside
// the bone's own sub-tree, breaking a two-bone ik chain (its second bone must stay the first's
// child), and putting an ik target inside its chain. "Reparent bone \"x\" to \"y\"".
class ReparentBone final : public PatchCommand {
 public:
  ReparentBone(int bone, int new_parent, bool keep_world = true)
      : PatchCommand("Reparent bone", false), bone_(bone), parent_(new_parent), keep_world_(keep_world) {}

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  int bone_;
  int parent_;
  bool keep_world_;
};

}  // namespace mf::editor
