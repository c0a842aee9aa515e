#pragma once
// World transforms: each bone's 2×3 in skeleton space from its parent's and its local pose, honouring
// the five inherit modes and reflection (negative scale).
//
// Local matrix L of a bone: mf::bone_local_matrix (mf/core/math/bone_local.hpp) of its rotation, scale
// and shear.
// The world position is always the parent's world transform applied to the local (x, y).
// The world 2×2 depends on the inherit mode, with P the parent's world 2×2:
//   Normal                  P · L
//   OnlyTranslation         L
//   NoRotationOrReflection  (P with its rotation removed, and its Y axis flipped back when P reflects) · L
//   NoScale                 (P's orthonormal frame: unit X axis, Y axis perpendicular, mirrored when P reflects) · L
//   NoScaleOrReflection     (P's rotation only) · L
// A root bone's parent is the identity.

#include "mf/core/math/matrix2.hpp"
#include "mf/skel/skeleton_pose.hpp"

namespace mf::skel {

// World 2×2s are mf::Matrix2 (mf/core/math/matrix2.hpp): columns are axes, x' = a·x + b·y, y' = c·x + d·y.

// The frame a child with inherit mode `mode` takes from its parent's world 2×2 (the table above): the
// child's world 2×2 is this frame times its local matrix.
Matrix2 inherited_frame(const Matrix2& parent_world, Inherit mode);
// The frame `bone` takes from its parent's current world transform; the identity for a root bone.
Matrix2 inherited_frame(const SkeletonPose& pose, int bone);

// Computes one bone's world transform from its parent's (already computed) and its local pose.
void update_world_transform(SkeletonPose& pose, int bone);

// Walks the whole update order, bones and constraints, with a default frame: the same as
// update_skeleton(pose, FrameContext{}) (constraints.hpp), so physics takes no time step. A bone whose
// local pose is unchanged since the last call, none of whose ancestors changed and which no constraint
// writes keeps last frame's world transform (an idle sub-tree costs one comparison per bone).
void update_world_transforms(SkeletonPose& pose);

}  // namespace mf::skel
