#pragma once
// PhysicsSpace3D: the 3D counterpart of PhysicsSpace2D: a node that owns a PhysicsWorld3D, steps it
// after every node's physics tick (a SceneTree physics stepper) and sends each contact event to the
// receivers of both bodies (ContactReceivers: key ⊕ part in each body's user data), naming the node on
// the other side.

#include <cstdint>
#include <memory>
#include <string>

#include "mf/scene/contact_receivers.hpp"
#include "mf/scene/node.hpp"
#include "mf/scene/physics3d/physics_world_3d.hpp"
#include "mf/scene/scene_tree.hpp"

namespace mf::scene {

class ContactReceiver3D {
 public:
  virtual void on_contact(ContactKind kind, std::uint32_t part, Node* other, std::uint32_t other_part) = 0;
  virtual Node* contact_node() = 0;

 protected:
  ~ContactReceiver3D() = default;
};

class PhysicsSpace3D : public Node, private PhysicsStepper {
 public:
  static Expected<std::unique_ptr<PhysicsSpace3D>> create(std::string name, const PhysicsWorld3DDesc& desc = {});
  ~PhysicsSpace3D() override;

  PhysicsWorld3D& world() { return *world_; }
  // The nearest PhysicsSpace3D among `node`'s ancestors, or nullptr.
  static PhysicsSpace3D* find(const Node& node);

  std::uint32_t add_receiver(ContactReceiver3D* receiver) { return receivers_.add(receiver); }
  void remove_receiver(std::uint32_t key) { receivers_.remove(key); }
  static std::uintptr_t contact_user_data(std::uint32_t key, std::uint32_t part) {
    return ContactReceivers<ContactReceiver3D>::user_data(key, part);
  }
  std::uint64_t steps() const { return steps_; }

 protected:
  void on_enter_tree() override { tree()->add_physics_stepper(this); }
  void on_exit_tree() override { tree()->remove_physics_stepper(this); }

 private:
  PhysicsSpace3D(std::string name, std::unique_ptr<PhysicsWorld3D> world);
  void step_physics(float step) override;

  std::unique_ptr<PhysicsWorld3D> world_;
  ContactReceivers<ContactReceiver3D> receivers_;
  std::uint64_t steps_ = 0;
};

}  // namespace mf::scene
