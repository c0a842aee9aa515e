#include "mf/scene/physics2d/physics_space_2d.hpp"

#include <utility>


namespace mf::scene {

Expected<std::unique_ptr<PhysicsSpace2D>> PhysicsSpace2D::create(std::string name, const PhysicsWorld2DDesc& desc) {
  auto world = PhysicsWorld2D::create(desc);
  if (!world) return Unexpected{world.error()};
  return std::unique_ptr<PhysicsSpace2D>(new PhysicsSpace2D(std::move(name), std::move(*world)));
}

PhysicsSpace2D::PhysicsSpace2D(std::string name, std::unique_ptr<PhysicsWorld2D> world)
    : Node(std::move(name)), world_(std::move(world)) {}

PhysicsSpace2D::~PhysicsSpace2D() = default;

PhysicsSpace2D* PhysicsSpace2D::find(const Node& node) {
  for (Node* n = node.parent(); n; n = n->parent())
    if (auto* space = dynamic_cast<PhysicsSpace2D*>(n)) return space;
  return nullptr;
}

void PhysicsSpace2D::on_enter_tree() { tree()->add_physics_stepper(this); }

void PhysicsSpace2D::on_exit_tree() { tree()->remove_physics_stepper(this); }

void PhysicsSpace2D::step_physics(float step) {
  if (!world_->step(step)) return;  // only a bad step length fails, and the tree's is valid
  ++steps_;
  receivers_.for_each([](ContactReceiver2D& r) { r.after_step(); });
  using Table = ContactReceivers<ContactReceiver2D>;
  for (const ContactEvent& e : world_->events()) {
    ContactReceiver2D* a = receivers_.find(e.fixture_a);
    ContactReceiver2D* b = receivers_.find(e.fixture_b);
    const std::uint32_t part_a = Table::part(e.fixture_a), part_b = Table::part(e.fixture_b);
    if (a) a->on_contact(e.kind, part_a, b ? b->contact_node() : nullptr, part_b, e.sensor);
    if (b) b->on_contact(e.kind, part_b, a ? a->contact_node() : nullptr, part_a, e.sensor);
  }
}

}  // namespace mf::scene
