#include "mf/scene/node_2d.hpp"

#include <cmath>

#include "mf/core/math/angle.hpp"
#include "mf/core/math/bone_local.hpp"

namespace mf::scene {

void Node2D::set_position(Vec2 position) {
  position_ = position;
  local_changed();
}

void Node2D::set_rotation(float radians) {
  rotation_ = radians;
  local_changed();
}

void Node2D::set_scale(Vec2 scale) {
  scale_ = scale;
  local_changed();
}

void Node2D::set_skew(float radians) {
  skew_ = radians;
  local_changed();
}

void Node2D::local_changed() {
  local_stale_ = true;
  invalidate_global_transform(TransformSpace::TwoD);
}

const Affine2& Node2D::transform() const {
  if (local_stale_) {
    // The helper works in degrees, as poses store angles; skew tilts the Y axis only (shear_y).
    const Matrix2 m = bone_local_matrix(degrees(rotation_), scale_.x, scale_.y, 0.0f, degrees(skew_));
    local_ = Affine2::from(m, position_.x, position_.y);
    local_stale_ = false;
  }
  return local_;
}

void Node2D::set_transform(const Affine2& local) {
  const Vec2 x_axis{local.a, local.c};
  Vec2 y_axis{local.b, local.d};
  float scale_y = length(y_axis);
  if (local.det() < 0) {
    // A mirror: kept in scale.y's sign so the skew stays small.
    scale_y = -scale_y;
    y_axis = -y_axis;
  }
  const float rotation = std::atan2(x_axis.y, x_axis.x);
  float skew = std::atan2(y_axis.y, y_axis.x) - rotation - kPi / 2;
  skew = std::remainder(skew, 2 * kPi);  // into [−π, π]
  position_ = {local.x, local.y};
  rotation_ = rotation;
  scale_ = {length(x_axis), scale_y};
  skew_ = skew;
  local_changed();
}

Node2D* Node2D::parent_2d() const {
  for (Node* n = parent(); n; n = n->parent())
    if (auto* n2 = dynamic_cast<Node2D*>(n)) return n2;
  return nullptr;
}

const Affine2& Node2D::global_transform() const {
  if (global_stale_) {
    const Node2D* p = parent_2d();
    global_ = p ? p->global_transform() * transform() : transform();
    global_stale_ = false;
  }
  return global_;
}

void Node2D::set_global_transform(const Affine2& global) {
  const Node2D* p = parent_2d();
  if (!p) return set_transform(global);
  const std::optional<Affine2> inverse = p->global_transform().inverse();
  set_transform(inverse ? *inverse * global : global);
}

void Node2D::invalidate_global_transform(TransformSpace space) {
  if (static_cast<int>(space) & static_cast<int>(TransformSpace::TwoD)) {
    // Every 2D descendant of a stale node is stale: nothing more to do when this one is.
    if (global_stale_ && space == TransformSpace::TwoD) return;
    global_stale_ = true;
  }
  Node::invalidate_global_transform(space);
}

}  // namespace mf::scene
