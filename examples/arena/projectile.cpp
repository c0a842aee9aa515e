#include "projectile.hpp"

namespace arena {

namespace {
constexpr float kLifetime = 6;  // seconds
}

Projectile::Projectile(std::string name, mf::Vec2 position, mf::Vec2 velocity, float radius, mf::Bounds arena)
    : RigidBody2D(std::move(name), mf::scene::BodyType::kDynamic), radius_(radius), arena_(arena) {
  mf::scene::BodyShape2D circle;
  circle.kind = mf::scene::BodyShape2D::Kind::Circle;
  circle.radius = radius;
  circle.fixture.layer = kProjectileLayer;
  circle.fixture.mask = kHitboxLayer;
  add_shape(std::move(circle));
  set_position(position);
  set_linear_velocity(velocity);
  set_bullet(true);
}

void Projectile::spend() {
  if (spent_) return;
  spent_ = true;
  (void)queue_free();
}

void Projectile::on_physics_process(float step) {
  age_ += step;
  const mf::Vec2 p = position();
  const float margin = 4 * radius_;
  if (age_ > kLifetime || p.x < arena_.min_x - margin || p.x > arena_.max_x + margin || p.y > arena_.max_y + margin) spend();
  RigidBody2D::on_physics_process(step);
}

}  // namespace arena
