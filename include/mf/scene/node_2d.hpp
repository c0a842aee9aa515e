#pragma once
// Node2D: a node with a 2D transform: position, rotation (radians), scale and skew (radians).
//
// The local transform is an Affine2 in the pose's convention (x' = a·x + b·y + x0,
// y' = c·x + d·y + y0; mf/core/math/affine2.hpp), built by the bone local-matrix formula
// (mf/core/math/bone_local.hpp): the X axis points at `rotation` with length scale.x, the Y axis at
// rotation + 90° + skew with length scale.y, the origin at `position`. A positive rotation turns +X
// towards +Y (clockwise on a Y-down screen).
//
// global_transform() = the nearest Node2D ancestor's global transform × the local one; nodes of other
// kinds in between pass that ancestor's transform through; without a Node2D ancestor it is the local
// one. Both are cached: a change marks this node's global transform and those of its 2D descendants
// stale (stopping where one is stale already), and they are recomputed when read.

#include "mf/core/math/affine2.hpp"
#include "mf/core/math/vec2.hpp"
#include "mf/scene/node.hpp"

namespace mf::scene {

class Node2D : public Node {
 public:
  using Node::Node;

  Vec2 position() const { return position_; }
  float rotation() const { return rotation_; }
  Vec2 scale() const { return scale_; }
  float skew() const { return skew_; }
  void set_position(Vec2 position);
  void set_rotation(float radians);
  void set_scale(Vec2 scale);
  void set_skew(float radians);

  // The local transform.
  const Affine2& transform() const;
  // Sets position, rotation, scale and skew from `local`. Every affine transform has such a form:
  // the X axis gives rotation and scale.x, the Y axis skew and scale.y (negative when the transform
  // mirrors), so transform() gives `local` back up to rounding.
  void set_transform(const Affine2& local);

  const Affine2& global_transform() const;
  // Sets the local transform so that the global one becomes `global` (the parent's global transform
  // must be invertible; when it is not, the local transform is set to `global` as given).
  void set_global_transform(const Affine2& global);

  // The nearest Node2D ancestor, or nullptr.
  Node2D* parent_2d() const;

 protected:
  void invalidate_global_transform(TransformSpace space) override;

 private:
  void local_changed();

  Vec2 position_{0, 0};
  Vec2 scale_{1, 1};
  float rotation_ = 0;
  float skew_ = 0;
  mutable Affine2 local_;
  mutable Affine2 global_;
  mutable bool local_stale_ = true;
  mutable bool global_stale_ = true;
};

}  // namespace mf::scene
