#include "mf/editor/core/commands/bone_commands.hpp"

#include <algorithm>

#include "mf/editor/core/model/bone_hierarchy.hpp"
#include "mf/editor/core/model/clip_references.hpp"
#include "mf/editor/core/model/names.hpp"
#include "mf/editor/core/model/rig_deletion.hpp"
#include "mf/editor/core/model/validate.hpp"
#include "mf/editor/core/tools/bone_tools.hpp"

namespace mf::editor {

using namespace offline;

namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }

bool valid_bone(const SkeletonSource& s, int b) { return b >= 0 && at(b) < s.bones.size(); }

Unexpected no_bone(int b) { return edit_error("there is no bone at index " + std::to_string(b)); }

std::string bone_noun(const SkeletonSource& s, int b) { return "bone " + quoted(s.bones[at(b)].name); }

const FieldGroup<Bone> kBoneGroups[] = {
    {"Move", [](const Bone& a, const Bone& b) { return a.x != b.x || a.y != b.y; }},
    {"Rotate", [](const Bone& a, const Bone& b) { return a.rotation != b.rotation; }},
    {"Scale", [](const Bone& a, const Bone& b) { return a.scale_x != b.scale_x || a.scale_y != b.scale_y; }},
    {"Shear", [](const Bone& a, const Bone& b) { return a.shear_x != b.shear_x || a.shear_y != b.shear_y; }},
    {"Set length of", [](const Bone& a, const Bone& b) { return a.length != b.length; }},
    {"Set inherit mode of", [](const Bone& a, const Bone& b) { return a.inherit != b.inherit; }},
    {"Set colour of", [](const Bone& a, const Bone& b) { return a.color != b.color; }},
    {"Set skin requirement of", [](const Bone& a, const Bone& b) { return a.skin_required != b.skin_required; }},
};

// "Move", "Rotate", ... for the groups that differ; "Edit" for several.
std::string action_for(const Bone& a, const Bone& b) {
  const char* action = nullptr;
  for (const FieldGroup<Bone>& g : kBoneGroups)
    if (g.differs(a, b)) {
      if (action) return "Edit";
      action = g.action;
    }
  return action ? action : "Edit";
}

}  // namespace

// ---- BoneTraits ----

Bone* BoneTraits::find(SkeletonSource& s, int bone) { return valid_bone(s, bone) ? &s.bones[at(bone)] : nullptr; }
const Bone* BoneTraits::find(const SkeletonSource& s, int bone) {
  return valid_bone(s, bone) ? &s.bones[at(bone)] : nullptr;
}
std::string BoneTraits::noun(const SkeletonSource&, int, const Bone& v) { return "bone " + quoted(v.name); }
std::span<const FieldGroup<Bone>> BoneTraits::groups() { return kBoneGroups; }

Status BoneTraits::validate(const Document& doc, int, const Bone& before, const Bone& after) {
  if (after.name != before.name) return edit_error("bone " + quoted(before.name) + ": rename it with RenameBone");
  if (after.parent != before.parent)
    return edit_error("bone " + quoted(before.name) + ": give it a new parent with ReparentBone");
  return validate_bone(doc.skeleton(), after);
}

// ---- SetBoneKeepChildren ----

Status SetBoneKeepChildren::execute(Document& doc) {
  const SkeletonSource& s = doc.skeleton();
  if (!valid_bone(s, bone_)) return no_bone(bone_);
  const Bone& current = s.bones[at(bone_)];
  if (Status st = BoneTraits::validate(doc, bone_, current, value_); !st) return st;
  if (current == value_) return {};
  Expected<std::vector<std::pair<int, Bone>>> moved = move_without_children(s, bone_, value_);
  if (!moved) return Unexpected{moved.error()};
  for (const auto& [i, b] : *moved) before_.emplace_back(i, s.bones[at(i)]);
  after_ = std::move(moved).value();
  name_ = action_for(current, value_) + " " + bone_noun(s, bone_) + " without its children";
  redo(doc);
  return {};
}

void SetBoneKeepChildren::undo(Document& doc) {
  SkeletonSource& s = doc.edit_skeleton();
  for (const auto& [i, b] : before_) s.bones[at(i)] = b;
}

void SetBoneKeepChildren::redo(Document& doc) {
  SkeletonSource& s = doc.edit_skeleton();
  for (const auto& [i, b] : after_) s.bones[at(i)] = b;
}

bool SetBoneKeepChildren::merge_with(const Command& next) {
  const auto* n = dynamic_cast<const SetBoneKeepChildren*>(&next);
  if (!n || gesture() == 0 || n->gesture() != gesture() || n->bone_ != bone_ || n->name_ != name_) return false;
  // The children's befores are this command's; the next one's afters follow from them.
  if (n->after_.size() != after_.size()) return false;
  after_ = n->after_;
  value_ = n->value_;
  return true;
}

// ---- structure ----

