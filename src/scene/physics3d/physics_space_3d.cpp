#include "mf/scene/physics3d/physics_space_3d.hpp"

#include <utility>

namespace mf::scene {

Expected<std::unique_ptr<PhysicsSpace3D>> PhysicsSpace3D::create(std::string name, const PhysicsWorld3DDesc& desc) {
  auto world = PhysicsWorld3D::create(desc);
  if (!world) return Unexpected{world.error()};
  return std::unique_ptr<PhysicsSpace3D>(new PhysicsSpace3D(std::move(name), std::move(*world)));
}

PhysicsSpace3D::PhysicsSpace3D(std::string name, std::unique_ptr<PhysicsWorld3D> world)
    : Node(std::move(name)), world_(std::move(world)) {}

PhysicsSpace3D::~PhysicsSpace3D() = default;

PhysicsSpace3D* PhysicsSpace3D::find(const Node& node) {
  for (Node* n = node.parent(); n; n = n->parent())
    if (auto* space = dynamic_cast<PhysicsSpace3D*>(n)) return space;
  return nullptr;
}

void PhysicsSpace3D::step_physics(float step) {
  if (!world_->step(step)) return;  // only a bad step length fails, and the tree's is valid
  ++steps_;
  using Table = ContactReceivers<ContactReceiver3D>;
  for (const ContactEvent3D& e : world_->events()) {
    ContactReceiver3D* a = receivers_.find(e.user_a);
    ContactReceiver3D* b = receivers_.find(e.user_b);
    if (a) a->on_contact(e.kind, Table::part(e.user_a), b ? b->contact_node() : nullptr, Table::part(e.user_b));
    if (b) b->on_contact(e.kind, Table::part(e.user_b), a ? a->contact_node() : nullptr, Table::part(e.user_a));
  }
}

}  // namespace mf::scene
