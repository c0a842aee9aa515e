#pragma once
// PhysicsWorld3D: a Bullet (2.x API of Bullet 3.24, single precision) discrete dynamics world behind
// the scene host's own types; the sibling of PhysicsWorld2D.
//
// Units and axes. Metres, kilograms, seconds, radians; right-handed with +Y up, like Mat4 and the
// forward renderer. The default gravity is (0, −9.81, 0) m/s². Bullet is tuned for objects of 0.05 to
// 10 m. There is no scale factor: a sprite's pixels become metres through its model matrix (make_prism
// takes that matrix).
//
// Bodies are named by generational handles: removing a body makes its handle stale (every call with a
// stale handle is an error; queries give zeros), and its slot is reused by a later body with a new
// generation. A body has one Shape3D, given when it is made.
//
// Body types:
//   kStatic     never moves by itself (set_transform teleports it); mass is infinite.
//   kKinematic  moved by set_transform only; pushes dynamic bodies, nothing pushes it.
//   kDynamic    moved by gravity, velocities and contacts; has `mass`.
//   kGhost      overlap only: reports contacts with everything its mask allows and never collides (no
//               body is pushed by it, it is pushed by none). A plain btCollisionObject with Bullet's
//               CF_NO_CONTACT_RESPONSE flag, so the world's own narrow phase finds its contacts with
//               the real shapes; Bullet's btPairCachingGhostObject would only give bounding-box
//               overlaps without a second narrow phase of ours. Moved by set_transform like a
//               kinematic body. What SkeletonHitboxes3D's areas are.
//
// Contacts. After each step the world's contact manifolds are read into a sorted set of touching
// pairs (persistent: its capacity is kept) and compared with the previous step's: pairs new to the set
// give begin events, pairs gone from it give end events. Within a step's list, end events come first,
// then begin events, each in order of (body_a, body_b), body_a being the body of the lower slot index.
// A pair begins touching when the shapes meet (its deepest contact point at distance ≤ 0, skins
// included) and stays touching while a point within kContactEndDistance is left, so a resting contact
// does not flicker. Bullet keeps a pair's points from step to step; the points of pairs its solver
// never pushes apart (a ghost with anything, kinematic with static or kinematic) are cleared before
// each step, since a stale point deep inside would outlive the overlap when one body slides through
// the other: theirs are the step's own. Unlike Box2D, Bullet makes contacts for every pair in which
// either object is awake: kinematic–kinematic, kinematic–static and ghost–anything pairs report
// contacts too; two static bodies never do. events() returns the list until the next step().
//
// Timing. Bullet finds contacts in the middle of a step: after gravity and forces predict the motion,
// before the solver and the integration move dynamic bodies. A kinematic body or a ghost moved by
// set_transform (either mode) is at its target when that step looks for contacts, so its contacts
// begin or end in that step's events; a dynamic body that moves in step N is seen where step N left it
// by step N + 1.
//
// Removing a body that touches others ends those contacts at once; their end events are kept and come
// first in the next step's list (the removed body's handle is stale by then; user_a / user_b tell what
// it was).
//
// Changing the world during step() is an error: add_body, remove_body, set_transform, set_hull_points,
// set_collision and set_linear_velocity return one while a step runs. (The world calls no code of the
// caller's inside a step today; the rule is the sibling's, so that a later callback cannot break it.)
//
// Allocation. Once warm, step() allocates nothing of ours: the event lists, the pair sets and the
// list of pending moves keep their capacity (reserved at creation; they grow only past the largest
// count seen). Bullet allocates through its own btAlignedAlloc (malloc); its arrays, pair caches and
// manifold pools keep their memory too. scene_physics3d_allocation_tests counts both, the global
// operator new and btAlignedAlloc, over 1000 warm steps: zero.
//
// Contact generation: Bullet's multipoint iterations are on for convex pairs and convex shapes on
// planes (several points per step, not one), so that a box lands flat and rests without rocking.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/core/math/quat.hpp"
#include "mf/core/math/vec3.hpp"
#include "mf/scene/physics3d/shape_3d.hpp"
#include "mf/scene/physics_shared.hpp"

