#pragma once
// Bounds of a pose, and the conservative bounds of a clip used for culling.

#include "mf/skel/clip_data.hpp"
#include "mf/skel/skeleton_data.hpp"
#include "mf/skel/skeleton_pose.hpp"

namespace mf::skel {

// Bounds of every visible attachment's world vertices (regions, meshes; not boxes, points or paths),
// and of the bone origins when nothing is visible.
Bounds pose_bounds(const SkeletonPose& pose);

// Samples `clip` alone at every key time and midway between neighbouring key times, for each skin of
// the data composed over the first skin, and returns the union of the pose bounds. Build-time helper:
// it allocates.
Bounds compute_clip_bounds(const SkeletonData& data, const ClipData& clip);

}  // namespace mf::skel
