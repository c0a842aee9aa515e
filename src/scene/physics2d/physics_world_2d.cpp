// PhysicsWorld2D over b2World. Box2D stays inside this file: the header speaks pixels and handles.

#include "mf/scene/physics2d/physics_world_2d.hpp"

#include <box2d/box2d.h>

#include <cmath>
#include <cstdio>
#include <string>

namespace mf::scene {

static_assert(PhysicsWorld2D::kMaxPolygonVertices == b2_maxPolygonVertices);
static_assert(PhysicsWorld2D::kLinearSlopMetres == b2_linearSlop);

namespace {

Unexpected fail(std::string message) { return Unexpected{Error{.message = std::move(message)}}; }

std::string hex(std::uint32_t v) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%X", v);
  return text;
}

Status check_bits(const char* what, std::uint32_t value) {
  if (value <= kMaxCollisionBits) return {};
  return fail(std::string("collision ") + what + " " + hex(value) +
              " has bits above bit 15 set: Box2D's category and mask bits are 16 bits (0x0 to 0xFFFF)");
}

b2BodyType to_b2(BodyType type) {
  switch (type) {
    case BodyType::kStatic: return b2_staticBody;
    case BodyType::kKinematic: return b2_kinematicBody;
    case BodyType::kDynamic: return b2_dynamicBody;
  }
  return b2_staticBody;
}

struct BodySlot {
  b2Body* body = nullptr;
  std::uint32_t generation = 0;
  bool has_target = false;  // a kVelocity move waits for the next step
  b2Vec2 target{0, 0};
  float target_angle = 0;
};

// Checks a polygon fixture's points and converts them to metres: 3 to 8 points, finite, none closer
// than Box2D's weld distance, convex and counter-clockwise (Y up), not too thin. Box2D itself would
// fall back to a box on some of these; here they are errors.
struct PolygonCheck {
  enum Problem : std::uint8_t { kNone, kCount, kNotFinite, kWeld, kNotConvex, kClockwise, kThin };
  Problem problem = kNone;
  std::size_t i = 0, j = 0;
};

// The checks alone, without a message: nothing allocates (shapes that follow a pose use it every step).
PolygonCheck check_polygon(std::span<const Vec2> points, float pixels_per_metre, b2Vec2 (&m)[b2_maxPolygonVertices]) {
  const std::size_t n = points.size();
  if (n < 3 || n > static_cast<std::size_t>(b2_maxPolygonVertices)) return {PolygonCheck::kCount};
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(points[i].x) || !std::isfinite(points[i].y)) return {PolygonCheck::kNotFinite, i};
    m[i].Set(points[i].x / pixels_per_metre, points[i].y / pixels_per_metre);
  }
  // Box2D welds points closer than half its linear slop and then needs a strictly convex hull; check
  // here so that a bad polygon is an error, not a silent fallback box.
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (b2Distance(m[i], m[j]) < 0.5f * b2_linearSlop) return {PolygonCheck::kWeld, i, j};
  float area2 = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const b2Vec2 a = m[i], b = m[(i + 1) % n], c = m[(i + 2) % n];
    area2 += b2Cross(a, b);
    const b2Vec2 e1 = b - a, e2 = c - b;
    if (b2Cross(e1, e2) < -1e-6f * e1.Length() * e2.Length()) return {PolygonCheck::kNotConvex, (i + 1) % n};
  }
  if (area2 * 0.5f < b2_linearSlop * b2_linearSlop) return {area2 < 0 ? PolygonCheck::kClockwise : PolygonCheck::kThin};
  return {};
}

// check_polygon with a message naming what is wrong.
Status polygon_in_metres(std::span<const Vec2> points, float pixels_per_metre, b2Vec2 (&m)[b2_maxPolygonVertices]) {
  const PolygonCheck c = check_polygon(points, pixels_per_metre, m);
  switch (c.problem) {
    case PolygonCheck::kNone: return {};
    case PolygonCheck::kCount:
      return fail("a polygon fixture has " + std::to_string(points.size()) + " points; Box2D takes 3 to " +
                  std::to_string(b2_maxPolygonVertices) + " (cut larger polygons with convex_pieces)");
    case PolygonCheck::kNotFinite: return fail("polygon fixture point " + std::to_string(c.i) + " is not finite");
    case PolygonCheck::kWeld:
      return fail("polygon fixture points " + std::to_string(c.i) + " and " + std::to_string(c.j) + " are " +
                  std::to_string(b2Distance(m[c.i], m[c.j]) * pixels_per_metre) + " px apart, closer than Box2D's weld distance " +
                  std::to_string(0.5f * b2_linearSlop * pixels_per_metre) + " px");
    case PolygonCheck::kNotConvex:
      return fail("polygon fixture is not convex counter-clockwise (Y up) at point " + std::to_string(c.i));
    case PolygonCheck::kClockwise: return fail("polygon fixture winds clockwise (Y up); Box2D wants counter-clockwise");
    case PolygonCheck::kThin: return fail("polygon fixture's area is below Box2D's linear slop squared (too thin)");
  }
  return {};
}

}  // namespace

