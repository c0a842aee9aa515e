#pragma once
// Bounds of a pose, and the conservative bounds of a clip used for culling.

#include "mf/skel/clip_data.hpp"
#include "mf/skel/skeleton_data.hpp"
#include "mf/skel/skeleton_pose.hpp"

namespace mf::skel {

// Bounds of every visible attachment's world vertices (regions and meshes on active bones, with deform;
// not boxes, points or paths, and before clipping, so conservative for clipped slots), and of the
// active bones' origins when nothing is visible. Empty (Bounds::empty()) only without active bones.
// Reads the pose's world transforms; allocates nothing.
Bounds pose_bounds(const SkeletonPose& pose);

// Samples `clip` alone (weight 1, from the setup pose) at 0, its length, every key time and midway
// between neighbouring distinct key times, for each skin of the data composed over the first skin ({0},
// {0, 1}, {0, 2}, …; no skin when the data has none), and returns the union of the drawn (clipped)
// vertex bounds (CpuVertices::bounds). The clip need not be stored in `data` yet. Build-time helper: it
// allocates.
Bounds compute_clip_bounds(const SkeletonData& data, const ClipData& clip);

}  // namespace mf::skel