Status CreateBone::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  if (bone_.parent < -1 || (bone_.parent >= 0 && !valid_bone(s, bone_.parent)))
    return edit_error("there is no parent bone at index " + std::to_string(bone_.parent));
  const auto taken = [&](std::string_view n) { return s.find_bone(n) >= 0; };
  if (bone_.name.empty()) bone_.name = unique_name("bone", taken);
  if (Status st = check_name("bone", bone_.name, "", taken); !st) return st;
  if (Status st = validate_bone(s, bone_); !st) return st;
  // After the parent's sub-tree (at the end for a root): siblings stay together in the file.
  const int at_index = bone_.parent < 0 ? static_cast<int>(s.bones.size()) : subtree(s, bone_.parent).back() + 1;
  std::vector<int> new_index(s.bones.size());
  for (std::size_t i = 0; i < s.bones.size(); ++i)
    new_index[i] = static_cast<int>(i) < at_index ? static_cast<int>(i) : static_cast<int>(i) + 1;
  s.bones.push_back(Bone{});  // a placeholder renumber_bones fills below
  new_index.push_back(at_index);
  renumber_bones(s, new_index);
  s.bones[at(at_index)] = bone_;
  index_ = at_index;
  set_name("Create bone " + quoted(bone_.name));
  return {};
}

Status DeleteBone::edit(RigModel& model, const Document&) {
  if (!valid_bone(model.skeleton, bone_)) return no_bone(bone_);
  set_name("Delete " + bone_noun(model.skeleton, bone_));
  return delete_bones(model, bone_);
}

Status RenameBone::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  if (!valid_bone(s, bone_)) return no_bone(bone_);
  const std::string old = s.bones[at(bone_)].name;
  if (Status st = check_name("bone", name_, old, [&](std::string_view n) { return s.find_bone(n) >= 0; }); !st) return st;
  s.bones[at(bone_)].name = name_;
  for (ClipSource& clip : model.clips) rename_bone(clip, old, name_);
  set_name("Rename bone " + quoted(old) + " to " + quoted(name_));
  add_rename({BoneId{old}, BoneId{name_}});
  return {};
}

Status DuplicateBone::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  if (!valid_bone(s, bone_)) return no_bone(bone_);
  const std::vector<int> originals = with_descendants_ ? subtree(s, bone_) : std::vector<int>{bone_};
  const int insert_at = subtree(s, bone_).back() + 1;
  // Copies, with parents inside the copied set pointing at the copies (by position in `copies`).
  std::vector<Bone> copies;
  const auto taken = [&](std::string_view n) {
    return s.find_bone(n) >= 0 || std::any_of(copies.begin(), copies.end(), [&](const Bone& c) { return c.name == n; });
  };
  for (int o : originals) {
    Bone c = s.bones[at(o)];
    c.name = unique_name(c.name, taken);
    const auto parent = std::find(originals.begin(), originals.end(), c.parent);
    if (o != bone_ && parent != originals.end()) c.parent = -2 - static_cast<int>(parent - originals.begin());
    copies.push_back(std::move(c));
  }
  std::vector<int> new_index(s.bones.size());
  const int n = static_cast<int>(copies.size());
  for (std::size_t i = 0; i < s.bones.size(); ++i)
    new_index[i] = static_cast<int>(i) < insert_at ? static_cast<int>(i) : static_cast<int>(i) + n;
  for (int k = 0; k < n; ++k) {
    s.bones.push_back(Bone{});
    new_index.push_back(insert_at + k);
  }
  renumber_bones(s, new_index);
  for (int k = 0; k < n; ++k) {
    Bone c = copies[at(k)];
    if (c.parent <= -2) c.parent = insert_at + (-2 - c.parent);  // a copied parent: its copy
    else if (c.parent >= 0) c.parent = new_index[at(c.parent)];
    s.bones[at(insert_at + k)] = std::move(c);
  }
  index_ = insert_at;
  set_name("Duplicate " + bone_noun(s, bone_));  // the original keeps its index: copies come after it
  return {};
}

Status ReparentBone::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  if (!valid_bone(s, bone_)) return no_bone(bone_);
  if (parent_ < -1 || (parent_ >= 0 && !valid_bone(s, parent_)))
    return edit_error("there is no parent bone at index " + std::to_string(parent_));
  const std::string name = s.bones[at(bone_)].name;
  if (parent_ >= 0 && is_ancestor_or_self(s, bone_, parent_))
    return edit_error("bone " + quoted(name) + " cannot be a child of itself or of its own descendant " +
                      quoted(s.bones[at(parent_)].name));
  if (s.bones[at(bone_)].parent == parent_) return {};
  for (const IkConstraint& c : s.ik)
    if (c.bones.size() == 2 && c.bones[1] == bone_)
      return edit_error("bone " + quoted(name) + " is the second bone of ik constraint " + quoted(c.name) +
                        ", so it must stay a child of " + quoted(s.bones[at(c.bones[0])].name));
  Bone moved = s.bones[at(bone_)];
  if (keep_world_) {
    Expected<Bone> b = reparented(s, bone_, parent_);
    if (!b) return Unexpected{b.error()};
    moved = std::move(b).value();
  }
  moved.parent = parent_;
  s.bones[at(bone_)] = moved;
  // Now the hierarchy has changed, an ik target may have fallen inside its chain.
  for (const IkConstraint& c : s.ik)
    if (Status st = validate_constraint(s, c); !st) return st;
  const std::string parent_name = parent_ < 0 ? std::string() : s.bones[at(parent_)].name;
  // Parents stay listed before children: the sub-tree moves after a new parent listed later. The
  // sub-tree is found from the bone forward, which its new parent does not change.
  renumber_bones(s, order_for_parent(s, bone_, parent_));
  set_name("Reparent bone " + quoted(name) + (parent_ < 0 ? std::string(" to the root") : " to " + quoted(parent_name)));
  return {};
}

}  // namespace mf::editor
