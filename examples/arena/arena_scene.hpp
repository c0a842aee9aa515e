#pragma once
// The arena's scene: what the window shows, as a tree on the scene host.
//
//   root
//   ├─ arena                 PhysicsSpace2D (Box2D, gravity down the screen)
//   │  ├─ walker_00 …        Walker (Skeleton2D, locomotion graph), back lanes first (drawn behind)
//   │  │  └─ hitboxes        SkeletonHitboxes2D: the rig's bounding boxes as sensors
//   │  ├─ hero               Hero (Skeleton2D): aims its arm at the mouse
//   │  │  └─ hand            BoneAttachment2D on hand_l
//   │  │     └─ weapon       Skeleton2D showing the sword rig made in code
//   │  ├─ projectiles        Node2D holding the Projectile bodies
//   │  └─ thrower            Thrower: spawns the projectiles
//   └─ outlines              DebugLines: hitboxes and projectiles, drawn last
//
// A hit: a walker's hitbox_entered names a projectile; the walker reacts, the projectile is spent.
// Footsteps: every walker's animation_event reaches footstep_hook (see there).

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "debug_lines.hpp"
#include "hero.hpp"
#include "mf/anim/animation_graph.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/scene/hitboxes/skeleton_hitboxes_2d.hpp"
#include "mf/scene/scene_tree.hpp"
#include "mf/scene/skeleton/skeleton_event.hpp"
#include "mf/scene/audio/audio_output.hpp"
#include "thrower.hpp"
#include "walker.hpp"

namespace arena {

struct ArenaSettings {
  int width = 960, height = 640;  // the canvas, pixels
  int crowd = 18;                 // walkers
  std::uint64_t seed = 1;
  std::string sound_folder;       // what the mannequin's event audio paths are relative to
  bool sound = true;              // open the audio device (when none opens, the arena runs silent)
};

struct ArenaStats {
  std::uint64_t hits = 0;
  std::uint64_t footsteps = 0;
};



class ArenaScene {
 public:
  // `mannequin` must have bounding boxes (the walkers' hitboxes) and the hero's arm bones; `graph`
  // the "speed" and "jump" parameters. Errors name what is missing.
  static mf::Expected<std::unique_ptr<ArenaScene>> create(const ArenaSettings& settings, std::shared_ptr<const mf::skel::SkeletonData> mannequin,
                                                          std::shared_ptr<const mf::anim::AnimationGraph> graph);

  mf::scene::SceneTree& tree() { return tree_; }
  // The mouse on the canvas: the hero aims there and throws there.
  void set_mouse(mf::Vec2 canvas) { hero_->set_aim(canvas); }
  void request_throw() { thrower_->request_throw(); }
  void set_outlines(bool shown) { outlines_shown_ = shown; }
  bool outlines() const { return outlines_shown_; }

  // One frame: the tree's tick (fixed physics steps inside), then the outlines of what it left.
  mf::Status advance(float delta);

  // The frame's lights (canvas pixels) and ambient: lamps drifting over the arena and a glow at the
  // weapon's tip.
  std::span<const mf::render::PointLight> lights() const { return lights_; }
  mf::render::Color ambient() const { return {0.42f, 0.44f, 0.52f, 1}; }

  const ArenaStats& stats() const { return stats_; }
  // Event sounds started (footsteps through the scene's AudioOutput), and why there is no sound when
  // the device did not open (empty when it did, or when sound was off).
  std::uint64_t sounds_played() const { return audio_->sounds_played(); }
  const std::string& audio_note() const { return audio_note_; }
  std::uint64_t thrown() const { return thrower_->thrown(); }
  int walker_count() const { return static_cast<int>(walkers_.size()); }
  std::uint64_t hits_of(int walker) const { return static_cast<std::uint64_t>(walkers_[static_cast<std::size_t>(walker)]->hits()); }

 private:
  explicit ArenaScene(const ArenaSettings& settings) : settings_(settings) {}
  mf::Status build(std::shared_ptr<const mf::skel::SkeletonData> mannequin, std::shared_ptr<const mf::anim::AnimationGraph> graph);
  void on_hit(Walker& walker, mf::scene::Node* other);
  // Where a walker's footstep event arrives; its sound is played by the AudioOutput above the walkers
  // (the EventAudioService), this counts them.
  void footstep_hook(Walker& walker, const mf::scene::SkeletonEvent& event);
  void update_outlines();
  void update_lights();

  ArenaSettings settings_;
  mf::scene::SceneTree tree_;
  mf::scene::AudioOutput* audio_ = nullptr;
  std::string audio_note_;
  std::vector<Walker*> walkers_;
  std::vector<mf::scene::SkeletonHitboxes2D*> hitboxes_;
  Hero* hero_ = nullptr;
  mf::scene::Skeleton2D* weapon_ = nullptr;
  Thrower* thrower_ = nullptr;
  mf::scene::Node2D* projectiles_ = nullptr;
  DebugLines* outlines_ = nullptr;
  bool outlines_shown_ = true;
  std::vector<mf::render::PointLight> lights_;
  ArenaStats stats_;
};

}  // namespace arena
