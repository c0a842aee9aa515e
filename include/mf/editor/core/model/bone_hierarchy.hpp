#pragma once
// The bone tree of a SkeletonSource: sub-trees, ancestry, and moving or deleting bones in the list
// (parents always before children) with every index that refers to a bone renumbered.

#include <vector>

#include "mf/offline/format/skeleton_model.hpp"

namespace mf::editor {

// `bone` and its descendants, in list order.
std::vector<int> subtree(const offline::SkeletonSource& s, int bone);
// True when `ancestor` is `bone` or one of its ancestors.
bool is_ancestor_or_self(const offline::SkeletonSource& s, int ancestor, int bone);
// The bones whose parent is `bone`, in list order.
std::vector<int> children(const offline::SkeletonSource& s, int bone);

// Rebuilds the bone list: old bone i becomes bone new_index[i], or is deleted when new_index[i] is
// -1 (the kept bones' new indices are 0..n-1, parents before children). Renumbers every reference:
// parents, slots' bones, constraints' bones and targets, skins' bone lists and weighted vertices.
// Deleted bones are dropped from bone lists (skins, transform and path constraints); every other
// reference to a deleted bone (a parent, a slot's bone, an ik or physics bone, a target, a vertex
// weight) must have been removed by the caller first.
void renumber_bones(offline::SkeletonSource& s, const std::vector<int>& new_index);

// The order that puts `bone`'s sub-tree after `new_parent`'s (for reparenting under a bone listed
// later): new_index for renumber_bones, the identity when `new_parent` already comes first.
// `new_parent` must not be in the sub-tree; -1 (a root) needs no move.
std::vector<int> order_for_parent(const offline::SkeletonSource& s, int bone, int new_parent);

}  // namespace mf::editor
