// PhysicsWorld3D over btDiscreteDynamicsWorld. Bullet stays inside this folder: the header speaks
// metres, Vec3, Quat and handles.

#include "mf/scene/physics3d/physics_world_3d.hpp"

#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>

#include "bullet_shape.hpp"
#include "contact_pair_set.hpp"

namespace mf::scene {

static_assert(sizeof(btScalar) == sizeof(float), "Bullet is used in single precision (pkg-config bullet)");

namespace {

Unexpected fail(std::string message) { return Unexpected{Error{.message = std::move(message)}}; }

std::string hex(std::uint32_t v) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%X", v);
  return text;
}

std::string name(BodyHandle3D body) { return "body " + std::to_string(body.index); }

Status check_bits(const char* what, std::uint32_t value) {
  if (value <= kMaxCollisionBits) return {};
  return fail(std::string("collision ") + what + " " + hex(value) +
              " has bits above bit 15 set: layers and masks are 16 bits (0x0 to 0xFFFF), as in the 2D world");
}

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
bool finite(Quat q) { return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w); }

btVector3 bt(Vec3 v) { return {v.x, v.y, v.z}; }
btQuaternion bt(Quat q) { return {q.x, q.y, q.z, q.w}; }
Vec3 mf_vec(const btVector3& v) { return {v.x(), v.y(), v.z()}; }
Quat mf_quat(const btQuaternion& q) { return {q.x(), q.y(), q.z(), q.w()}; }

const char* type_name(BodyType3D type) {
  switch (type) {
    case BodyType3D::kStatic: return "static";
    case BodyType3D::kKinematic: return "kinematic";
    case BodyType3D::kDynamic: return "dynamic";
    case BodyType3D::kGhost: return "ghost";
  }
  return "unknown";
}

struct BodySlot {
  std::unique_ptr<btCollisionShape> shape;
  std::unique_ptr<btCollisionObject> object;  // a btRigidBody, or a plain btCollisionObject for a ghost
                                              // (declared after its shape: it goes first)
  std::uint32_t generation = 0;
  BodyType3D type = BodyType3D::kStatic;
  ShapeKind3D shape_kind = ShapeKind3D::kBox;
  std::uintptr_t user_data = 0;
  float mass = 0;
  float gravity_scale = 1;
  std::uint32_t layer = 1, mask = kMaxCollisionBits;
  bool has_target = false;  // a kVelocity move waits for the next step
  btTransform target = btTransform::getIdentity();

  btRigidBody* rigid() const { return btRigidBody::upcast(object.get()); }
};

}  // namespace

struct PhysicsWorld3D::Impl {
  explicit Impl(const PhysicsWorld3DDesc& desc)
      : dispatcher(&configuration), world(&dispatcher, &broadphase, &solver, &configuration), gravity(desc.gravity) {
    // Several contact points per step for convex pairs and convex shapes on planes, not one: a box
    // lands flat and rests without rocking.
    configuration.setConvexConvexMultipointIterations();
    configuration.setPlaneConvexMultipointIterations();
    world.setGravity(bt(desc.gravity));
    world.getSolverInfo().m_numIterations = desc.solver_iterations;
  }

  ~Impl() {
    for (BodySlot& s : slots) {
      if (s.object) world.removeCollisionObject(s.object.get());
    }
  }

  BodySlot* slot(BodyHandle3D handle) {
    if (handle.index >= slots.size()) return nullptr;
    BodySlot& s = slots[handle.index];
    return s.object && s.generation == handle.generation ? &s : nullptr;
  }
  const BodySlot* slot(BodyHandle3D handle) const { return const_cast<Impl*>(this)->slot(handle); }

  BodyHandle3D handle_of(const btCollisionObject* object) const {
    const auto index = static_cast<std::uint32_t>(object->getUserIndex());
    return {index, slots[index].generation};
  }

