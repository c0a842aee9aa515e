#pragma once
// PhysicsWorld2D: a Box2D (2.4) world behind the scene host's own types.
//
// Units. Box2D works in metres, kilograms and seconds, and is tuned for objects of 0.1 to 10 m. This
// API takes pixels of the 2D canvas (the skeleton's units) and divides by `pixels_per_metre` (default
// 100) on the way in, multiplying on the way out: positions, sizes, velocities (px/s) and gravity
// (px/s²). Angles are radians in both. There is no axis flip: the world uses the canvas's Y-down axes
// as they are, so the default gravity (0, 980) px/s² pulls towards +Y (down on the screen) at 9.8 m/s².
// Polygons must wind counter-clockwise in the Y-up sense (positive signed area), which is what
// convex_pieces returns; on a Y-down screen they look clockwise.
//
// Bodies are named by generational handles: removing a body makes its handle stale (every call with a
// stale handle is an error), and its slot is reused by a later body with a new generation.
//
// Contacts. step() gathers Box2D's begin and end contact events, as they happen inside b2World::Step,
// into a list that events() returns until the next step(); the host emits its signals from it after the
// step (SceneTree delivers deferred signals after each physics step). Removing a body that touches others
// ends those contacts at once; their end events are kept and come first in the next step's list (the
// removed body's handle is stale by then; the fixtures' user data tell what they were).
//
// Changing the world inside step() (from a contact callback) is not possible in Box2D: add_body,
// remove_body, the fixture calls, set_transform and set_collision return an error while a step runs.
//
// Allocation. Once warm, step() allocates nothing of ours: the event lists and the list of kinematic
// targets keep their capacity (reserved at construction; they grow only past the largest count seen).
// Box2D allocates contacts and its broad-phase nodes from its own block and stack allocators, which
// keep their memory too.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/core/math/vec2.hpp"
#include "mf/scene/physics2d/convex_pieces.hpp"
#include "mf/scene/physics_shared.hpp"

namespace mf::scene {

enum class BodyType { kStatic, kKinematic, kDynamic };

struct BodyHandle {
  std::uint32_t index = 0;
  std::uint32_t generation = 0;  // 0 is never used: a default handle is invalid
  friend constexpr bool operator==(const BodyHandle&, const BodyHandle&) = default;
};

struct PhysicsWorld2DDesc {
  Vec2 gravity{0, 980};          // px/s²
  float pixels_per_metre = 100;  // positive
  int velocity_iterations = 8;
  int position_iterations = 3;
  std::size_t event_capacity = 256;  // reserved for each step's contact events
};

struct BodyDesc {
  BodyType type = BodyType::kStatic;
  Vec2 position;                 // px
  float angle = 0;               // radians
  Vec2 linear_velocity;          // px/s
  float angular_velocity = 0;    // radians/s
  float gravity_scale = 1;
  bool fixed_rotation = false;
  bool bullet = false;           // continuous collision against dynamic bodies too
};

// Box2D's collision filter: a fixture of category (layer) A and one of category B collide when
// (A.category & B.mask) != 0 and (B.category & A.mask) != 0. Both are 16 bits in Box2D
// (kMaxCollisionBits, physics_shared.hpp); a value with higher bits set is an error.
struct FixtureDesc {
  float density = 1;       // kg/m² (dynamic bodies get their mass from it)
  float friction = 0.2f;
  float restitution = 0;
  bool sensor = false;     // reports contacts, never collides
  std::uint32_t layer = 1;          // category bits
  std::uint32_t mask = 0xFFFF;      // the categories it touches
  std::uintptr_t user_data = 0;     // returned in contact events
};

struct ContactEvent {
  ContactKind kind = ContactKind::kBegin;
  BodyHandle body_a, body_b;
  std::uintptr_t fixture_a = 0, fixture_b = 0;  // the fixtures' user data
  bool sensor = false;                          // either fixture is a sensor
};

// set_transform's MoveMode (physics_shared.hpp) in Box2D:
//   kTeleport: placed at once; it sweeps through nothing and wakes up.
//   kVelocity: kinematic or dynamic: the next step() gives it the velocities that reach the target in
//              that step (angles are not wrapped: the body turns by target − current), then stops it.
//              A move longer than Box2D's limit per step (2 m, or a quarter turn) teleports instead.

class PhysicsWorld2D {
 public:
  // Box2D's limits, in Box2D's units.
  static constexpr int kMaxPolygonVertices = 8;     // b2_maxPolygonVertices
  static constexpr float kLinearSlopMetres = 0.005f;  // b2_linearSlop

