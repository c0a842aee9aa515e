#pragma once
// Projectile: a dynamic circle (RigidBody2D) in the projectile layer, touching only the walkers'
// hitboxes (sensors, so it flies on through them unless a hit frees it). It frees itself once it
// leaves the arena or after a few seconds. spend() marks it used, so a ball touching two hitboxes in
// one step counts one hit.

#include <string>

#include "mf/core/math/bounds.hpp"
#include "mf/core/math/vec2.hpp"
#include "mf/scene/physics2d/rigid_body_2d.hpp"

namespace arena {

inline constexpr std::uint32_t kProjectileLayer = 0x1;
inline constexpr std::uint32_t kHitboxLayer = 0x2;

class Projectile : public mf::scene::RigidBody2D {
 public:
  // At `position` (canvas) moving at `velocity` (px/s); freed once outside `arena` grown by a margin.
  Projectile(std::string name, mf::Vec2 position, mf::Vec2 velocity, float radius, mf::Bounds arena);

  float radius() const { return radius_; }
  bool spent() const { return spent_; }
  // Marks it used and queues it for free (once).
  void spend();

 protected:
  void on_physics_process(float step) override;

 private:
  float radius_;
  mf::Bounds arena_;
  float age_ = 0;
  bool spent_ = false;
};

}  // namespace arena