  // Into the world with the slot's filter; Bullet's defaults for each type are replaced by it.
  void add_to_world(BodySlot& s) {
    const int group = static_cast<int>(s.layer), mask = static_cast<int>(s.mask);
    if (btRigidBody* body = s.rigid()) {
      world.addRigidBody(body, group, mask);
      if (s.type == BodyType3D::kDynamic) body->setGravity(bt(gravity * s.gravity_scale));
      // Kinematic bodies never sleep, so that Bullet derives their velocity from every move.
      if (s.type == BodyType3D::kKinematic) body->forceActivationState(DISABLE_DEACTIVATION);
    } else {
      world.addCollisionObject(s.object.get(), group, mask);
      s.object->forceActivationState(DISABLE_DEACTIVATION);
    }
  }

  // Bullet keeps a pair's contact points from step to step and drops one only when it drifts apart
  // along or across its normal; a point of a pair that the solver never pushes apart (a ghost, or
  // kinematic and static bodies) can stay deep inside while the bodies slide through and out of each
  // other. Those pairs start each step with no points, so that their points are this step's alone.
  // (Pairs the solver answers keep theirs: it warm-starts from them.)
  void forget_unanswered_contacts() {
    const int manifolds = dispatcher.getNumManifolds();
    for (int i = 0; i < manifolds; ++i) {
      btPersistentManifold* m = dispatcher.getManifoldByIndexInternal(i);
      if (m->getNumContacts() > 0 && !dispatcher.needsResponse(m->getBody0(), m->getBody1())) m->clearManifold();
    }
  }

  // Reads the contact manifolds into this step's touching pairs.
  void gather_pairs() {
    pairs.begin_step();
    const int manifolds = dispatcher.getNumManifolds();
    for (int i = 0; i < manifolds; ++i) {
      const btPersistentManifold* m = dispatcher.getManifoldByIndexInternal(i);
      const int points = m->getNumContacts();
      if (points == 0) continue;
      float deepest = std::numeric_limits<float>::infinity();
      for (int p = 0; p < points; ++p) deepest = std::min(deepest, m->getContactPoint(p).getDistance());
      BodyHandle3D a = handle_of(m->getBody0()), b = handle_of(m->getBody1());
      if (a.index == b.index) continue;
      if (b.index < a.index) std::swap(a, b);
      const bool touching =
          deepest <= 0 || (deepest <= PhysicsWorld3D::kContactEndDistance && pairs.was_touching(a, b));
      if (!touching) continue;
      const BodySlot& sa = slots[a.index];
      const BodySlot& sb = slots[b.index];
      pairs.add({.a = a,
                 .b = b,
                 .user_a = sa.user_data,
                 .user_b = sb.user_data,
                 .ghost = sa.type == BodyType3D::kGhost || sb.type == BodyType3D::kGhost});
    }
  }

  // Bullet's parts, in the order they must be made (and the reverse of the order they must go).
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher;
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btDiscreteDynamicsWorld world;

  std::vector<ContactEvent3D> pending_events;  // ends of removed bodies, for the next step's list
  ContactPairSet pairs;
  std::vector<BodySlot> slots;
  std::vector<std::uint32_t> free_slots;
  std::vector<std::uint32_t> targets;  // slots with has_target
  std::size_t live_bodies = 0;
  Vec3 gravity;
  bool stepping = false;
};

Expected<std::unique_ptr<PhysicsWorld3D>> PhysicsWorld3D::create(const PhysicsWorld3DDesc& desc) {
  if (desc.solver_iterations < 1) {
    return fail("solver iterations must be at least 1, not " + std::to_string(desc.solver_iterations));
  }
  if (!finite(desc.gravity)) return fail("gravity must be finite");
  return std::unique_ptr<PhysicsWorld3D>(new PhysicsWorld3D(desc));
}

PhysicsWorld3D::PhysicsWorld3D(const PhysicsWorld3DDesc& desc) {
  events_.reserve(desc.event_capacity);
  impl_ = std::make_unique<Impl>(desc);
  impl_->pending_events.reserve(desc.event_capacity);
  impl_->pairs.reserve(desc.pair_capacity);
  impl_->targets.reserve(64);
}

PhysicsWorld3D::~PhysicsWorld3D() = default;

