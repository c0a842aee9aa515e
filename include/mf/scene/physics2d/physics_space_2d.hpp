#pragma once
// PhysicsSpace2D: a node that owns a PhysicsWorld2D and steps it in the tree's physics tick, after
// every node's on_physics_process (SceneTree's physics steppers), so bodies that nodes moved in that
// tick collide in the same step.
//
// Nodes with bodies (RigidBody2D, SkeletonHitboxes2D) find the nearest PhysicsSpace2D among their
// ancestors when they enter the tree, and register as contact receivers: the space hands out a
// key, the node puts key ⊕ part (contact_user_data) in its fixtures' user data, and after each step the
// space sends each begin and end event to the receivers of both fixtures, naming the other side's
// node. Keys are never reused, so the end events of a body removed in an earlier step (they open the
// next step's list) reach no one once its receiver is gone.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mf/scene/contact_receivers.hpp"
#include "mf/scene/node.hpp"
#include "mf/scene/physics2d/physics_world_2d.hpp"
#include "mf/scene/scene_tree.hpp"

namespace mf::scene {

// What a body-owning node implements to hear about its contacts and to follow the simulation.
class ContactReceiver2D {
 public:
  // `part` is the part number this receiver put in its fixture's user data; `other` the node on the
  // other side (nullptr for a fixture no receiver owns), with its part.
  virtual void on_contact(ContactKind kind, std::uint32_t part, Node* other, std::uint32_t other_part, bool sensor) = 0;
  // The node contact events name this receiver by.
  virtual Node* contact_node() = 0;
  // After each step, before the contacts are sent: dynamic bodies copy their place to their node.
  virtual void after_step() {}

 protected:
  ~ContactReceiver2D() = default;
};

class PhysicsSpace2D : public Node, private PhysicsStepper {
 public:
  // An error when the world cannot be made (PhysicsWorld2D::create's).
  static Expected<std::unique_ptr<PhysicsSpace2D>> create(std::string name, const PhysicsWorld2DDesc& desc = {});
  ~PhysicsSpace2D() override;

  PhysicsWorld2D& world() { return *world_; }

  // The nearest PhysicsSpace2D among `node`'s ancestors, or nullptr.
  static PhysicsSpace2D* find(const Node& node);

  // A key for a receiver's fixtures (never 0, never reused).
  std::uint32_t add_receiver(ContactReceiver2D* receiver) { return receivers_.add(receiver); }
  void remove_receiver(std::uint32_t key) { receivers_.remove(key); }
  // The user data of a fixture of receiver `key`, part `part`.
  static std::uintptr_t contact_user_data(std::uint32_t key, std::uint32_t part) {
    return ContactReceivers<ContactReceiver2D>::user_data(key, part);
  }

  std::uint64_t steps() const { return steps_; }

 protected:
  void on_enter_tree() override;
  void on_exit_tree() override;

 private:
  PhysicsSpace2D(std::string name, std::unique_ptr<PhysicsWorld2D> world);
  void step_physics(float step) override;

  std::unique_ptr<PhysicsWorld2D> world_;
  ContactReceivers<ContactReceiver2D> receivers_;
  std::uint64_t steps_ = 0;
};

}  // namespace mf::scene
