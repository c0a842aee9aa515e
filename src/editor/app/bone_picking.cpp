#include "bone_picking.hpp"

#include <algorithm>

namespace mf::editor {

void bone_segments(const skel::SkeletonPose& pose, const RigView& view, std::vector<BoneSegment>& out) {
  const skel::BoneTable& bones = pose.data().bones;
  out.resize(bones.size());
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const Vec2 joint{pose.world_x[i], pose.world_y[i]};
    // The bone's world x axis is the first column of its 2×2 part: (a, c).
    const Vec2 tip = joint + Vec2{pose.a[i], pose.c[i]} * bones.length[i];
    out[i] = {view.to_screen(joint), view.to_screen(tip), pose.active[i] != 0};
  }
}

float distance_to_segment(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 ab = b - a;
  const float len2 = dot(ab, ab);
  const float t = len2 > 0 ? std::clamp(dot(p - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
  return length(p - (a + ab * t));
}

int pick_bone(std::span<const BoneSegment> bones, Vec2 point, float tolerance) {
  int best = -1;
  float best_distance = tolerance;
  constexpr float kTie = 0.01f;
  for (std::size_t i = 0; i < bones.size(); ++i) {
    if (!bones[i].shown) continue;
    const float d = distance_to_segment(point, bones[i].joint, bones[i].tip);
    if (d <= best_distance + (best >= 0 ? kTie : 0)) {
      best = static_cast<int>(i);
      best_distance = std::min(d, best_distance);
    }
  }
  return best;
}

}  // namespace mf::editor
