#pragma once
// Commands on attachments (Setup mode). An attachment is given by its skin index and its index in
// that skin's attachment list (AttachmentIndex, object_id.hpp); model/new_attachments.hpp makes new
// ones.
//
// Attachment names are shared across skins: a slot's setup attachment and the clips' attachment
// keys name an attachment that any skin may hold for the slot. So renaming or deleting one
// attachment changes those names only when no other skin still has the old name for that slot.

#include <span>
#include <string>

#include "mf/editor/core/commands/patch_command.hpp"
#include "mf/editor/core/commands/set_object_command.hpp"
#include "mf/editor/core/object_id.hpp"

namespace mf::editor {

struct AttachmentTraits {
  using Value = offline::Attachment;
  using Key = AttachmentIndex;
  static Value* find(offline::SkeletonSource& s, const AttachmentIndex& at);
  static const Value* find(const offline::SkeletonSource& s, const AttachmentIndex& at);
  static std::string noun(const offline::SkeletonSource& s, const AttachmentIndex& at, const Value& v);
  static std::span<const FieldGroup<Value>> groups();
  // The slot, name and type stay; the geometry follows the reader's rules; the loaded clips' deform
  // keys on the attachment (and on linked meshes that borrow it) must still fit its vertices.
  static Status validate(const Document& doc, const AttachmentIndex& at, const Value& before, const Value& after);
};

// Any field of an attachment but its slot, name and type: "Move" (x, y of a region or point),
// "Rotate", "Scale", "Set size of", "Set image of", "Set colour of", "Set sequence of", "Edit the
// vertices of", "Set end slot of" (clipping), ... or "Edit" for several.
using SetAttachment = SetObjectCommand<AttachmentTraits>;

// Adds `attachment` to skin `skin`. Its name must be free for its slot in that skin. A Region's or
// Mesh's image that the rig's image list lacks is added to it (in name order). "Add Region \"x\"
// to slot \"y\"".
class AddAttachment final : public PatchCommand {
 public:
  AddAttachment(int skin, offline::Attachment attachment)
      : PatchCommand("Add attachment", false), skin_(skin), attachment_(std::move(attachment)) {}
  AttachmentIndex index() const { return index_; }

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  int skin_;
  offline::Attachment attachment_;
  AttachmentIndex index_;
};

// Deletes an attachment, with its deform timelines; the setup attachment and attachment keys that
// named it go when no skin has that name for the slot any more. Refused while linked meshes borrow
// it. "Delete attachment \"x\"".
class DeleteAttachment final : public PatchCommand {
 public:
  explicit DeleteAttachment(AttachmentIndex at) : PatchCommand("Delete attachment", true), at_(at) {}

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  AttachmentIndex at_;
};

// Renames an attachment within its skin and slot: its deform timelines and the linked meshes that
// borrow it follow; the setup attachment and attachment keys follow when no other skin keeps the old
// name for the slot. "Rename attachment \"x\" to \"y\"".
class RenameAttachment final : public PatchCommand {
 public:
  RenameAttachment(AttachmentIndex at, std::string name)
      : PatchCommand("Rename attachment", true), at_(at), name_(std::move(name)) {}

 protected:
  Status edit(RigModel& model, const Document& doc) override;

 private:
  AttachmentIndex at_;
  std::string name_;
};

}  // namespace mf::editor