Status PhysicsWorld3D::set_gravity(Vec3 gravity) {
  if (!finite(gravity)) return fail("gravity must be finite");
  Impl& w = *impl_;
  if (w.stepping) return fail("cannot change gravity while the world steps");
  w.gravity = gravity;
  w.world.setGravity(bt(gravity));
  for (BodySlot& s : w.slots) {
    if (s.object && s.type == BodyType3D::kDynamic) s.rigid()->setGravity(bt(gravity * s.gravity_scale));
  }
  return {};
}

Vec3 PhysicsWorld3D::gravity() const { return impl_->gravity; }

Status PhysicsWorld3D::step(float dt) {
  if (!(dt > 0) || !std::isfinite(dt)) {
    return fail("a physics step must be positive and finite, not " + std::to_string(dt));
  }
  Impl& w = *impl_;
  if (w.stepping) return fail("step() called from inside a step");
  events_.clear();
  events_.insert(events_.end(), w.pending_events.begin(), w.pending_events.end());
  w.pending_events.clear();

  for (std::uint32_t index : w.targets) {
    BodySlot& s = w.slots[index];
    if (!s.object || !s.has_target) continue;
    if (btRigidBody* body = s.rigid(); body && s.type == BodyType3D::kDynamic) {
      btVector3 linear, angular;
      btTransformUtil::calculateVelocity(body->getWorldTransform(), s.target, dt, linear, angular);
      if (angular.length() * dt > kMaxVelocityTurn) {
        // Bullet clamps a step's turn to a quarter turn; a longer one would fall short, so it jumps.
        body->setWorldTransform(s.target);
        body->setInterpolationWorldTransform(s.target);
        s.has_target = false;
      } else {
        body->setLinearVelocity(linear);
        body->setAngularVelocity(angular);
      }
      body->activate(true);
    } else {
      // Kinematic bodies and ghosts: at the target before Bullet looks for contacts; a kinematic body's
      // interpolation transform still holds where it was, and Bullet derives its velocity from the two.
      s.object->setWorldTransform(s.target);
      if (s.type == BodyType3D::kGhost) s.object->setInterpolationWorldTransform(s.target);
    }
  }

  w.forget_unanswered_contacts();
  w.stepping = true;
  w.world.stepSimulation(dt, 0);  // 0 substeps: one step of exactly dt
  w.stepping = false;

  for (std::uint32_t index : w.targets) {
    BodySlot& s = w.slots[index];
    if (!s.object || !s.has_target) continue;
    if (btRigidBody* body = s.rigid()) {
      body->setLinearVelocity(btVector3(0, 0, 0));
      body->setAngularVelocity(btVector3(0, 0, 0));
    }
    s.has_target = false;
  }
  w.targets.clear();

  w.gather_pairs();
  w.pairs.finish_step(events_);
  return {};
}

