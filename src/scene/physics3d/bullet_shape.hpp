#pragma once
// Shape3D → Bullet collision shape: the checks a shape description must pass (so that Bullet never
// sees a shape it would mishandle without a word) and the shape itself. Private to the 3D world.

#include <btBulletCollisionCommon.h>

#include <memory>
#include <string>

#include "mf/core/expected.hpp"
#include "mf/scene/physics3d/shape_3d.hpp"

namespace mf::scene {

// The shape's own errors, naming the shape kind, the value and the rule it breaks.
Status check_shape(const Shape3D& shape);

// A Bullet shape for a shape that passed check_shape.
std::unique_ptr<btCollisionShape> make_bullet_shape(const Shape3D& shape);

const char* shape_name(ShapeKind3D kind);

}  // namespace mf::scene
