#pragma once
// DebugLines: outlines drawn through the canvas renderer, which draws skeletons only. The node is a
// Skeleton2D showing the lines rig (prop_rigs.hpp): every line is a bone with a white unit quad, and a
// frame's lines become local bone overrides (position, angle, length as scale X, width as scale Y) on
// a skeleton posed once per frame (UpdateMode Manual). Lines not used this frame collapse to nothing.
// Colours are the groups' slot colours. Being canvas art, the lines are lit like the rest of the frame.
//
// Use: clear(), add lines, polygons and circles, then commit() before the frame is drawn.

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "mf/core/math/vec2.hpp"
#include "mf/scene/skeleton/skeleton_2d.hpp"
#include "prop_rigs.hpp"

namespace arena {

class DebugLines : public mf::scene::Skeleton2D {
 public:
  // The rig for `groups`, bound; an error when it cannot be built.
  static mf::Expected<std::unique_ptr<DebugLines>> create(std::string name, std::vector<LineGroup> groups);

  void clear();
  // A segment in group `group` (an index into the groups), `width` canvas pixels across. Past the
  // group's count the line is dropped (dropped() counts them).
  void add_line(int group, mf::Vec2 from, mf::Vec2 to, float width);
  // A closed outline through `points`.
  void add_polygon(int group, std::span<const mf::Vec2> points, float width);
  void add_circle(int group, mf::Vec2 centre, float radius, int segments, float width);
  // Poses the lines (an error only from the skeleton's advance).
  mf::Status commit();

  int used(int group) const { return used_[static_cast<std::size_t>(group)]; }
  std::uint64_t dropped() const { return dropped_; }

 private:
  explicit DebugLines(std::string name) : Skeleton2D(std::move(name)) {}

  struct Line {
    mf::Vec2 from, to;
    float width;
  };
  std::vector<LineGroup> groups_;
  std::vector<int> first_bone_;           // per group
  std::vector<int> used_;                 // per group, this frame
  std::vector<Line> lines_;               // per bone − 1, this frame's values where used
  std::uint64_t dropped_ = 0;
};

}  // namespace arena