struct PhysicsWorld2D::Impl final : b2ContactListener {
  Impl(const PhysicsWorld2DDesc& desc, std::vector<ContactEvent>& step_events)
      : world(b2Vec2(desc.gravity.x / desc.pixels_per_metre, desc.gravity.y / desc.pixels_per_metre)),
        events(step_events),
        velocity_iterations(desc.velocity_iterations),
        position_iterations(desc.position_iterations) {
    world.SetContactListener(this);
  }

  void BeginContact(b2Contact* contact) override { record(ContactKind::kBegin, contact); }
  void EndContact(b2Contact* contact) override { record(ContactKind::kEnd, contact); }

  BodyHandle handle_of(b2Body* body) const {
    const std::uint32_t index = static_cast<std::uint32_t>(body->GetUserData().pointer);
    return {index, slots[index].generation};
  }

  // Inside step() the event goes to this step's list; outside (a body removed between steps), to the
  // list that opens the next step's.
  void record(ContactKind kind, b2Contact* contact) {
    b2Fixture* a = contact->GetFixtureA();
    b2Fixture* b = contact->GetFixtureB();
    const ContactEvent event{.kind = kind,
                             .body_a = handle_of(a->GetBody()),
                             .body_b = handle_of(b->GetBody()),
                             .fixture_a = a->GetUserData().pointer,
                             .fixture_b = b->GetUserData().pointer,
                             .sensor = a->IsSensor() || b->IsSensor()};
    (stepping ? events : pending_events).push_back(event);
  }

  BodySlot* slot(BodyHandle handle) {
    if (handle.index >= slots.size()) return nullptr;
    BodySlot& s = slots[handle.index];
    return s.body && s.generation == handle.generation ? &s : nullptr;
  }
  const BodySlot* slot(BodyHandle handle) const { return const_cast<Impl*>(this)->slot(handle); }

  // The body a new fixture goes on, with `def` filled from the description; an error for a stale
  // handle, collision bits above 16 or a step in progress.
  Expected<b2Body*> fixture_target(BodyHandle body, const FixtureDesc& fixture, b2FixtureDef& def) {
    if (stepping) return fail("cannot add a fixture while the world steps");
    BodySlot* s = slot(body);
    if (!s) return fail("cannot add a fixture to body " + std::to_string(body.index) + ": the handle is stale or invalid");
    if (Status st = check_bits("layer", fixture.layer); !st) return Unexpected{st.error()};
    if (Status st = check_bits("mask", fixture.mask); !st) return Unexpected{st.error()};
    if (!(fixture.density >= 0)) return fail("fixture density must be zero or positive");
    def.density = fixture.density;
    def.friction = fixture.friction;
    def.restitution = fixture.restitution;
    def.isSensor = fixture.sensor;
    def.filter.categoryBits = static_cast<uint16>(fixture.layer);
    def.filter.maskBits = static_cast<uint16>(fixture.mask);
    def.userData.pointer = fixture.user_data;
    return s->body;
  }

  b2World world;
  std::vector<ContactEvent>& events;
  std::vector<ContactEvent> pending_events;
  std::vector<BodySlot> slots;
  std::vector<std::uint32_t> free_slots;
  std::vector<std::uint32_t> targets;  // slots with has_target
  std::size_t live_bodies = 0;
  int velocity_iterations;
  int position_iterations;
  bool stepping = false;
};

Expected<std::unique_ptr<PhysicsWorld2D>> PhysicsWorld2D::create(const PhysicsWorld2DDesc& desc) {
  if (!(desc.pixels_per_metre > 0) || !std::isfinite(desc.pixels_per_metre)) {
    return fail("pixels_per_metre must be positive and finite, not " + std::to_string(desc.pixels_per_metre));
  }
  if (desc.velocity_iterations < 1 || desc.position_iterations < 1) {
    return fail("velocity and position iterations must be at least 1, not " +
                std::to_string(desc.velocity_iterations) + " and " + std::to_string(desc.position_iterations));
  }
  if (!std::isfinite(desc.gravity.x) || !std::isfinite(desc.gravity.y)) return fail("gravity must be finite");
  return std::unique_ptr<PhysicsWorld2D>(new PhysicsWorld2D(desc));
}

