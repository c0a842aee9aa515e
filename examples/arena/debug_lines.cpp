#include "debug_lines.hpp"

#include <cmath>
#include <numbers>

#include "mf/skel/animated_skeleton.hpp"

namespace arena {

mf::Expected<std::unique_ptr<DebugLines>> DebugLines::create(std::string name, std::vector<LineGroup> groups) {
  auto data = make_lines_rig(groups);
  if (!data) return mf::Unexpected{data.error()};
  std::unique_ptr<DebugLines> node(new DebugLines(std::move(name)));
  node->set_update_mode(mf::scene::SkeletonUpdateMode::Manual);
  // Posed every frame whatever the last frame's culling said (all lines collapsed culls it).
  node->set_offscreen(mf::scene::OffscreenUpdate::Full);
  if (mf::Status s = node->set_data(std::move(*data)); !s) return mf::Unexpected{s.error()};
  int bone = 1;
  for (const LineGroup& g : groups) {
    node->first_bone_.push_back(bone);
    bone += g.count;
  }
  node->used_.assign(groups.size(), 0);
  node->lines_.resize(static_cast<std::size_t>(bone - 1));
  node->groups_ = std::move(groups);
  return node;
}

void DebugLines::clear() { std::fill(used_.begin(), used_.end(), 0); }

void DebugLines::add_line(int group, mf::Vec2 from, mf::Vec2 to, float width) {
  const auto g = static_cast<std::size_t>(group);
  if (used_[g] >= groups_[g].count) {
    ++dropped_;
    return;
  }
  lines_[static_cast<std::size_t>(first_bone_[g] - 1 + used_[g]++)] = {from, to, width};
}

void DebugLines::add_polygon(int group, std::span<const mf::Vec2> points, float width) {
  for (std::size_t i = 0; i < points.size(); ++i) add_line(group, points[i], points[(i + 1) % points.size()], width);
}

void DebugLines::add_circle(int group, mf::Vec2 centre, float radius, int segments, float width) {
  const float step = 2 * std::numbers::pi_v<float> / static_cast<float>(segments);
  mf::Vec2 previous{centre.x + radius, centre.y};
  for (int i = 1; i <= segments; ++i) {
    const float a = step * static_cast<float>(i);
    const mf::Vec2 next{centre.x + radius * std::cos(a), centre.y + radius * std::sin(a)};
    add_line(group, previous, next, width);
    previous = next;
  }
}

mf::Status DebugLines::commit() {
  // The lines are given on the canvas; the node may sit anywhere, so they are brought into its
  // skeleton space (the root bone is the identity there).
  const auto to_skeleton = skeleton_transform().inverse();
  if (!to_skeleton) return mf::Unexpected{mf::Error{{}, {}, {}, path() + ": the node's transform cannot be inverted"}};
  for (std::size_t g = 0; g < groups_.size(); ++g)
    for (int i = 0; i < groups_[g].count; ++i) {
      const int bone = first_bone_[g] + i;
      mf::skel::BoneOverride o;
      o.space = mf::skel::BoneOverrideSpace::Local;
      if (i < used_[g]) {
        const Line& line = lines_[static_cast<std::size_t>(bone - 1)];
        const mf::Vec2 a = to_skeleton->apply(line.from), b = to_skeleton->apply(line.to);
        const float dx = b.x - a.x, dy = b.y - a.y;
        o.x = a.x;
        o.y = a.y;
        o.rotation = std::atan2(dy, dx) * (180 / std::numbers::pi_v<float>);
        o.scale_x = std::sqrt(dx * dx + dy * dy);
        o.scale_y = line.width;
      } else {
        o.scale_x = o.scale_y = 0;
      }
      set_bone_override(bone, o);
    }
  return advance(0);
}

}  // namespace arena
