#include "thrower.hpp"

#include <cmath>
#include <memory>

#include "projectile.hpp"
#include "prop_rigs.hpp"

namespace arena {

namespace {
constexpr float kHeroSpeed = 520;          // design px/s
constexpr float kSideSpeedLow = 300, kSideSpeedHigh = 420;
constexpr float kRadius = 4;               // design px
constexpr float kChest = 190;              // a walker's chest above its feet, skeleton px
}  // namespace

Thrower::Thrower(std::string name, ThrowSettings settings, Hero& hero, mf::scene::Skeleton2D& weapon, mf::scene::Node2D& container,
                 Random random)
    : Node(std::move(name)), settings_(std::move(settings)), hero_(&hero), weapon_(&weapon), container_(&container), random_(random) {}

mf::Vec2 Thrower::muzzle() const { return weapon_->skeleton_transform().apply(mf::Vec2{kWeaponTip, 0}); }

void Thrower::launch(mf::Vec2 from, mf::Vec2 velocity) {
  ++thrown_;
  auto ball = std::make_unique<Projectile>("ball_" + std::to_string(thrown_), from, velocity, kRadius * settings_.unit, settings_.arena);
  (void)container_->add_child(std::move(ball));
}

void Thrower::on_physics_process(float step) {
  const float unit = settings_.unit;
  hero_in_ -= step;
  if (hero_in_ <= 0 || requested_) {
    if (hero_in_ <= 0) hero_in_ += kHeroInterval;
    requested_ = false;
    const mf::Vec2 from = muzzle();
    float dx = hero_->aim().x - from.x, dy = hero_->aim().y - from.y;
    const float length = std::sqrt(dx * dx + dy * dy);
    if (length < 1e-3f) {
      dx = hero_->flip_h() ? -1.0f : 1.0f;
      dy = 0;
    } else {
      dx /= length;
      dy /= length;
    }
    launch(from, {dx * kHeroSpeed * unit, dy * kHeroSpeed * unit});
  }

  side_in_ -= step;
  if (side_in_ <= 0 && !settings_.lanes.empty()) {
    side_in_ += kSideInterval;
    const Lane& lane = settings_.lanes[static_cast<std::size_t>(random_.below(static_cast<int>(settings_.lanes.size())))];
    const float y = lane.ground - (kChest + random_.uniform(-30, 30)) * lane.scale;
    const float speed = random_.uniform(kSideSpeedLow, kSideSpeedHigh) * unit;
    const float width = settings_.arena.max_x - settings_.arena.min_x;
    // Up by as much as gravity pulls down over the crossing, so the arc comes back to y at the far side.
    const float rise = -0.5f * settings_.gravity * (width / speed);
    const float x = next_side_left_ ? settings_.arena.min_x : settings_.arena.max_x;
    launch({x, y}, {next_side_left_ ? speed : -speed, rise});
    next_side_left_ = !next_side_left_;
  }
}

}  // namespace arena
