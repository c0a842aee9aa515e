#pragma once
// Typed ids of the rig's objects, by name: what the selection holds and what renames report.
//
// Identity rules. Names are unique within their kind (bones, slots, skins, events; constraints
// within each of the four kinds; attachments within one skin and slot), so a name identifies an
// object for as long as it exists, whatever indices move: deleting, reordering or reparenting other
// objects never changes which object an id names. An attachment is named by (skin, slot, name),
// so renaming its slot or skin renames its id too. Renaming an object gives it a new id; commands
// report their renames (Command::renames) so holders of ids can follow them.

#include <optional>
#include <string>
#include <variant>

#include "mf/offline/format/skeleton_model.hpp"

namespace mf::editor {

struct BoneId {
  std::string name;
  friend bool operator==(const BoneId&, const BoneId&) = default;
};

struct SlotId {
  std::string name;
  friend bool operator==(const SlotId&, const SlotId&) = default;
};

struct AttachmentId {
  std::string skin, slot, name;
  friend bool operator==(const AttachmentId&, const AttachmentId&) = default;
};

struct ConstraintId {
  offline::ConstraintKind kind = offline::ConstraintKind::Ik;
  std::string name;
  friend bool operator==(const ConstraintId&, const ConstraintId&) = default;
};

struct EventId {
  std::string name;
  friend bool operator==(const EventId&, const EventId&) = default;
};

struct SkinId {
  std::string name;
  friend bool operator==(const SkinId&, const SkinId&) = default;
};

using ObjectId = std::variant<BoneId, SlotId, AttachmentId, ConstraintId, EventId, SkinId>;

// Where an attachment is in the skeleton.
struct AttachmentIndex {
  int skin = -1;
  int index = -1;  // into that skin's attachments
  friend bool operator==(const AttachmentIndex&, const AttachmentIndex&) = default;
};

// Index lookups; -1 (or nullopt) when the object does not exist.
int find(const offline::SkeletonSource& s, const BoneId& id);
int find(const offline::SkeletonSource& s, const SlotId& id);
int find(const offline::SkeletonSource& s, const ConstraintId& id);
int find(const offline::SkeletonSource& s, const EventId& id);
int find(const offline::SkeletonSource& s, const SkinId& id);
std::optional<AttachmentIndex> find(const offline::SkeletonSource& s, const AttachmentId& id);
bool exists(const offline::SkeletonSource& s, const ObjectId& id);

// The id of the object at an index.
AttachmentId attachment_id(const offline::SkeletonSource& s, AttachmentIndex at);
ConstraintId constraint_id(const offline::SkeletonSource& s, offline::ConstraintRef ref);

// "bone \"arm\"", "attachment \"head\" (skin \"default\", slot \"head\")": for messages and the UI.
std::string describe(const ObjectId& id);

// A renamed object: `from` is now `to` (both of one kind).
struct Rename {
  ObjectId from, to;
};

// The id `id` has after `rename`: `to` when it is `from`; an attachment of a renamed slot or skin
// with that part renamed; otherwise `id` itself.
ObjectId apply_rename(const ObjectId& id, const Rename& rename);
// The rename undone: `to` back to `from`.
Rename reversed(const Rename& rename);

}  // namespace mf::editor
