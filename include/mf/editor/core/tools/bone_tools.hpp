#pragma once
// The maths of the bone tools, headless: a bone's local pose for a wanted world transform, a new
// bone placed at a world point, reparenting that keeps the world pose, and moving a bone while its
// children stay where they are. Everything works on the setup pose (bone_world.hpp) in double and
// stores float, as the source model does; the world transforms kept are exact to float rounding of
// the stored values (well under 1e-4 px for rigs of a few thousand pixels).

#include <optional>
#include <utility>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/core/math/affine2.hpp"
#include "mf/core/math/vec2.hpp"
#include "mf/offline/format/skeleton_model.hpp"

namespace mf::editor {

// `bone` (its name, length, colour, ... kept) with the translation, rotation, scale and shear that
// give it the world transform `world` under a parent of world `parent_world` (nullopt: a root) with
// its inherit mode. The decomposition keeps the bone's shear X and the sign of its scale X, and
// picks the rotation nearest the old one (no 360° jumps). Fails when the parent's frame cannot be
// inverted (a zero scale).
Expected<offline::Bone> bone_for_world(const offline::Bone& bone, const std::optional<Affine2d>& parent_world,
                                       const Affine2d& world);

// A new bone under `parent` (-1: a root) whose origin is at `origin` in skeleton space, with local
// scale 1 and no shear. With `tip`, its rotation turns its X axis towards `tip` in the world and its
// length reaches it; without, its local rotation and length are 0.
Expected<offline::Bone> bone_at(const offline::SkeletonSource& s, int parent, Vec2d origin,
                                std::optional<Vec2d> tip = std::nullopt);

// `bone` moved under `new_parent` (-1: a root) with the local pose that keeps its world transform.
// Its descendants then keep theirs too.
Expected<offline::Bone> reparented(const offline::SkeletonSource& s, int bone, int new_parent);

// Sets `bone` to `value` (its local pose changed) while its children keep their world transforms:
// the bone and each direct child with its new local pose (grandchildren follow their parents).
Expected<std::vector<std::pair<int, offline::Bone>>> move_without_children(const offline::SkeletonSource& s, int bone,
                                                                           const offline::Bone& value);

}  // namespace mf::editor
