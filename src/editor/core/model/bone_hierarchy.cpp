#include "mf/editor/core/model/bone_hierarchy.hpp"

#include <algorithm>
#include <cassert>

#include "mf/editor/core/model/attachment_vertices.hpp"

namespace mf::editor {

using namespace offline;

namespace {
std::size_t at(int i) { return static_cast<std::size_t>(i); }
}  // namespace

std::vector<int> subtree(const SkeletonSource& s, int bone) {
  std::vector<int> out;
  if (bone < 0 || at(bone) >= s.bones.size()) return out;
  std::vector<bool> inside(s.bones.size(), false);
  inside[at(bone)] = true;
  out.push_back(bone);
  // Parents come before children, so one pass from the bone finds every descendant.
  for (std::size_t i = at(bone) + 1; i < s.bones.size(); ++i) {
    const int p = s.bones[i].parent;
    if (p >= 0 && inside[at(p)]) {
      inside[i] = true;
      out.push_back(static_cast<int>(i));
    }
  }
  return out;
}

bool is_ancestor_or_self(const SkeletonSource& s, int ancestor, int bone) {
  for (int b = bone; b >= 0; b = s.bones[at(b)].parent)
    if (b == ancestor) return true;
  return false;
}

std::vector<int> children(const SkeletonSource& s, int bone) {
  std::vector<int> out;
  for (std::size_t i = 0; i < s.bones.size(); ++i)
    if (s.bones[i].parent == bone) out.push_back(static_cast<int>(i));
  return out;
}

namespace {

int renumbered(const std::vector<int>& new_index, int old) {
  if (old < 0) return old;
  const int n = new_index[at(old)];
  assert(n >= 0 && "a reference to a deleted bone is left");
  return n;
}

// A bone list with deleted bones dropped and the rest renumbered.
void renumber_list(std::vector<int>& bones, const std::vector<int>& new_index) {
  std::vector<int> out;
  out.reserve(bones.size());
  for (int b : bones)
    if (new_index[at(b)] >= 0) out.push_back(new_index[at(b)]);
  bones = std::move(out);
}

}  // namespace

void renumber_bones(SkeletonSource& s, const std::vector<int>& new_index) {
  assert(new_index.size() == s.bones.size());
  const auto kept = static_cast<std::size_t>(std::count_if(new_index.begin(), new_index.end(), [](int i) { return i >= 0; }));
  std::vector<Bone> bones(kept);
  for (std::size_t i = 0; i < s.bones.size(); ++i) {
    if (new_index[i] < 0) continue;
    Bone b = std::move(s.bones[i]);
    b.parent = renumbered(new_index, b.parent);
    bones[at(new_index[i])] = std::move(b);
  }
  s.bones = std::move(bones);
  for (Slot& slot : s.slots) slot.bone = renumbered(new_index, slot.bone);
  for (IkConstraint& c : s.ik) {
    renumber_list(c.bones, new_index);
    c.target = renumbered(new_index, c.target);
  }
  for (TransformConstraint& c : s.transform) {
    renumber_list(c.bones, new_index);
    c.target = renumbered(new_index, c.target);
  }
  for (PathConstraint& c : s.path) renumber_list(c.bones, new_index);
  for (PhysicsConstraint& c : s.physics) c.bone = renumbered(new_index, c.bone);
  for (Skin& skin : s.skins) {
    renumber_list(skin.bones, new_index);
    for (Attachment& a : skin.attachments)
      if (Vertices* v = vertices_of(a.data))
        for (std::vector<InfluenceSource>& influences : v->weights)
          for (InfluenceSource& i : influences) i.bone = renumbered(new_index, i.bone);
  }
}

std::vector<int> order_for_parent(const SkeletonSource& s, int bone, int new_parent) {
  std::vector<int> identity(s.bones.size());
  for (std::size_t i = 0; i < identity.size(); ++i) identity[i] = static_cast<int>(i);
  if (new_parent < bone) return identity;
  const std::vector<int> moved = subtree(s, bone);
  std::vector<bool> in_moved(s.bones.size(), false);
  for (int b : moved) in_moved[at(b)] = true;
  std::vector<int> rest;  // old indices of the bones that stay, in order
  for (std::size_t i = 0; i < s.bones.size(); ++i)
    if (!in_moved[i]) rest.push_back(static_cast<int>(i));
  // Insert after the new parent's last descendant, so a parent's children stay together.
  const std::vector<int> parent_tree = subtree(s, new_parent);
  const int last = parent_tree.back();
  std::vector<int> order;  // old indices in new order
  for (int b : rest) {
    order.push_back(b);
    if (b == last) order.insert(order.end(), moved.begin(), moved.end());
  }
  std::vector<int> new_index(s.bones.size());
  for (std::size_t i = 0; i < order.size(); ++i) new_index[at(order[i])] = static_cast<int>(i);
  return new_index;
}

}  // namespace mf::editor