Expected<BodyHandle3D> PhysicsWorld3D::add_body(const BodyDesc3D& desc, const Shape3D& shape) {
  Impl& w = *impl_;
  const std::string what =
      std::string("cannot add a ") + type_name(desc.type) + " body with a " + shape_name(shape.kind);
  if (w.stepping) return fail(what + " while the world steps");
  if (Status st = check_shape(shape); !st) return fail(what + ": " + st.error().message);
  if (Status st = check_bits("layer", desc.layer); !st) return fail(what + ": " + st.error().message);
  if (Status st = check_bits("mask", desc.mask); !st) return fail(what + ": " + st.error().message);
  if (shape.kind == ShapeKind3D::kPlane && desc.type != BodyType3D::kStatic) {
    return fail(what + ": a plane is infinite, so only static bodies may have one");
  }
  if (desc.type == BodyType3D::kDynamic && (!(desc.mass > 0) || !std::isfinite(desc.mass))) {
    return fail(what + ": a dynamic body's mass must be positive and finite, not " + std::to_string(desc.mass));
  }
  if (!finite(desc.position) || !finite(desc.rotation) || !(length(desc.rotation) > 1e-6f) ||
      !finite(desc.linear_velocity) || !finite(desc.angular_velocity)) {
    return fail(what + ": its position, velocities and rotation must be finite, and the rotation not zero");
  }
  if (!std::isfinite(desc.gravity_scale) || !std::isfinite(desc.friction) || !std::isfinite(desc.restitution)) {
    return fail(what + ": gravity scale, friction and restitution must be finite");
  }
  auto fraction = [](float v) { return v >= 0 && v <= 1; };
  if (!fraction(desc.linear_damping) || !fraction(desc.angular_damping)) {
    return fail(what + ": damping must be within 0 to 1");
  }

  std::uint32_t index;
  if (!w.free_slots.empty()) {
    index = w.free_slots.back();
    w.free_slots.pop_back();
  } else {
    index = static_cast<std::uint32_t>(w.slots.size());
    w.slots.emplace_back();
  }
  BodySlot& s = w.slots[index];
  s.generation += 1;
  if (s.generation == 0) s.generation = 1;  // 0 marks the default, invalid handle
  s.type = desc.type;
  s.shape_kind = shape.kind;
  s.user_data = desc.user_data;
  s.mass = desc.type == BodyType3D::kDynamic ? desc.mass : 0.0f;
  s.gravity_scale = desc.gravity_scale;
  s.layer = desc.layer;
  s.mask = desc.mask;
  s.has_target = false;
  s.shape = make_bullet_shape(shape);

  const btTransform start(bt(normalize(desc.rotation)), bt(desc.position));
  if (desc.type == BodyType3D::kGhost) {
    s.object = std::make_unique<btCollisionObject>();
    s.object->setCollisionShape(s.shape.get());
    s.object->setWorldTransform(start);
    s.object->setInterpolationWorldTransform(start);
    s.object->setCollisionFlags(btCollisionObject::CF_NO_CONTACT_RESPONSE);
  } else {
    btVector3 inertia(0, 0, 0);
    if (desc.type == BodyType3D::kDynamic) s.shape->calculateLocalInertia(s.mass, inertia);
    btRigidBody::btRigidBodyConstructionInfo info(s.mass, nullptr, s.shape.get(), inertia);
    info.m_startWorldTransform = start;
    info.m_friction = desc.friction;
    info.m_restitution = desc.restitution;
    info.m_linearDamping = desc.linear_damping;
    info.m_angularDamping = desc.angular_damping;
    auto body = std::make_unique<btRigidBody>(info);
    if (desc.type == BodyType3D::kKinematic) {
      body->setCollisionFlags((body->getCollisionFlags() & ~btCollisionObject::CF_STATIC_OBJECT) |
                              btCollisionObject::CF_KINEMATIC_OBJECT);
    }
    if (desc.type == BodyType3D::kDynamic) {
      // Each dynamic body gets gravity × its scale from us (set_gravity updates them).
      body->setFlags(body->getFlags() | BT_DISABLE_WORLD_GRAVITY);
      body->setLinearVelocity(bt(desc.linear_velocity));
      body->setAngularVelocity(bt(desc.angular_velocity));
    }
    s.object = std::move(body);
  }
  s.object->setUserIndex(static_cast<int>(index));
  w.add_to_world(s);
  w.live_bodies += 1;
  return BodyHandle3D{index, s.generation};
}

Status PhysicsWorld3D::remove_body(BodyHandle3D body) {
  Impl& w = *impl_;
  if (w.stepping) return fail("cannot remove " + name(body) + " while the world steps: remove it after step()");
  BodySlot* s = w.slot(body);
  if (!s) return fail("cannot remove " + name(body) + ": the handle is stale or invalid");
  w.pairs.end_pairs_of(body, w.pending_events);
  w.world.removeCollisionObject(s->object.get());  // its pairs and manifolds go with it
  s->object.reset();
  s->shape.reset();
  s->has_target = false;
  std::erase(w.targets, body.index);
  w.free_slots.push_back(body.index);
  w.live_bodies -= 1;
  return {};
}

bool PhysicsWorld3D::valid(BodyHandle3D body) const { return impl_->slot(body) != nullptr; }

std::size_t PhysicsWorld3D::body_count() const { return impl_->live_bodies; }