PhysicsWorld2D::PhysicsWorld2D(const PhysicsWorld2DDesc& desc) : pixels_per_metre_(desc.pixels_per_metre) {
  events_.reserve(desc.event_capacity);
  impl_ = std::make_unique<Impl>(desc, events_);
  impl_->pending_events.reserve(desc.event_capacity);
  impl_->targets.reserve(64);
}

PhysicsWorld2D::~PhysicsWorld2D() {
  // Bodies go with the world; their contacts end without events.
  impl_->world.SetContactListener(nullptr);
}

ConvexPiecesOptions PhysicsWorld2D::piece_options(int max_vertices) const {
  const float slop = kLinearSlopMetres * pixels_per_metre_;
  return {.max_vertices = max_vertices, .min_vertex_distance = slop, .min_area = slop * slop};
}

void PhysicsWorld2D::set_gravity(Vec2 gravity_px) {
  const Vec2 g = to_metres(gravity_px);
  impl_->world.SetGravity(b2Vec2(g.x, g.y));
}

Vec2 PhysicsWorld2D::gravity() const {
  const b2Vec2 g = impl_->world.GetGravity();
  return to_pixels(Vec2{g.x, g.y});
}

Status PhysicsWorld2D::step(float dt) {
  if (!(dt > 0) || !std::isfinite(dt)) return fail("a physics step must be positive and finite, not " + std::to_string(dt));
  if (impl_->stepping) return fail("step() called from inside a step (a contact callback)");
  Impl& w = *impl_;
  events_.clear();
  events_.insert(events_.end(), w.pending_events.begin(), w.pending_events.end());
  w.pending_events.clear();

  for (std::uint32_t index : w.targets) {
    BodySlot& s = w.slots[index];
    if (!s.body || !s.has_target) continue;
    // Box2D moves a body's centre of mass by its linear velocity and turns it about that centre, so
    // the velocity is the centre's move: the origin then lands on the target while it turns.
    const b2Vec2 target_centre = s.target + b2Mul(b2Rot(s.target_angle), s.body->GetLocalCenter());
    const b2Vec2 move = target_centre - s.body->GetWorldCenter();
    const float turn = s.target_angle - s.body->GetAngle();
    if (move.Length() > 0.99f * b2_maxTranslation || std::abs(turn) > 0.99f * b2_maxRotation) {
      // Box2D clamps a step's motion to these; a longer move would fall short, so it jumps instead.
      s.body->SetTransform(s.target, s.target_angle);
      s.has_target = false;
    } else {
      s.body->SetLinearVelocity(b2Vec2(move.x / dt, move.y / dt));
      s.body->SetAngularVelocity(turn / dt);
    }
    s.body->SetAwake(true);
  }

  w.stepping = true;
  w.world.Step(dt, w.velocity_iterations, w.position_iterations);
  w.stepping = false;

  for (std::uint32_t index : w.targets) {
    BodySlot& s = w.slots[index];
    if (!s.body || !s.has_target) continue;
    s.body->SetLinearVelocity(b2Vec2(0, 0));
    s.body->SetAngularVelocity(0);
    s.has_target = false;
  }
  w.targets.clear();
  return {};
}

Expected<BodyHandle> PhysicsWorld2D::add_body(const BodyDesc& desc) {
  Impl& w = *impl_;
  if (w.stepping) return fail("cannot add a body while the world steps");
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

  b2BodyDef def;
  def.type = to_b2(desc.type);
  const Vec2 p = to_metres(desc.position);
  const Vec2 v = to_metres(desc.linear_velocity);
  def.position.Set(p.x, p.y);
  def.angle = desc.angle;
  def.linearVelocity.Set(v.x, v.y);
  def.angularVelocity = desc.angular_velocity;
  def.gravityScale = desc.gravity_scale;
  def.fixedRotation = desc.fixed_rotation;
  def.bullet = desc.bullet;
  def.userData.pointer = index;
  s.body = w.world.CreateBody(&def);
  s.has_target = false;
  w.live_bodies += 1;
  return BodyHandle{index, s.generation};
}

