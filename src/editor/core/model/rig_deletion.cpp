#include "mf/editor/core/model/rig_deletion.hpp"

#include <algorithm>
#include <array>

#include "mf/editor/core/model/attachment_references.hpp"
#include "mf/editor/core/model/attachment_vertices.hpp"
#include "mf/editor/core/model/bone_hierarchy.hpp"
#include "mf/editor/core/model/clip_references.hpp"
#include "mf/editor/core/model/names.hpp"
#include "mf/editor/core/model/slot_order.hpp"

namespace mf::editor {

using namespace offline;

namespace {

constexpr std::array<ConstraintKind, 4> kKinds = {ConstraintKind::Ik, ConstraintKind::Transform, ConstraintKind::Path,
                                                  ConstraintKind::Physics};

std::size_t at(int i) { return static_cast<std::size_t>(i); }

// Drops the items whose flag is set, returning the new index of each old item (-1: dropped).
template <class T>
std::vector<int> erase_flagged(std::vector<T>& items, const std::vector<bool>& drop) {
  std::vector<int> new_index(items.size(), -1);
  std::vector<T> kept;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (drop[i]) continue;
    new_index[i] = static_cast<int>(kept.size());
    kept.push_back(std::move(items[i]));
  }
  items = std::move(kept);
  return new_index;
}

}  // namespace

void delete_constraints(RigModel& model, std::vector<ConstraintRef> refs) {
  if (refs.empty()) return;
  SkeletonSource& s = model.skeleton;
  std::array<std::vector<bool>, 4> drop;
  for (ConstraintKind kind : kKinds) drop[static_cast<std::size_t>(kind)].assign(s.constraint_count(kind), false);
  for (const ConstraintRef& r : refs) {
    drop[static_cast<std::size_t>(r.kind)][at(r.index)] = true;
    for (ClipSource& clip : model.clips) remove_constraint(clip, r.kind, s.constraint_name(r));
  }
  std::array<std::vector<int>, 4> new_index;
  new_index[0] = erase_flagged(s.ik, drop[0]);
  new_index[1] = erase_flagged(s.transform, drop[1]);
  new_index[2] = erase_flagged(s.path, drop[2]);
  new_index[3] = erase_flagged(s.physics, drop[3]);
  for (Skin& skin : s.skins) {
    std::vector<ConstraintRef> kept;
    for (ConstraintRef r : skin.constraints) {
      const int n = new_index[static_cast<std::size_t>(r.kind)][at(r.index)];
      if (n >= 0) kept.push_back({r.kind, n});
    }
    skin.constraints = std::move(kept);
  }
  s.canonicalize_orders();
}

void delete_slots(RigModel& model, std::vector<int> slots) {
  if (slots.empty()) return;
  SkeletonSource& s = model.skeleton;
  std::vector<bool> drop(s.slots.size(), false);
  for (int i : slots) drop[at(i)] = true;

  std::vector<ConstraintRef> paths;
  for (std::size_t i = 0; i < s.path.size(); ++i)
    if (drop[at(s.path[i].target)]) paths.push_back({ConstraintKind::Path, static_cast<int>(i)});
  delete_constraints(model, std::move(paths));

  for (Skin& skin : s.skins)
    skin.attachments.erase(std::remove_if(skin.attachments.begin(), skin.attachments.end(),
                                          [&](const Attachment& a) { return drop[at(a.slot)]; }),
                           skin.attachments.end());
  for (ClipSource& clip : model.clips)
    for (std::size_t i = 0; i < s.slots.size(); ++i)
      if (drop[i]) remove_slot(clip, s.slots[i].name);

  std::vector<Slot> kept;
  std::vector<int> new_index(s.slots.size(), -1);
  for (std::size_t i = 0; i < s.slots.size(); ++i) {
    if (drop[i]) continue;
    new_index[i] = static_cast<int>(kept.size());
    kept.push_back(s.slots[i]);
  }
  reorder_slots(model, std::move(kept), new_index);
  prune_attachment_references(model);
}

Status delete_bones(RigModel& model, int bone) {
  SkeletonSource& s = model.skeleton;
  std::vector<bool> gone(s.bones.size(), false);
  for (int b : subtree(s, bone)) gone[at(b)] = true;

  std::vector<bool> slot_gone(s.slots.size(), false);
  std::vector<int> slots;
  for (std::size_t i = 0; i < s.slots.size(); ++i)
    if (gone[at(s.slots[i].bone)]) {
      slot_gone[i] = true;
      slots.push_back(static_cast<int>(i));
    }

  // Weights that would lose a bone: refused, as redoing them is the user's call.
  for (const Skin& skin : s.skins)
    for (const Attachment& a : skin.attachments) {
      if (slot_gone[at(a.slot)]) continue;
      const Vertices* v = vertices_of(a.data);
      if (!v) continue;
      for (std::size_t b = 0; b < gone.size(); ++b)
        if (gone[b] && weights_use_bone(*v, static_cast<int>(b)))
          return edit_error("bone " + quoted(s.bones[b].name) + " weights vertices of attachment " + quoted(a.name) +
                            " (skin " + quoted(skin.name) + ", slot " + quoted(s.slots[at(a.slot)].name) +
                            "); remove its weights first");
    }

  const auto none_left = [&](const std::vector<int>& bones) {
    return std::all_of(bones.begin(), bones.end(), [&](int b) { return gone[at(b)]; });
  };
  std::vector<ConstraintRef> constraints;
  for (std::size_t i = 0; i < s.ik.size(); ++i)
    if (gone[at(s.ik[i].target)] || gone[at(s.ik[i].bones[0])]) constraints.push_back({ConstraintKind::Ik, static_cast<int>(i)});
  for (std::size_t i = 0; i < s.transform.size(); ++i)
    if (gone[at(s.transform[i].target)] || none_left(s.transform[i].bones))
      constraints.push_back({ConstraintKind::Transform, static_cast<int>(i)});
  for (std::size_t i = 0; i < s.path.size(); ++i)
    if (none_left(s.path[i].bones) && !slot_gone[at(s.path[i].target)])  // the slot's deletion takes the others
      constraints.push_back({ConstraintKind::Path, static_cast<int>(i)});
  for (std::size_t i = 0; i < s.physics.size(); ++i)
    if (gone[at(s.physics[i].bone)]) constraints.push_back({ConstraintKind::Physics, static_cast<int>(i)});
  delete_constraints(model, std::move(constraints));
  delete_slots(model, std::move(slots));

  std::vector<int> new_index(s.bones.size(), -1);
  int next = 0;
  for (std::size_t i = 0; i < s.bones.size(); ++i) {
    if (gone[i]) {
      for (ClipSource& clip : model.clips) remove_bone(clip, s.bones[i].name);
    } else {
      new_index[i] = next++;
    }
  }
  renumber_bones(s, new_index);
  return {};
}

}  // namespace mf::editor