Status PhysicsWorld3D::set_hull_points(BodyHandle3D body, std::span<const Vec3> points) {
  Impl& w = *impl_;
  BodySlot* s = w.slot(body);
  if (!s) return fail("cannot set the hull points of " + name(body) + ": the handle is stale or invalid");
  if (w.stepping) return fail("cannot change the shape of " + name(body) + " while the world steps");
  if (s->shape_kind != ShapeKind3D::kConvexHull) {
    return fail("cannot set the hull points of " + name(body) + ": its shape is a " + shape_name(s->shape_kind));
  }
  auto* hull = static_cast<btConvexHullShape*>(s->shape.get());
  if (points.size() != static_cast<std::size_t>(hull->getNumPoints())) {
    return fail("cannot set the hull points of " + name(body) + ": it has " + std::to_string(hull->getNumPoints()) +
                " points, " + std::to_string(points.size()) + " were given (the count is fixed when the body is made)");
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!finite(points[i])) return fail("hull point " + std::to_string(i) + " of " + name(body) + " is not finite");
  }
  btVector3* stored = hull->getUnscaledPoints();
  for (std::size_t i = 0; i < points.size(); ++i) stored[i] = bt(points[i]);
  hull->recalcLocalAabb();
  if (btRigidBody* rigid = s->rigid(); rigid && s->type == BodyType3D::kDynamic) {
    btVector3 inertia;
    hull->calculateLocalInertia(s->mass, inertia);
    rigid->setMassProps(s->mass, inertia);
    rigid->updateInertiaTensor();
  }
  w.world.updateSingleAabb(s->object.get());
  if (s->type != BodyType3D::kStatic) s->object->activate(true);
  return {};
}

Status PhysicsWorld3D::set_collision(BodyHandle3D body, std::uint32_t layer, std::uint32_t mask) {
  if (Status st = check_bits("layer", layer); !st) return st;
  if (Status st = check_bits("mask", mask); !st) return st;
  Impl& w = *impl_;
  BodySlot* s = w.slot(body);
  if (!s) return fail("cannot set the collision of " + name(body) + ": the handle is stale or invalid");
  if (w.stepping) return fail("cannot change collision filters while the world steps");
  s->layer = layer;
  s->mask = mask;
  // Bullet filters a pair when the broad phase finds it and keeps it after; leaving and re-entering the
  // broad phase drops the pairs the new filter forbids (their ends come from the next step's diff).
  w.world.removeCollisionObject(s->object.get());
  w.add_to_world(*s);
  return {};
}

Status PhysicsWorld3D::set_transform(BodyHandle3D body, Vec3 position, Quat rotation, MoveMode mode) {
  Impl& w = *impl_;
  BodySlot* s = w.slot(body);
  if (!s) return fail("cannot move " + name(body) + ": the handle is stale or invalid");
  if (!finite(position) || !finite(rotation) || !(length(rotation) > 1e-6f)) {
    return fail("cannot move " + name(body) + " to a position or rotation that is not finite (or a zero rotation)");
  }
  if (w.stepping) return fail("cannot move " + name(body) + " while the world steps: move it before or after step()");
  const btTransform target(bt(normalize(rotation)), bt(position));
  if (mode == MoveMode::kTeleport) {
    s->object->setWorldTransform(target);
    s->object->setInterpolationWorldTransform(target);
    if (s->type == BodyType3D::kStatic) {
      w.world.updateSingleAabb(s->object.get());
    } else {
      s->object->activate(true);
    }
    if (s->has_target) {
      s->has_target = false;
      std::erase(w.targets, body.index);
    }
    return {};
  }
  if (s->type == BodyType3D::kStatic) {
    return fail(name(body) + " is static: it cannot move by velocity (teleport it)");
  }
  s->target = target;
  if (!s->has_target) w.targets.push_back(body.index);
  s->has_target = true;
  return {};
}