Status PhysicsWorld2D::remove_body(BodyHandle body) {
  Impl& w = *impl_;
  if (w.stepping) return fail("cannot remove a body while the world steps: remove it after step()");
  BodySlot* s = w.slot(body);
  if (!s) return fail("cannot remove body " + std::to_string(body.index) + ": the handle is stale or invalid");
  w.world.DestroyBody(s->body);  // ends its contacts: EndContact goes to the pending list
  s->body = nullptr;
  s->has_target = false;
  std::erase(w.targets, body.index);
  w.free_slots.push_back(body.index);
  w.live_bodies -= 1;
  return {};
}

bool PhysicsWorld2D::valid(BodyHandle body) const { return impl_->slot(body) != nullptr; }

std::size_t PhysicsWorld2D::body_count() const { return impl_->live_bodies; }

Status PhysicsWorld2D::add_polygon(BodyHandle body, std::span<const Vec2> points, const FixtureDesc& fixture) {
  b2Vec2 m[b2_maxPolygonVertices];
  if (Status st = polygon_in_metres(points, pixels_per_metre_, m); !st) return st;
  const std::size_t n = points.size();
  b2FixtureDef def;
  auto target = impl_->fixture_target(body, fixture, def);
  if (!target) return Unexpected{target.error()};
  b2PolygonShape shape;
  shape.Set(m, static_cast<int32>(n));
  def.shape = &shape;
  (*target)->CreateFixture(&def);
  return {};
}

Status PhysicsWorld2D::add_polygons(BodyHandle body, std::span<const std::vector<Vec2>> pieces, const FixtureDesc& fixture) {
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (Status st = add_polygon(body, pieces[i], fixture); !st) {
      return fail("piece " + std::to_string(i) + ": " + st.error().message);
    }
  }
  return {};
}

bool PhysicsWorld2D::fits_polygon(std::span<const Vec2> points) const {
  b2Vec2 m[b2_maxPolygonVertices];
  return check_polygon(points, pixels_per_metre_, m).problem == PolygonCheck::kNone;
}

Status PhysicsWorld2D::set_polygon(BodyHandle body, int fixture, std::span<const Vec2> points) {
  Impl& w = *impl_;
  BodySlot* s = w.slot(body);
  if (!s) return fail("cannot reshape a fixture of body " + std::to_string(body.index) + ": the handle is stale or invalid");
  if (w.stepping) return fail("cannot reshape a fixture while the world steps: do it before or after step()");
  // Box2D keeps a body's fixtures newest first.
  int count = 0;
  for (b2Fixture* f = s->body->GetFixtureList(); f; f = f->GetNext()) ++count;
  if (fixture < 0 || fixture >= count)
    return fail("body " + std::to_string(body.index) + " has no fixture " + std::to_string(fixture) + " (it has " + std::to_string(count) + ")");
  b2Fixture* f = s->body->GetFixtureList();
  for (int i = count - 1; i > fixture; --i) f = f->GetNext();
  if (f->GetType() != b2Shape::e_polygon) return fail("fixture " + std::to_string(fixture) + " of body " + std::to_string(body.index) + " is not a polygon");
  b2Vec2 m[b2_maxPolygonVertices];
  if (Status st = polygon_in_metres(points, pixels_per_metre_, m); !st) return st;
  static_cast<b2PolygonShape*>(f->GetShape())->Set(m, static_cast<int32>(points.size()));
  s->body->ResetMassData();
  // Moving the body to where it is refreshes the fixtures' broad-phase boxes and finds new contacts.
  s->body->SetTransform(s->body->GetPosition(), s->body->GetAngle());
  return {};
}

Status PhysicsWorld2D::add_circle(BodyHandle body, Vec2 centre, float radius, const FixtureDesc& fixture) {
  if (!(to_metres(radius) >= b2_linearSlop) || !std::isfinite(radius)) {
    return fail("circle radius " + std::to_string(radius) + " px is below Box2D's linear slop (" +
                std::to_string(to_pixels(b2_linearSlop)) + " px) or not finite");
  }
  b2FixtureDef def;
  auto target = impl_->fixture_target(body, fixture, def);
  if (!target) return Unexpected{target.error()};
  b2CircleShape shape;
  const Vec2 c = to_metres(centre);
  shape.m_p.Set(c.x, c.y);
  shape.m_radius = to_metres(radius);
  def.shape = &shape;
  (*target)->CreateFixture(&def);
  return {};
}

