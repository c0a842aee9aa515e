#include "mf/editor/core/object_id.hpp"

#include <type_traits>

#include "mf/core/named.hpp"

namespace mf::editor {

using offline::ConstraintKind;
using offline::SkeletonSource;

int find(const SkeletonSource& s, const BoneId& id) { return s.find_bone(id.name); }
int find(const SkeletonSource& s, const SlotId& id) { return s.find_slot(id.name); }
int find(const SkeletonSource& s, const ConstraintId& id) { return s.find_constraint(id.kind, id.name); }
int find(const SkeletonSource& s, const EventId& id) { return s.find_event(id.name); }
int find(const SkeletonSource& s, const SkinId& id) { return s.find_skin(id.name); }

std::optional<AttachmentIndex> find(const SkeletonSource& s, const AttachmentId& id) {
  const int skin = s.find_skin(id.skin);
  const int slot = s.find_slot(id.slot);
  if (skin < 0 || slot < 0) return std::nullopt;
  const auto& attachments = s.skins[static_cast<std::size_t>(skin)].attachments;
  for (std::size_t i = 0; i < attachments.size(); ++i)
    if (attachments[i].slot == slot && attachments[i].name == id.name) return AttachmentIndex{skin, static_cast<int>(i)};
  return std::nullopt;
}

bool exists(const SkeletonSource& s, const ObjectId& id) {
  return std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, AttachmentId>) return find(s, v).has_value();
        else return find(s, v) >= 0;
      },
      id);
}

AttachmentId attachment_id(const SkeletonSource& s, AttachmentIndex at) {
  const offline::Skin& skin = s.skins.at(static_cast<std::size_t>(at.skin));
  const offline::Attachment& a = skin.attachments.at(static_cast<std::size_t>(at.index));
  return {skin.name, s.slots.at(static_cast<std::size_t>(a.slot)).name, a.name};
}

ConstraintId constraint_id(const SkeletonSource& s, offline::ConstraintRef ref) {
  return {ref.kind, s.constraint_name(ref)};
}

namespace {
std::string quoted(const std::string& s) { return "\"" + s + "\""; }
}  // namespace

std::string describe(const ObjectId& id) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, BoneId>) return "bone " + quoted(v.name);
        else if constexpr (std::is_same_v<T, SlotId>) return "slot " + quoted(v.name);
        else if constexpr (std::is_same_v<T, AttachmentId>)
          return "attachment " + quoted(v.name) + " (skin " + quoted(v.skin) + ", slot " + quoted(v.slot) + ")";
        else if constexpr (std::is_same_v<T, ConstraintId>)
          return std::string(offline::to_string(v.kind)) + " constraint " + quoted(v.name);
        else if constexpr (std::is_same_v<T, EventId>) return "event " + quoted(v.name);
        else return "skin " + quoted(v.name);
      },
      id);
}

ObjectId apply_rename(const ObjectId& id, const Rename& rename) {
  if (id == rename.from) return rename.to;
  if (const auto* a = std::get_if<AttachmentId>(&id)) {
    AttachmentId out = *a;
    if (const auto* from = std::get_if<SlotId>(&rename.from); from && from->name == a->slot)
      out.slot = std::get<SlotId>(rename.to).name;
    if (const auto* from = std::get_if<SkinId>(&rename.from); from && from->name == a->skin)
      out.skin = std::get<SkinId>(rename.to).name;
    return out;
  }
  return id;
}

Rename reversed(const Rename& rename) { return {rename.to, rename.from}; }

}  // namespace mf::editor
