#include "finding_target.hpp"

#include <vector>

#include "mf/offline/json/json_path.hpp"

namespace mf::editor {
namespace {

using Segments = std::vector<json::PathSegment>;

bool key_at(const Segments& s, std::size_t i, const char* key) { return i < s.size() && !s[i].is_index && s[i].key == key; }
bool index_at(const Segments& s, std::size_t i) { return i < s.size() && s[i].is_index; }

// bones[i] (the .mskel's array) or bones.<name> (a clip's map), starting at segment `at`.
Selection by_index_or_name(const Segments& s, std::size_t at, ObjectKind kind, const offline::SkeletonSource& skeleton) {
  if (at >= s.size()) return {};
  const std::size_t count = kind == ObjectKind::Bone ? skeleton.bones.size() : skeleton.slots.size();
  int index = -1;
  if (s[at].is_index) index = s[at].index < count ? static_cast<int>(s[at].index) : -1;
  else index = kind == ObjectKind::Bone ? skeleton.find_bone(s[at].key) : skeleton.find_slot(s[at].key);
  return kind == ObjectKind::Bone ? Selection::bone(index) : Selection::slot(index);
}

template <class Constraint>
Selection constraint_bone(const Segments& s, const std::vector<Constraint>& list, bool target_is_slot) {
  if (!index_at(s, 1) || s[1].index >= list.size()) return {};
  const Constraint& c = list[s[1].index];
  if (key_at(s, 2, "bones") && index_at(s, 3) && s[3].index < c.bones.size()) return Selection::bone(c.bones[s[3].index]);
  if (key_at(s, 2, "target")) return target_is_slot ? Selection::slot(c.target) : Selection::bone(c.target);
  return c.bones.empty() ? Selection{} : Selection::bone(c.bones.front());
}

}  // namespace

Selection finding_target(const offline::Finding& finding, const offline::SkeletonSource& skeleton) {
  const Segments s = json::split_path(finding.error.path);
  if (s.empty()) return {};
  if (key_at(s, 0, "bones")) return by_index_or_name(s, 1, ObjectKind::Bone, skeleton);
  if (key_at(s, 0, "slots")) return by_index_or_name(s, 1, ObjectKind::Slot, skeleton);
  if (key_at(s, 0, "skins") && index_at(s, 1) && key_at(s, 2, "attachments") && index_at(s, 3)) {
    if (s[1].index >= skeleton.skins.size()) return {};
    const auto& attachments = skeleton.skins[s[1].index].attachments;
    return s[3].index < attachments.size() ? Selection::slot(attachments[s[3].index].slot) : Selection{};
  }
  if (key_at(s, 0, "deform") && s.size() > 2 && !s[2].is_index) return Selection::slot(skeleton.find_slot(s[2].key));
  // Constraints by index exist only in the .mskel; a clip keys them by name and moves no bone itself.
  if (key_at(s, 0, "ik") && index_at(s, 1)) return constraint_bone(s, skeleton.ik, false);
  if (key_at(s, 0, "transform") && index_at(s, 1)) return constraint_bone(s, skeleton.transform, false);
  if (key_at(s, 0, "path") && index_at(s, 1)) return constraint_bone(s, skeleton.path, true);
  if (key_at(s, 0, "physics") && index_at(s, 1) && s[1].index < skeleton.physics.size())
    return Selection::bone(skeleton.physics[s[1].index].bone);
  return {};
}

}  // namespace mf::editor
