#pragma once
// Node3D: a node with a 3D transform: position, rotation (a unit quaternion) and scale.
//
// The local transform is the column-major Mat4 T × R × S (mf/core/math/mat4.hpp): scale first, then
// rotation, then translation. global_transform() = the nearest Node3D ancestor's global transform ×
// the local one; nodes of other kinds in between pass it through. Both are cached and marked stale
// the way Node2D's are.

#include "mf/core/math/mat4.hpp"
#include "mf/core/math/quat.hpp"
#include "mf/core/math/vec3.hpp"
#include "mf/scene/node.hpp"

namespace mf::scene {

class Node3D : public Node {
 public:
  using Node::Node;

  Vec3 position() const { return position_; }
  Quat rotation() const { return rotation_; }
  Vec3 scale() const { return scale_; }
  void set_position(Vec3 position);
  // Normalised here.
  void set_rotation(Quat rotation);
  void set_scale(Vec3 scale);

  // The local transform.
  const Mat4& transform() const;
  // Sets position, rotation and scale from `local`, assumed free of shear and projection: the
  // translation column gives the position, the lengths of the first three columns the scale (scale.x
  // negative when the transform mirrors), the columns divided by them the rotation. A transform with
  // shear comes back from transform() without it; a zero scale leaves the rotation at the identity.
  void set_transform(const Mat4& local);

  const Mat4& global_transform() const;
  // Sets the local transform so that the global one becomes `global` (decomposed as set_transform).
  void set_global_transform(const Mat4& global);

  // The nearest Node3D ancestor, or nullptr.
  Node3D* parent_3d() const;

 protected:
  void invalidate_global_transform(TransformSpace space) override;

 private:
  void local_changed();

  Vec3 position_{0, 0, 0};
  Quat rotation_;
  Vec3 scale_{1, 1, 1};
  mutable Mat4 local_;
  mutable Mat4 global_;
  mutable bool local_stale_ = true;
  mutable bool global_stale_ = true;
};

}  // namespace mf::scene