Status PhysicsWorld2D::add_box(BodyHandle body, Vec2 half_size, const FixtureDesc& fixture, Vec2 centre, float angle) {
  const Vec2 h = to_metres(half_size);
  if (!(h.x >= b2_linearSlop && h.y >= b2_linearSlop) || !std::isfinite(h.x) || !std::isfinite(h.y)) {
    return fail("box half size (" + std::to_string(half_size.x) + ", " + std::to_string(half_size.y) +
                ") px is below Box2D's linear slop (" + std::to_string(to_pixels(b2_linearSlop)) + " px) or not finite");
  }
  b2FixtureDef def;
  auto target = impl_->fixture_target(body, fixture, def);
  if (!target) return Unexpected{target.error()};
  b2PolygonShape shape;
  const Vec2 c = to_metres(centre);
  shape.SetAsBox(h.x, h.y, b2Vec2(c.x, c.y), angle);
  def.shape = &shape;
  (*target)->CreateFixture(&def);
  return {};
}

Status PhysicsWorld2D::set_collision(BodyHandle body, std::uint32_t layer, std::uint32_t mask) {
  if (Status st = check_bits("layer", layer); !st) return st;
  if (Status st = check_bits("mask", mask); !st) return st;
  BodySlot* s = impl_->slot(body);
  if (!s) return fail("cannot set the collision of body " + std::to_string(body.index) + ": the handle is stale or invalid");
  if (impl_->stepping) return fail("cannot change collision filters while the world steps");
  for (b2Fixture* f = s->body->GetFixtureList(); f; f = f->GetNext()) {
    b2Filter filter = f->GetFilterData();
    filter.categoryBits = static_cast<uint16>(layer);
    filter.maskBits = static_cast<uint16>(mask);
    f->SetFilterData(filter);  // re-filters its contacts at the next step
  }
  return {};
}

Status PhysicsWorld2D::set_transform(BodyHandle body, Vec2 position_px, float angle, MoveMode mode) {
  Impl& w = *impl_;
  BodySlot* s = w.slot(body);
  if (!s) return fail("cannot move body " + std::to_string(body.index) + ": the handle is stale or invalid");
  if (!std::isfinite(position_px.x) || !std::isfinite(position_px.y) || !std::isfinite(angle)) {
    return fail("cannot move body " + std::to_string(body.index) + " to a position or angle that is not finite");
  }
  if (w.stepping) return fail("cannot move a body while the world steps: move it before or after step()");
  const Vec2 p = to_metres(position_px);
  if (mode == MoveMode::kTeleport) {
    s->body->SetTransform(b2Vec2(p.x, p.y), angle);
    s->body->SetAwake(true);
    return {};
  }
  if (s->body->GetType() == b2_staticBody) {
    return fail("body " + std::to_string(body.index) + " is static: it cannot move by velocity (teleport it)");
  }
  s->target.Set(p.x, p.y);
  s->target_angle = angle;
  if (!s->has_target) w.targets.push_back(body.index);
  s->has_target = true;
  return {};
}

Status PhysicsWorld2D::set_enabled(BodyHandle body, bool enabled) {
  Impl& w = *impl_;
  BodySlot* s = w.slot(body);
  if (!s) return fail("cannot enable or disable body " + std::to_string(body.index) + ": the handle is stale or invalid");
  if (w.stepping) return fail("cannot enable or disable a body while the world steps: do it before or after step()");
  s->body->SetEnabled(enabled);
  return {};
}

bool PhysicsWorld2D::enabled(BodyHandle body) const {
  const BodySlot* s = impl_->slot(body);
  return s && s->body->IsEnabled();
}

Status PhysicsWorld2D::set_linear_velocity(BodyHandle body, Vec2 velocity_px) {
  BodySlot* s = impl_->slot(body);
  if (!s) return fail("cannot set the velocity of body " + std::to_string(body.index) + ": the handle is stale or invalid");
  const Vec2 v = to_metres(velocity_px);
  s->body->SetLinearVelocity(b2Vec2(v.x, v.y));
  return {};
}

Vec2 PhysicsWorld2D::position(BodyHandle body) const {
  const BodySlot* s = impl_->slot(body);
  if (!s) return {};
  const b2Vec2 p = s->body->GetPosition();
  return to_pixels(Vec2{p.x, p.y});
}

float PhysicsWorld2D::angle(BodyHandle body) const {
  const BodySlot* s = impl_->slot(body);
  return s ? s->body->GetAngle() : 0.0f;
}

Vec2 PhysicsWorld2D::linear_velocity(BodyHandle body) const {
  const BodySlot* s = impl_->slot(body);
  if (!s) return {};
  const b2Vec2 v = s->body->GetLinearVelocity();
  return to_pixels(Vec2{v.x, v.y});
}

bool PhysicsWorld2D::awake(BodyHandle body) const {
  const BodySlot* s = impl_->slot(body);
  return s && s->body->IsAwake();
}

}  // namespace mf::scene
