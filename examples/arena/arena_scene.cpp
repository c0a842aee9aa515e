#include "arena_scene.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "mf/scene/physics2d/physics_space_2d.hpp"
#include "mf/scene/skeleton/bone_attachment_2d.hpp"
#include "projectile.hpp"
#include "prop_rigs.hpp"

namespace arena {

namespace {

using mf::Vec2;
namespace scene = mf::scene;

// The arena is laid out for a canvas 320 pixels high and scaled to the real one ("design" pixels).
constexpr float kDesignHeight = 320;
// Lanes, back to front: feet at a fraction of the height, nearer ones larger.
constexpr std::array<float, 4> kLaneGround{0.47f, 0.62f, 0.77f, 0.93f};
constexpr std::array<float, 4> kLaneScale{0.26f, 0.31f, 0.36f, 0.41f};
constexpr float kHeroScale = 0.46f, kHeroGround = 0.955f, kHeroX = 0.16f;
constexpr float kGravity = 240;          // design px/s²
constexpr float kPixelsPerMetre = 40;    // design px: a walker is 2 to 3.5 m tall, a ball 0.1 m across
constexpr float kLineWidth = 1.5f;       // design px
// Outline colours: the editor's bounding-box green, projectiles orange.
constexpr mf::Rgba8 kHitboxColour{96, 240, 0, 255}, kProjectileColour{255, 160, 40, 255};
constexpr int kMaxProjectiles = 48, kCircleSegments = 10;

mf::Unexpected fail(std::string message) { return mf::Unexpected{mf::Error{{}, {}, {}, std::move(message)}}; }

int bounding_box_points(const mf::skel::SkeletonData& data) {
  int points = 0;
  for (const auto& a : data.attachments)
    if (a.kind == mf::skel::AttachmentKind::BoundingBox) points += static_cast<int>(a.vertex_count);
  return points;
}

}  // namespace

mf::Expected<std::unique_ptr<ArenaScene>> ArenaScene::create(const ArenaSettings& settings, std::shared_ptr<const mf::skel::SkeletonData> mannequin,
                                                             std::shared_ptr<const mf::anim::AnimationGraph> graph) {
  std::unique_ptr<ArenaScene> self(new ArenaScene(settings));
  if (mf::Status s = self->build(std::move(mannequin), std::move(graph)); !s) return mf::Unexpected{s.error()};
  return self;
}

mf::Status ArenaScene::build(std::shared_ptr<const mf::skel::SkeletonData> mannequin, std::shared_ptr<const mf::anim::AnimationGraph> graph) {
  const float width = static_cast<float>(settings_.width), height = static_cast<float>(settings_.height);
  const float unit = height / kDesignHeight;
  const int box_points = bounding_box_points(*mannequin);
  if (box_points == 0) return fail(mannequin->name + ": the rig has no bounding boxes for the walkers' hitboxes");
  Random random(settings_.seed);

  mf::scene::PhysicsWorld2DDesc desc;
  desc.gravity = {0, kGravity * unit};
  desc.pixels_per_metre = kPixelsPerMetre * unit;
  // The audio node above everything: the walkers below it play their footsteps through it.
  auto audio = tree_.root().make_child<scene::AudioOutput>("audio");
  if (!audio) return mf::Unexpected{audio.error()};
  audio_ = *audio;
  audio_->set_sound_folder(settings_.sound_folder);
  if (mf::Status s = audio_->preload(*mannequin); !s) return s;
  if (settings_.sound) {
    if (mf::Status s = audio_->open_device(); !s) audio_note_ = s.error().to_string();
  }

  auto space = scene::PhysicsSpace2D::create("arena", desc);
  if (!space) return mf::Unexpected{space.error()};
  auto added_space = audio_->add_child(std::move(*space));
  if (!added_space) return mf::Unexpected{added_space.error()};
  scene::PhysicsSpace2D& arena = **added_space;

  // Lanes and the crowd: walker i on lane i mod 4 at a random place; the tree holds them back lane
  // first, so nearer walkers are drawn over farther ones.
  std::vector<Lane> lanes;
  for (std::size_t i = 0; i < kLaneGround.size(); ++i) lanes.push_back({kLaneGround[i] * height, kLaneScale[i] * unit});
  struct Placed {
    int lane;
    float x;
    bool left;
    Random random;
  };
  std::vector<Placed> placed;
  for (int i = 0; i < settings_.crowd; ++i) {
    const int lane = i % static_cast<int>(lanes.size());
    const float x = random.uniform(0.08f, 0.92f) * width;
    const bool left = random.unit() < 0.5f;
    placed.push_back({lane, x, left, random.split()});
  }
  std::stable_sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) { return a.lane < b.lane; });

  char name[32];
  for (std::size_t i = 0; i < placed.size(); ++i) {
    std::snprintf(name, sizeof name, "walker_%02zu", i);
    const Placed& p = placed[i];
    auto walker = std::make_unique<Walker>(name, lanes[static_cast<std::size_t>(p.lane)], 0.05f * width, 0.95f * width, p.x, p.left, p.random);
    if (mf::Status s = walker->bind(mannequin, graph); !s) return fail(std::string(name) + ": " + s.error().to_string());
    auto added = arena.add_child(std::move(walker));
    if (!added) return mf::Unexpected{added.error()};
    Walker* w = *added;
    auto hitboxes = std::make_unique<scene::SkeletonHitboxes2D>("hitboxes");
    if (mf::Status s = hitboxes->set_collision_layer(kHitboxLayer); !s) return s;
    if (mf::Status s = hitboxes->set_collision_mask(kProjectileLayer); !s) return s;
    auto h = w->add_child(std::move(hitboxes));
    if (!h) return mf::Unexpected{h.error()};
    if (!(*h)->build_error().empty()) return fail((*h)->build_error());
    (*h)->hitbox_entered.connect([this, w](scene::SkeletonHitboxes2D*, const std::string*, scene::Node* other) { on_hit(*w, other); });
    w->animation_event.connect([this, w](scene::Skeleton2D*, const scene::SkeletonEvent& event) {
      if (*event.name == "footstep") footstep_hook(*w, event);
    });
    walkers_.push_back(w);
    hitboxes_.push_back(*h);
  }

  // The hero, its hand and weapon.
  auto hero = std::make_unique<Hero>("hero", Lane{kHeroGround * height, kHeroScale * unit}, kHeroX * width);
  if (mf::Status s = hero->bind(mannequin, graph); !s) return fail("hero: " + s.error().to_string());
  auto added_hero = arena.add_child(std::move(hero));
  if (!added_hero) return mf::Unexpected{added_hero.error()};
  hero_ = *added_hero;
  auto hand = hero_->make_child<scene::BoneAttachment2D>("hand", Hero::kHand);
  if (!hand) return mf::Unexpected{hand.error()};
  auto weapon_data = make_weapon_rig();
  if (!weapon_data) return mf::Unexpected{weapon_data.error()};
  auto weapon = std::make_unique<scene::Skeleton2D>("weapon");
  if (mf::Status s = weapon->set_data(std::move(*weapon_data)); !s) return s;
  // The grip sits in the palm: the hand's image is centred 12 px along its bone.
  weapon->set_position({14, 0});
  auto added_weapon = (*hand)->add_child(std::move(weapon));
  if (!added_weapon) return mf::Unexpected{added_weapon.error()};
  weapon_ = *added_weapon;

  auto projectiles = arena.make_child<scene::Node2D>("projectiles");
  if (!projectiles) return mf::Unexpected{projectiles.error()};
  projectiles_ = *projectiles;

  ThrowSettings throws{{0, 0, width, height}, unit, kGravity * unit, lanes};
  auto thrower = std::make_unique<Thrower>("thrower", std::move(throws), *hero_, *weapon_, *projectiles_, random.split());
  thrower_ = thrower.get();
  // After the walkers in the tree: it makes no difference, since the space steps after every node's
  // physics step, so a ball thrown now flies in this step.
  auto added_thrower = arena.add_child(std::move(thrower));
  if (!added_thrower) return mf::Unexpected{added_thrower.error()};

  // Outlines over everything: every hitbox point may be an edge, projectiles are circles.
  auto outlines = DebugLines::create("outlines", {{"hitbox", kHitboxColour, box_points * settings_.crowd},
                                                  {"projectile", kProjectileColour, kMaxProjectiles * kCircleSegments}});
  if (!outlines) return mf::Unexpected{outlines.error()};
  auto added_outlines = tree_.root().add_child(std::move(*outlines));
  if (!added_outlines) return mf::Unexpected{added_outlines.error()};
  outlines_ = *added_outlines;

  lights_.resize(4);
  update_lights();
  update_outlines();
  return outlines_->commit();
}

