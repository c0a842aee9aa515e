#include "mf/scene/node_3d.hpp"

namespace mf::scene {

void Node3D::set_position(Vec3 position) {
  position_ = position;
  local_changed();
}

void Node3D::set_rotation(Quat rotation) {
  rotation_ = normalize(rotation);
  local_changed();
}

void Node3D::set_scale(Vec3 scale) {
  scale_ = scale;
  local_changed();
}

void Node3D::local_changed() {
  local_stale_ = true;
  invalidate_global_transform(TransformSpace::ThreeD);
}

const Mat4& Node3D::transform() const {
  if (local_stale_) {
    // T × R × S without the products: R's columns scaled, the position as the last column.
    Mat4 m = rotation_.to_mat4();
    const float s[3] = {scale_.x, scale_.y, scale_.z};
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) m.at(r, c) *= s[c];
    m.at(0, 3) = position_.x;
    m.at(1, 3) = position_.y;
    m.at(2, 3) = position_.z;
    local_ = m;
    local_stale_ = false;
  }
  return local_;
}

void Node3D::set_transform(const Mat4& local) {
  Vec3 axes[3] = {local.column3(0), local.column3(1), local.column3(2)};
  float s[3] = {length(axes[0]), length(axes[1]), length(axes[2])};
  if (local.determinant3() < 0) s[0] = -s[0];
  Quat rotation;
  if (s[0] != 0 && s[1] != 0 && s[2] != 0) {
    Mat4 r;
    for (int c = 0; c < 3; ++c)
      for (int row = 0; row < 3; ++row) r.at(row, c) = local.at(row, c) / s[c];
    rotation = normalize(Quat::from_rotation_matrix(r));
  }
  position_ = local.column3(3);
  rotation_ = rotation;
  scale_ = {s[0], s[1], s[2]};
  local_changed();
}

Node3D* Node3D::parent_3d() const {
  for (Node* n = parent(); n; n = n->parent())
    if (auto* n3 = dynamic_cast<Node3D*>(n)) return n3;
  return nullptr;
}

const Mat4& Node3D::global_transform() const {
  if (global_stale_) {
    const Node3D* p = parent_3d();
    global_ = p ? p->global_transform() * transform() : transform();
    global_stale_ = false;
  }
  return global_;
}

void Node3D::set_global_transform(const Mat4& global) {
  const Node3D* p = parent_3d();
  set_transform(p ? p->global_transform().inverse() * global : global);
}

void Node3D::invalidate_global_transform(TransformSpace space) {
  if (static_cast<int>(space) & static_cast<int>(TransformSpace::ThreeD)) {
    // Every 3D descendant of a stale node is stale: nothing more to do when this one is.
    if (global_stale_ && space == TransformSpace::ThreeD) return;
    global_stale_ = true;
  }
  Node::invalidate_global_transform(space);
}

}  // namespace mf::scene
