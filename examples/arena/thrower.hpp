#pragma once
// Thrower: the node that throws the projectiles, in its physics step (bodies made then collide in
// the same step). The hero throws from the weapon's tip towards the aim every kHeroInterval seconds
// (and once more when asked: a click); balls also come in from the arena's left and right edges in
// turn, at a random lane's chest height, in an arc that would land them back at that height on the
// far side.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mf/core/math/bounds.hpp"
#include "mf/scene/node.hpp"
#include "mf/scene/node_2d.hpp"
#include "mf/scene/skeleton/skeleton_2d.hpp"
#include "hero.hpp"
#include "random.hpp"
#include "walker.hpp"

namespace arena {

struct ThrowSettings {
  mf::Bounds arena;        // the canvas
  float unit = 1;          // canvas pixels per design pixel (the arena's height / 320)
  float gravity = 240;     // px/s², canvas (already in units)
  std::vector<Lane> lanes; // where side throws aim
};

class Thrower : public mf::scene::Node {
 public:
  static constexpr float kHeroInterval = 0.45f;
  static constexpr float kSideInterval = 0.55f;

  // Projectiles become children of `container`; the hero throws from the tip of `weapon`.
  Thrower(std::string name, ThrowSettings settings, Hero& hero, mf::scene::Skeleton2D& weapon, mf::scene::Node2D& container,
          Random random);

  // One more throw from the hero at the next physics step.
  void request_throw() { requested_ = true; }
  // Projectiles thrown so far.
  std::uint64_t thrown() const { return thrown_; }
  // The weapon's tip on the canvas.
  mf::Vec2 muzzle() const;

 protected:
  void on_physics_process(float step) override;

 private:
  void launch(mf::Vec2 from, mf::Vec2 velocity);

  ThrowSettings settings_;
  Hero* hero_;
  mf::scene::Skeleton2D* weapon_;
  mf::scene::Node2D* container_;
  Random random_;
  float hero_in_ = 0.2f, side_in_ = 0.35f;
  bool next_side_left_ = true;
  bool requested_ = false;
  std::uint64_t thrown_ = 0;
};

}  // namespace arena