  static Expected<std::unique_ptr<PhysicsWorld2D>> create(const PhysicsWorld2DDesc& desc = {});
  ~PhysicsWorld2D();
  PhysicsWorld2D(const PhysicsWorld2D&) = delete;
  PhysicsWorld2D& operator=(const PhysicsWorld2D&) = delete;

  float pixels_per_metre() const { return pixels_per_metre_; }
  float to_metres(float pixels) const { return pixels / pixels_per_metre_; }
  float to_pixels(float metres) const { return metres * pixels_per_metre_; }
  Vec2 to_metres(Vec2 pixels) const { return pixels / pixels_per_metre_; }
  Vec2 to_pixels(Vec2 metres) const { return metres * pixels_per_metre_; }

  // The tolerances convex_pieces must meet for Box2D, in pixels: no two points of a piece closer than
  // b2_linearSlop, and an area of at least b2_linearSlop².
  ConvexPiecesOptions piece_options(int max_vertices = kMaxPolygonVertices) const;

  void set_gravity(Vec2 gravity_px);
  Vec2 gravity() const;

  // Advances the world by dt seconds (positive and finite). The contact events of this step replace
  // the previous step's.
  Status step(float dt);
  std::span<const ContactEvent> events() const { return events_; }

  Expected<BodyHandle> add_body(const BodyDesc& desc);
  Status remove_body(BodyHandle body);
  bool valid(BodyHandle body) const;
  std::size_t body_count() const;

  // Polygon fixtures in the body's frame (px): 3 to 8 points, convex, counter-clockwise (Y up), no two
  // points closer than b2_linearSlop. add_polygons adds each of convex_pieces' output.
  Status add_polygon(BodyHandle body, std::span<const Vec2> points, const FixtureDesc& fixture);
  Status add_polygons(BodyHandle body, std::span<const std::vector<Vec2>> pieces, const FixtureDesc& fixture);
  // Replaces the points of the body's polygon fixture number `fixture` (in the order fixtures were
  // added, from 0), with the same checks as add_polygon; the body's mass is recomputed. For shapes that
  // follow a deforming outline; allocates nothing.
  Status set_polygon(BodyHandle body, int fixture, std::span<const Vec2> points);
  // Whether add_polygon and set_polygon would take these points; allocates nothing.
  bool fits_polygon(std::span<const Vec2> points) const;
  Status add_circle(BodyHandle body, Vec2 centre, float radius, const FixtureDesc& fixture);
  Status add_box(BodyHandle body, Vec2 half_size, const FixtureDesc& fixture, Vec2 centre = {}, float angle = 0);

  // Category and mask of every fixture of the body (and of those added later keep their own desc).
  Status set_collision(BodyHandle body, std::uint32_t layer, std::uint32_t mask);

  // A disabled body takes no part in the simulation: no contacts (those it had end at once, their end
  // events opening the next step's list), no motion. Bodies start enabled.
  Status set_enabled(BodyHandle body, bool enabled);
  bool enabled(BodyHandle body) const;

  Status set_transform(BodyHandle body, Vec2 position_px, float angle, MoveMode mode = MoveMode::kTeleport);
  Status set_linear_velocity(BodyHandle body, Vec2 velocity_px);

  // Queries; a stale handle gives zeros.
  Vec2 position(BodyHandle body) const;          // px
  float angle(BodyHandle body) const;            // radians
  Vec2 linear_velocity(BodyHandle body) const;   // px/s
  bool awake(BodyHandle body) const;

 private:
  struct Impl;  // the b2World, its contact listener and the body slots
  explicit PhysicsWorld2D(const PhysicsWorld2DDesc& desc);

  std::unique_ptr<Impl> impl_;
  float pixels_per_metre_ = 100;
  std::vector<ContactEvent> events_;
};

}  // namespace mf::scene
