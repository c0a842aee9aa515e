#include "mf/editor/core/commands/skin_commands.hpp"

#include <algorithm>

#include "mf/editor/core/model/attachment_references.hpp"
#include "mf/editor/core/model/clip_references.hpp"
#include "mf/editor/core/model/names.hpp"

namespace mf::editor {

using namespace offline;

namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }
bool valid_skin(const SkeletonSource& s, int i) { return i >= 0 && at(i) < s.skins.size(); }
Unexpected no_skin(int i) { return edit_error("there is no skin at index " + std::to_string(i)); }

// Linked meshes of skins other than `skin` that borrow a mesh from it, as "skin/name".
std::string borrowers_of(const SkeletonSource& s, int skin) {
  std::string out;
  for (std::size_t k = 0; k < s.skins.size(); ++k) {
    if (static_cast<int>(k) == skin) continue;
    for (const Attachment& a : s.skins[k].attachments)
      if (const auto* l = std::get_if<LinkedMeshAttachment>(&a.data); l && !l->skin.empty() && s.find_skin(l->skin) == skin)
        out += (out.empty() ? "" : ", ") + s.skins[k].name + "/" + a.name;
  }
  return out;
}

}  // namespace

Status AddSkin::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  const auto taken = [&](std::string_view n) { return s.find_skin(n) >= 0; };
  if (name_.empty()) name_ = unique_name("skin", taken);
  if (Status st = check_name("skin", name_, "", taken); !st) return st;
  s.skins.push_back(Skin{name_, {}, {}, {}});
  set_name("Add skin " + quoted(name_));
  return {};
}

Status DuplicateSkin::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  if (!valid_skin(s, skin_)) return no_skin(skin_);
  const auto taken = [&](std::string_view n) { return s.find_skin(n) >= 0; };
  const std::string original = s.skins[at(skin_)].name;
  if (name_.empty()) name_ = unique_name(original, taken);
  if (Status st = check_name("skin", name_, "", taken); !st) return st;
  Skin copy = s.skins[at(skin_)];
  copy.name = name_;
  s.skins.push_back(std::move(copy));
  for (ClipSource& clip : model.clips) copy_skin_deforms(clip, original, name_);
  set_name("Duplicate skin " + quoted(original));
  return {};
}

Status RenameSkin::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  if (!valid_skin(s, skin_)) return no_skin(skin_);
  const std::string old = s.skins[at(skin_)].name;
  if (Status st = check_name("skin", name_, old, [&](std::string_view n) { return s.find_skin(n) >= 0; }); !st) return st;
  s.skins[at(skin_)].name = name_;
  for (Skin& skin : s.skins)
    for (Attachment& a : skin.attachments)
      if (auto* l = std::get_if<LinkedMeshAttachment>(&a.data); l && l->skin == old) l->skin = name_;
  for (ClipSource& clip : model.clips) rename_skin(clip, old, name_);
  set_name("Rename skin " + quoted(old) + " to " + quoted(name_));
  add_rename({SkinId{old}, SkinId{name_}});
  return {};
}

Status RemoveSkin::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  if (!valid_skin(s, skin_)) return no_skin(skin_);
  const std::string name = s.skins[at(skin_)].name;
  if (const std::string users = borrowers_of(s, skin_); !users.empty())
    return edit_error("linked meshes " + users + " borrow meshes of skin " + quoted(name) + "; delete those first");
  s.skins.erase(s.skins.begin() + skin_);
  for (ClipSource& clip : model.clips) remove_skin(clip, name);
  prune_attachment_references(model);
  set_name("Remove skin " + quoted(name));
  return {};
}

Status SetSkinBones::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  if (!valid_skin(s, skin_)) return no_skin(skin_);
  for (std::size_t i = 0; i < bones_.size(); ++i) {
    if (bones_[i] < 0 || at(bones_[i]) >= s.bones.size())
      return edit_error("there is no bone at index " + std::to_string(bones_[i]));
    if (std::find(bones_.begin(), bones_.begin() + static_cast<std::ptrdiff_t>(i), bones_[i]) != bones_.begin() + static_cast<std::ptrdiff_t>(i))
      return edit_error("bone " + quoted(s.bones[at(bones_[i])].name) + " is listed twice");
  }
  s.skins[at(skin_)].bones = bones_;
  set_name("Set bones of skin " + quoted(s.skins[at(skin_)].name));
  return {};
}

Status SetSkinConstraints::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  if (!valid_skin(s, skin_)) return no_skin(skin_);
  for (std::size_t i = 0; i < constraints_.size(); ++i) {
    const ConstraintRef r = constraints_[i];
    if (r.index < 0 || at(r.index) >= s.constraint_count(r.kind))
      return edit_error(std::string("there is no ") + to_string(r.kind) + " constraint at index " + std::to_string(r.index));
    if (std::find(constraints_.begin(), constraints_.begin() + static_cast<std::ptrdiff_t>(i), r) !=
        constraints_.begin() + static_cast<std::ptrdiff_t>(i))
      return edit_error(std::string(to_string(r.kind)) + " constraint " + quoted(s.constraint_name(r)) + " is listed twice");
  }
  // The file lists the constraints per kind: keep that grouping so the model equals a re-read file.
  std::vector<ConstraintRef> grouped;
  for (ConstraintKind kind : {ConstraintKind::Ik, ConstraintKind::Transform, ConstraintKind::Path, ConstraintKind::Physics})
    for (const ConstraintRef& r : constraints_)
      if (r.kind == kind) grouped.push_back(r);
  s.skins[at(skin_)].constraints = std::move(grouped);
  set_name("Set constraints of skin " + quoted(s.skins[at(skin_)].name));
  return {};
}

}  // namespace mf::editor
