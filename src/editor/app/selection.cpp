#include "selection.hpp"

namespace mf::editor {

std::string selection_name(const Selection& selection, const offline::SkeletonSource& skeleton) {
  const auto i = static_cast<std::size_t>(selection.index);
  if (selection.kind == ObjectKind::Bone && selection.index >= 0 && i < skeleton.bones.size()) return skeleton.bones[i].name;
  if (selection.kind == ObjectKind::Slot && selection.index >= 0 && i < skeleton.slots.size()) return skeleton.slots[i].name;
  return {};
}

std::string describe(const Selection& selection, const offline::SkeletonSource& skeleton) {
  const std::string name = selection_name(selection, skeleton);
  if (name.empty()) return "nothing";
  return (selection.kind == ObjectKind::Bone ? "bone \"" : "slot \"") + name + "\"";
}

}  // namespace mf::editor
