#pragma once
// Picking a bone in the viewport: each bone is the segment from its joint (world origin) to its tip
// (length along its world x axis), on the screen; a click selects the bone whose segment is nearest,
// within a few pixels.

#include <span>
#include <vector>

#include "mf/core/math/vec2.hpp"
#include "mf/skel/skeleton_pose.hpp"
#include "rig_view.hpp"

namespace mf::editor {

// How far from a bone a click may land and still pick it, in screen units.
inline constexpr float kPickTolerance = 6.0f;

struct BoneSegment {
  Vec2 joint, tip;      // screen points; equal for a bone of zero length
  bool shown = true;    // false for bones the current skin leaves inactive
};

// The bones of `pose` (world transforms up to date) on the screen through `view`, by bone index.
void bone_segments(const skel::SkeletonPose& pose, const RigView& view, std::vector<BoneSegment>& out);

// Distance from `p` to the segment [a, b] (to a itself when a == b).
float distance_to_segment(Vec2 p, Vec2 a, Vec2 b);

// The shown bone nearest `point` within `tolerance`, or −1. On a tie (a parent's tip on its child's
// joint) the later bone wins: children are drawn over their parents.
int pick_bone(std::span<const BoneSegment> bones, Vec2 point, float tolerance = kPickTolerance);

}  // namespace mf::editor
