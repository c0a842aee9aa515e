#include "mf/scene/physics2d/rigid_body_2d.hpp"

#include <cmath>
#include <utility>

#include "mf/scene/physics2d/convex_pieces.hpp"

namespace mf::scene {
namespace {

float angle_of(const Affine2& t) { return std::atan2(t.c, t.a); }

}  // namespace

RigidBody2D::RigidBody2D(std::string name, BodyType type) : Node2D(std::move(name)), type_(type) {}

RigidBody2D::~RigidBody2D() {
  if (space_) {
    space_->remove_receiver(key_);
    (void)space_->world().remove_body(body_);
  }
}

void RigidBody2D::set_linear_velocity(Vec2 velocity) {
  velocity_ = velocity;
  if (space_) (void)space_->world().set_linear_velocity(body_, velocity);
}

void RigidBody2D::on_enter_tree() {
  error_.clear();
  space_ = PhysicsSpace2D::find(*this);
  if (!space_) {
    error_ = path() + ": no PhysicsSpace2D above this body";
    return;
  }
  if (Status s = make_body(); !s) {
    error_ = path() + ": " + s.error().message;
    if (body_.generation != 0) (void)space_->world().remove_body(body_);
    body_ = {};
    space_ = nullptr;
  }
}

Status RigidBody2D::make_body() {
  PhysicsWorld2D& world = space_->world();
  placed_ = global_transform();
  BodyDesc desc;
  desc.type = type_;
  desc.position = placed_.origin();
  desc.angle = angle_of(placed_);
  desc.linear_velocity = velocity_;
  desc.gravity_scale = gravity_scale_;
  desc.bullet = bullet_;
  auto body = world.add_body(desc);
  if (!body) return Unexpected{body.error()};
  body_ = *body;
  key_ = space_->add_receiver(this);
  const std::uintptr_t user = PhysicsSpace2D::contact_user_data(key_, 0);
  for (const BodyShape2D& shape : shapes_) {
    FixtureDesc f = shape.fixture;
    f.user_data = user;
    Status s;
    switch (shape.kind) {
      case BodyShape2D::Kind::Circle: s = world.add_circle(body_, shape.centre, shape.radius, f); break;
      case BodyShape2D::Kind::Box: s = world.add_box(body_, shape.half_size, f, shape.centre); break;
      case BodyShape2D::Kind::Polygon: {
        auto pieces = convex_pieces(shape.points, world.piece_options());
        if (!pieces) return Unexpected{pieces.error()};
        s = world.add_polygons(body_, *pieces, f);
        break;
      }
    }
    if (!s) return s;
  }
  return {};
}

void RigidBody2D::on_exit_tree() {
  if (!space_) return;
  space_->remove_receiver(key_);
  (void)space_->world().remove_body(body_);
  space_ = nullptr;
  body_ = {};
  key_ = 0;
}

void RigidBody2D::on_physics_process(float) {
  if (!space_ || type_ == BodyType::kDynamic) return;
  const Affine2 now = global_transform();
  if (now == placed_) return;
  placed_ = now;
  (void)space_->world().set_transform(body_, now.origin(), angle_of(now),
                                       type_ == BodyType::kStatic ? MoveMode::kTeleport : MoveMode::kVelocity);
}

void RigidBody2D::after_step() {
  if (type_ != BodyType::kDynamic) return;
  PhysicsWorld2D& world = space_->world();
  // The body's place with the node's own scale and skew kept.
  const Affine2 current = global_transform();
  const float turn = world.angle(body_) - angle_of(current);
  const float c = std::cos(turn), s = std::sin(turn);
  Affine2 next{c * current.a - s * current.c, c * current.b - s * current.d, s * current.a + c * current.c,
               s * current.b + c * current.d, 0, 0};
  const Vec2 p = world.position(body_);
  next.x = p.x;
  next.y = p.y;
  set_global_transform(next);
  placed_ = global_transform();
}

void RigidBody2D::on_contact(ContactKind kind, std::uint32_t, Node* other, std::uint32_t, bool) {
  SceneTree* t = tree();
  if (!t) return;
  if (kind == ContactKind::kBegin) contact_began.emit_deferred(*t, this, other);
  else contact_ended.emit_deferred(*t, this, other);
}

}  // namespace mf::scene
