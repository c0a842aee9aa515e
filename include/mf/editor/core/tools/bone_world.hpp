#pragma once
// World transforms of the setup pose (no constraints applied) for every bone, in double, whatever
// its inherit mode: what the viewport's tools measure and place bones against.
//
// Bones that inherit Normally, with Normal ancestors, get exactly offline::setup_world_transforms's
// values. The others take their parent's frame through the runtime's rule (skel::inherited_frame,
// computed in float on the parent's world 2×2), as the runtime's setup pose does.

#include <optional>
#include <vector>

#include "mf/core/math/affine2.hpp"
#include "mf/offline/format/skeleton_model.hpp"

namespace mf::editor {

// One entry per bone, in SkeletonSource::bones order.
std::vector<Affine2d> bone_worlds(const offline::SkeletonSource& s);

// The 2×2 a child with inherit mode `mode` takes from a parent whose world 2×2 is `parent`.
Matrix2d inherited_frame_of(const Matrix2d& parent, offline::Inherit mode);

// The local matrix of a bone's rotation, scale and shear (mf::bone_local_matrix in double).
Matrix2d local_matrix(const offline::Bone& bone);

// The world transform `bone` would have with this local pose under a parent of world `parent_world`
// (nullopt for a root).
Affine2d world_of(const offline::Bone& bone, const std::optional<Affine2d>& parent_world);

}  // namespace mf::editor