Status PhysicsWorld3D::set_linear_velocity(BodyHandle3D body, Vec3 velocity) {
  Impl& w = *impl_;
  BodySlot* s = w.slot(body);
  if (!s) return fail("cannot set the velocity of " + name(body) + ": the handle is stale or invalid");
  if (w.stepping) return fail("cannot set the velocity of " + name(body) + " while the world steps");
  if (s->type != BodyType3D::kDynamic) {
    return fail("cannot set the velocity of " + name(body) + ": it is " + type_name(s->type) +
                " (kinematic bodies and ghosts move by set_transform)");
  }
  if (!finite(velocity)) return fail("cannot set the velocity of " + name(body) + " to a value that is not finite");
  s->rigid()->setLinearVelocity(bt(velocity));
  s->object->activate(true);
  return {};
}

Vec3 PhysicsWorld3D::position(BodyHandle3D body) const {
  const BodySlot* s = impl_->slot(body);
  return s ? mf_vec(s->object->getWorldTransform().getOrigin()) : Vec3{};
}

Quat PhysicsWorld3D::rotation(BodyHandle3D body) const {
  const BodySlot* s = impl_->slot(body);
  return s ? mf_quat(s->object->getWorldTransform().getRotation()) : Quat{};
}

Vec3 PhysicsWorld3D::linear_velocity(BodyHandle3D body) const {
  const BodySlot* s = impl_->slot(body);
  const btRigidBody* rigid = s ? s->rigid() : nullptr;
  return rigid ? mf_vec(rigid->getLinearVelocity()) : Vec3{};
}

Vec3 PhysicsWorld3D::angular_velocity(BodyHandle3D body) const {
  const BodySlot* s = impl_->slot(body);
  const btRigidBody* rigid = s ? s->rigid() : nullptr;
  return rigid ? mf_vec(rigid->getAngularVelocity()) : Vec3{};
}

bool PhysicsWorld3D::awake(BodyHandle3D body) const {
  const BodySlot* s = impl_->slot(body);
  return s && s->object->isActive();
}

Aabb3D PhysicsWorld3D::bounds(BodyHandle3D body) const {
  const BodySlot* s = impl_->slot(body);
  if (!s) return {};
  const btTransform& t = s->object->getWorldTransform();
  switch (s->shape_kind) {
    case ShapeKind3D::kConvexHull: {
      // Bullet's own box of a hull counts the margin twice; this one is the hull's true extent.
      const auto* hull = static_cast<const btConvexHullShape*>(s->shape.get());
      btVector3 lo(BT_LARGE_FLOAT, BT_LARGE_FLOAT, BT_LARGE_FLOAT), hi = -lo;
      for (int i = 0; i < hull->getNumPoints(); ++i) {
        const btVector3 p = t * hull->getUnscaledPoints()[i];
        lo.setMin(p);
        hi.setMax(p);
      }
      const btScalar m = hull->getMargin();
      return {mf_vec(lo) - Vec3{m, m, m}, mf_vec(hi) + Vec3{m, m, m}};
    }
    case ShapeKind3D::kPlane: {
      // The solid half-space below the plane: bounded only along an axis the normal lies on.
      const auto* plane = static_cast<const btStaticPlaneShape*>(s->shape.get());
      const btVector3 n = t.getBasis() * plane->getPlaneNormal();
      const btScalar offset = plane->getPlaneConstant() + n.dot(t.getOrigin());
      constexpr float inf = std::numeric_limits<float>::infinity();
      btVector3 lo(-inf, -inf, -inf), hi(inf, inf, inf);
      for (int axis = 0; axis < 3; ++axis) {
        const int o1 = (axis + 1) % 3, o2 = (axis + 2) % 3;
        if (std::abs(n[o1]) > 1e-6f || std::abs(n[o2]) > 1e-6f) continue;
        if (n[axis] > 0) hi[axis] = offset / n[axis];
        if (n[axis] < 0) lo[axis] = offset / n[axis];
      }
      return {mf_vec(lo), mf_vec(hi)};
    }
    case ShapeKind3D::kBox:
    case ShapeKind3D::kSphere: {
      btVector3 lo, hi;
      s->shape->getAabb(t, lo, hi);  // exact for boxes and spheres
      return {mf_vec(lo), mf_vec(hi)};
    }
  }
  return {};
}

}  // namespace mf::scene