namespace mf::scene {

enum class BodyType3D { kStatic, kKinematic, kDynamic, kGhost };

struct BodyHandle3D {
  std::uint32_t index = 0;
  std::uint32_t generation = 0;  // 0 is never used: a default handle is invalid
  friend constexpr bool operator==(const BodyHandle3D&, const BodyHandle3D&) = default;
};

struct PhysicsWorld3DDesc {
  Vec3 gravity{0, -9.81f, 0};  // m/s², Y up
  int solver_iterations = 10;  // Bullet's sequential impulse iterations
  std::size_t event_capacity = 256;  // reserved for each step's contact events
  std::size_t pair_capacity = 256;   // reserved for the touching pairs of a step
};

struct BodyDesc3D {
  BodyType3D type = BodyType3D::kStatic;
  Vec3 position;                // m
  Quat rotation;                // unit (normalised when the body is made)
  Vec3 linear_velocity;         // m/s (dynamic)
  Vec3 angular_velocity;        // radians/s about each axis (dynamic)
  float mass = 1;               // kg, dynamic bodies only: positive
  float gravity_scale = 1;      // dynamic
  float friction = 0.5f;
  float restitution = 0;
  float linear_damping = 0;     // dynamic: 0 to 1, the fraction of velocity lost per second
  float angular_damping = 0;
  std::uint32_t layer = 1;          // collision filter group (16 bits: kMaxCollisionBits)
  std::uint32_t mask = 0xFFFF;      // the layers it touches
  std::uintptr_t user_data = 0;     // returned in contact events
};

struct ContactEvent3D {
  ContactKind kind = ContactKind::kBegin;
  BodyHandle3D body_a, body_b;             // body_a has the lower slot index
  std::uintptr_t user_a = 0, user_b = 0;   // the bodies' user data
  bool ghost = false;                      // either body is a ghost
};

// An axis-aligned box in world space (metres).
struct Aabb3D {
  Vec3 min, max;
};

class PhysicsWorld3D {
 public:
  // A touching pair ends when its shapes are more than this far apart (metres).
  static constexpr float kContactEndDistance = 0.01f;
  // A dynamic body's turn by kVelocity longer than this in one step teleports instead: Bullet clamps
  // a step's rotation to a quarter turn.
  static constexpr float kMaxVelocityTurn = 0.99f * 1.5707963f;

  static Expected<std::unique_ptr<PhysicsWorld3D>> create(const PhysicsWorld3DDesc& desc = {});
  ~PhysicsWorld3D();
  PhysicsWorld3D(const PhysicsWorld3D&) = delete;
  PhysicsWorld3D& operator=(const PhysicsWorld3D&) = delete;

  Status set_gravity(Vec3 gravity);  // m/s², finite; dynamic bodies get gravity × their gravity_scale
  Vec3 gravity() const;

  // Advances the world by dt seconds (positive and finite) in one Bullet step (no substeps: the
  // scene tree's fixed physics step is the step). The contact events of this step replace the
  // previous step's.
  Status step(float dt);
  std::span<const ContactEvent3D> events() const { return events_; }

  // Errors: a shape that is not valid (shape_3d.hpp), a plane on a body that is not static, a dynamic
  // body without a positive mass, collision bits above 16, a value that is not finite, a step running.
  Expected<BodyHandle3D> add_body(const BodyDesc3D& desc, const Shape3D& shape);
  Status remove_body(BodyHandle3D body);
  bool valid(BodyHandle3D body) const;
  std::size_t body_count() const;

  // Replaces the points of a convex hull body's shape by as many new ones (in the body's frame), in
  // place and without allocating: for hitboxes whose polygon is skinned every frame. Errors: not a
  // hull, another count of points, points not finite. (The points are not checked for flatness
  // here; make_prism's are never flat.)
  Status set_hull_points(BodyHandle3D body, std::span<const Vec3> points);

  // The body's collision filter group (layer) and mask. Bullet keeps a pair once found, so the body
  // leaves and re-enters the broad phase: pairs the new filter forbids end in the next step's events.
  Status set_collision(BodyHandle3D body, std::uint32_t layer, std::uint32_t mask);

  // kTeleport: placed at once (a kinematic body gets no velocity from it; a dynamic body keeps its
  //            velocities and wakes up).
  // kVelocity: kinematic bodies and ghosts are placed at the target when the next step() begins, and
  //            Bullet gives a kinematic body the velocity of that move (dynamic bodies it meets are
  //            pushed along); dynamic bodies get, for the next step, the linear and angular velocities
  //            that reach the target in it (the shorter way round), then are stopped; gravity and
  //            damping still act in that step (give a hitbox body gravity_scale 0); a turn longer
  //            than kMaxVelocityTurn teleports instead. Static bodies cannot move by velocity.
  Status set_transform(BodyHandle3D body, Vec3 position, Quat rotation, MoveMode mode = MoveMode::kTeleport);
  Status set_linear_velocity(BodyHandle3D body, Vec3 velocity);  // dynamic bodies

  // Queries; a stale handle gives zeros (an identity rotation, an empty box at the origin).
  Vec3 position(BodyHandle3D body) const;
  Quat rotation(BodyHandle3D body) const;
  Vec3 linear_velocity(BodyHandle3D body) const;
  Vec3 angular_velocity(BodyHandle3D body) const;
  bool awake(BodyHandle3D body) const;
  // The world-space box around the body's shape as it collides (a hull's margin included); a plane's
  // is unbounded (±infinity) along every axis it is not perpendicular to.
  Aabb3D bounds(BodyHandle3D body) const;

 private:
  struct Impl;  // the Bullet world, its parts, the body slots and the pair sets
  explicit PhysicsWorld3D(const PhysicsWorld3DDesc& desc);

  std::unique_ptr<Impl> impl_;
  std::vector<ContactEvent3D> events_;
};

}  // namespace mf::scene
