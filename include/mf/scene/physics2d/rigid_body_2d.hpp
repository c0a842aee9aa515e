#pragma once
// RigidBody2D: a Node2D with a Box2D body in the nearest PhysicsSpace2D above it (projectiles, crates,
// walls). Shapes are given before the node enters the tree; the body is made on entering and removed
// on exiting. Dynamic bodies move their node: after each step the node's global position and rotation
// become the body's (scale and skew stay). Static and kinematic bodies follow their node: static ones
// are teleported when the node moved, kinematic ones reach the node's place over the next step
// (MoveMode::kVelocity). Contacts with other nodes' bodies are signalled after the step, deferred.

#include <cstdint>
#include <string>
#include <vector>

#include "mf/scene/node_2d.hpp"
#include "mf/scene/physics2d/physics_space_2d.hpp"
#include "mf/scene/signal.hpp"

namespace mf::scene {

struct BodyShape2D {
  enum class Kind : std::uint8_t { Circle, Box, Polygon };
  Kind kind = Kind::Box;
  Vec2 centre;                 // Circle, Box
  float radius = 0;            // Circle
  Vec2 half_size;              // Box
  std::vector<Vec2> points;    // Polygon: any simple polygon (cut into convex pieces)
  FixtureDesc fixture;         // user_data is the node's; its own value is ignored
};

class RigidBody2D : public Node2D, private ContactReceiver2D {
 public:
  RigidBody2D(std::string name, BodyType type);
  ~RigidBody2D() override;

  void add_shape(BodyShape2D shape) { shapes_.push_back(std::move(shape)); }
  BodyType type() const { return type_; }
  void set_gravity_scale(float scale) { gravity_scale_ = scale; }
  void set_bullet(bool bullet) { bullet_ = bullet; }
  // Dynamic bodies: the velocity the body starts with (px/s), or is given now when it exists.
  void set_linear_velocity(Vec2 velocity);

  // The body, valid while the node is inside a tree under a PhysicsSpace2D; the error of making it
  // (no space above, a bad shape) otherwise.
  BodyHandle body() const { return body_; }
  const std::string& body_error() const { return error_; }

  Signal<RigidBody2D*, Node*> contact_began;
  Signal<RigidBody2D*, Node*> contact_ended;

 protected:
  void on_enter_tree() override;
  void on_exit_tree() override;
  void on_physics_process(float step) override;

 private:
  void on_contact(ContactKind kind, std::uint32_t part, Node* other, std::uint32_t other_part, bool sensor) override;
  Node* contact_node() override { return this; }
  void after_step() override;
  Status make_body();

  std::vector<BodyShape2D> shapes_;
  BodyType type_;
  float gravity_scale_ = 1;
  bool bullet_ = false;
  Vec2 velocity_{0, 0};
  PhysicsSpace2D* space_ = nullptr;
  std::uint32_t key_ = 0;
  BodyHandle body_;
  std::string error_;
  Affine2 placed_;  // the global transform the body was last given or gave
};

}  // namespace mf::scene
