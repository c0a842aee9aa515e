#pragma once
// World transforms: each bone's 2×3 in skeleton space from its parent's and its local pose, honouring
// the five inherit modes and reflection (negative scale).
//
// Local matrix of a bone with rotation r, shear (shx, shy) and scale (sx, sy), angles in degrees
// clockwise on screen (Y down), columns are the bone's axes:
//   [a b]   [cos(r + shx)·sx   cos(r + 90 + shy)·sy]
//   [c d] = [sin(r + shx)·sx   sin(r + 90 + shy)·sy]
// The world position is always the parent's world transform applied to the local (x, y).
// The world 2×2 depends on the inherit mode, with P the parent's world 2×2:
//   Normal                  P · L
//   OnlyTranslation         L
//   NoRotationOrReflection  (P with its rotation removed, and its Y axis flipped back when P reflects) · L
//   NoScale                 (P's orthonormal frame: unit X axis, Y axis perpendicular, mirrored when P reflects) · L
//   NoScaleOrReflection     (P's rotation only) · L
// A root bone's parent is the identity.

#include "mf/skel/skeleton_pose.hpp"

namespace mf::skel {

// Computes one bone's world transform from its parent's (already computed) and its local pose.
void update_world_transform(SkeletonPose& pose, int bone);

// Walks the update order and computes the world transform of every active bone. A bone whose local
// pose is unchanged since the last call, and none of whose ancestors changed, keeps last frame's world
// transform (an idle sub-tree costs one comparison per bone). Constraint steps are solved by the
// constraints module when it is linked into the update order; this walk computes the bone steps.
void update_world_transforms(SkeletonPose& pose);

}  // namespace mf::skel
