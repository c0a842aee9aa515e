#pragma once
// Commands on skins (Setup mode). Skins are given by index into SkeletonSource::skins.

#include <string>
#include <vector>

#include "mf/editor/core/commands/patch_command.hpp"

namespace mf::editor {

// Adds an empty skin (an empty name becomes a free "skin", "skin2", ...). "Add skin \"x\"".
class AddSkin final : public PatchCommand {
 public:
  explicit AddSkin(std::string name) : PatchCommand("Add skin", false), name_(std::move(name)) {}

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  std::string name_;
};

// Copies a skin with its attachments, bones and constraints under a new name (empty: a free name
// from the original's), with the loaded clips' deform timelines of the skin copied for the copy.
// Linked meshes that borrow from their own skin borrow from the copy. "Duplicate skin \"x\"".
class DuplicateSkin final : public PatchCommand {
 public:
  DuplicateSkin(int skin, std::string name)
      : PatchCommand("Duplicate skin", true), skin_(skin), name_(std::move(name)) {}

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  int skin_;
  std::string name_;
};

// Renames a skin: linked meshes that name it and the clips' deform timelines follow.
// "Rename skin \"x\" to \"y\"".
class RenameSkin final : public PatchCommand {
 public:
  RenameSkin(int skin, std::string name) : PatchCommand("Rename skin", true), skin_(skin), name_(std::move(name)) {}

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  int skin_;
  std::string name_;
};

// Removes a skin with its attachments and deform timelines; setup attachments and attachment keys
// that named attachments no skin has any more go. Refused while linked meshes of other skins borrow
// from it. "Remove skin \"x\"".
class RemoveSkin final : public PatchCommand {
 public:
  explicit RemoveSkin(int skin) : PatchCommand("Remove skin", true), skin_(skin) {}

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  int skin_;
};

// The skin-required bones a skin activates (bone indices, each once). "Set bones of skin \"x\"".
class SetSkinBones final : public PatchCommand {
 public:
  SetSkinBones(int skin, std::vector<int> bones) : PatchCommand("Set skin bones", false), skin_(skin), bones_(std::move(bones)) {}

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  int skin_;
  std::vector<int> bones_;
};

// The skin-required constraints a skin activates (each once); the file lists them per kind, in
// this order within each kind. "Set constraints of skin \"x\"".
class SetSkinConstraints final : public PatchCommand {
 public:
  SetSkinConstraints(int skin, std::vector<offline::ConstraintRef> constraints)
      : PatchCommand("Set skin constraints", false), skin_(skin), constraints_(std::move(constraints)) {}

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  int skin_;
  std::vector<offline::ConstraintRef> constraints_;
};

}  // namespace mf::editor
