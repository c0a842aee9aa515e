#pragma once
// What the editor has selected: one bone or one slot of the rig's source model, by index, or
// nothing. Every panel reads and sets the same Selection.

#include <string>

#include "mf/offline/format/skeleton_model.hpp"

namespace mf::editor {

enum class ObjectKind : unsigned char { None, Bone, Slot };

struct Selection {
  ObjectKind kind = ObjectKind::None;
  int index = -1;

  static Selection bone(int i) { return i >= 0 ? Selection{ObjectKind::Bone, i} : Selection{}; }
  static Selection slot(int i) { return i >= 0 ? Selection{ObjectKind::Slot, i} : Selection{}; }
  bool empty() const { return kind == ObjectKind::None; }
  bool is_bone(int i) const { return kind == ObjectKind::Bone && index == i; }
  bool is_slot(int i) const { return kind == ObjectKind::Slot && index == i; }

  friend bool operator==(const Selection&, const Selection&) = default;
};

// The selected object's name in `skeleton`, or "" for nothing (or an index the skeleton lacks).
std::string selection_name(const Selection& selection, const offline::SkeletonSource& skeleton);
// "bone hips", "slot torso" or "nothing", for messages.
std::string describe(const Selection& selection, const offline::SkeletonSource& skeleton);

}  // namespace mf::editor
