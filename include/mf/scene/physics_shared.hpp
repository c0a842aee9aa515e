#pragma once
// The vocabulary the 2D and 3D physics worlds share (PhysicsWorld2D on Box2D, PhysicsWorld3D on
// Bullet): how a move reaches its target, the two kinds of contact event, and the width of collision
// layers and masks. Each world's header tells what they mean for its engine.

#include <cstdint>

namespace mf::scene {

// Collision filtering in both worlds: an object of layer A and one of layer B collide when
// (A.layer & B.mask) != 0 and (B.layer & A.mask) != 0. Box2D's category and mask bits are 16 bits; the
// 3D world keeps the same 16 so that one layer number means the same in both. The APIs take
// std::uint32_t so that a value with higher bits set is an error, not silently cut.
inline constexpr std::uint32_t kMaxCollisionBits = 0xFFFF;

enum class ContactKind { kBegin, kEnd };

// How set_transform moves a body.
enum class MoveMode {
  kTeleport,  // placed at once; it sweeps through nothing
  kVelocity,  // the next step() moves it to the target through that step, so the engine sees the
              // motion (dynamic bodies it pushes, contacts along the way), then stops it
};

}  // namespace mf::scene