void ArenaScene::on_hit(Walker& walker, scene::Node* other) {
  auto* ball = dynamic_cast<Projectile*>(other);
  if (!ball || ball->spent()) return;
  ball->spend();
  walker.hit();
  ++stats_.hits;
}

void ArenaScene::footstep_hook(Walker&, const scene::SkeletonEvent&) { ++stats_.footsteps; }

mf::Status ArenaScene::advance(float delta) {
  tree_.advance(delta);
  update_lights();
  update_outlines();
  return outlines_->commit();
}

void ArenaScene::update_outlines() {
  outlines_->clear();
  if (!outlines_shown_) return;
  const float unit = static_cast<float>(settings_.height) / kDesignHeight;
  for (const scene::SkeletonHitboxes2D* h : hitboxes_)
    for (const auto& box : h->hitboxes())
      if (box.active) outlines_->add_polygon(0, box.canvas, kLineWidth * unit);
  for (std::size_t i = 0; i < projectiles_->child_count(); ++i) {
    const auto* ball = dynamic_cast<const Projectile*>(projectiles_->child(i));
    if (ball && !ball->is_queued_for_free()) outlines_->add_circle(1, ball->position(), ball->radius(), kCircleSegments, kLineWidth * unit);
  }
}

void ArenaScene::update_lights() {
  const float width = static_cast<float>(settings_.width), height = static_cast<float>(settings_.height);
  const float unit = height / kDesignHeight;
  const float t = static_cast<float>(tree_.stats().physics_time);
  auto lamp = [&](float x, float y, mf::render::Color colour, float energy) {
    return mf::render::PointLight{x, y, 70 * unit, 300 * unit, energy, colour};
  };
  lights_[0] = lamp(width * (0.5f + 0.4f * std::sin(0.31f * t)), height * 0.38f, {1.0f, 0.78f, 0.5f, 1}, 1.0f);
  lights_[1] = lamp(width * (0.5f + 0.42f * std::sin(0.23f * t + 2.1f)), height * 0.72f, {0.5f, 0.68f, 1.0f, 1}, 0.9f);
  lights_[2] = lamp(width * (0.5f + 0.38f * std::sin(0.17f * t + 4.0f)), height * 0.55f, {0.95f, 0.45f, 0.8f, 1}, 0.6f);
  const Vec2 tip = thrower_->muzzle();
  lights_[3] = mf::render::PointLight{tip.x, tip.y, 24 * unit, 90 * unit, 0.9f, {1.0f, 0.92f, 0.65f, 1}};
}

}  // namespace arena
