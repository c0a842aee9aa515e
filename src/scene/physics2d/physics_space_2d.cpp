#include "mf/scene/physics2d/physics_space_2d.hpp"

#include <utility>

static_assert(sizeof(std::uintptr_t) >= 8, "contact user data packs a 32-bit key and a 32-bit part");

namespace mf::scene {

Expected<std::unique_ptr<PhysicsSpace2D>> PhysicsSpace2D::create(std::string name, const PhysicsWorld2DDesc& desc) {
  auto world = PhysicsWorld2D::create(desc);
  if (!world) return Unexpected{world.error()};
  return std::unique_ptr<PhysicsSpace2D>(new PhysicsSpace2D(std::move(name), std::move(*world)));
}

PhysicsSpace2D::PhysicsSpace2D(std::string name, std::unique_ptr<PhysicsWorld2D> world)
    : Node(std::move(name)), world_(std::move(world)) {
  receivers_.reserve(64);
}

PhysicsSpace2D::~PhysicsSpace2D() = default;

PhysicsSpace2D* PhysicsSpace2D::find(const Node& node) {
  for (Node* n = node.parent(); n; n = n->parent())
    if (auto* space = dynamic_cast<PhysicsSpace2D*>(n)) return space;
  return nullptr;
}

std::uint32_t PhysicsSpace2D::add_receiver(ContactReceiver2D* receiver) {
  receivers_.push_back(receiver);
  return static_cast<std::uint32_t>(receivers_.size());
}

void PhysicsSpace2D::remove_receiver(std::uint32_t key) {
  if (key >= 1 && key <= receivers_.size()) receivers_[key - 1] = nullptr;
}

ContactReceiver2D* PhysicsSpace2D::receiver(std::uintptr_t user_data) const {
  const auto key = static_cast<std::size_t>(user_data >> 32);
  return key >= 1 && key <= receivers_.size() ? receivers_[key - 1] : nullptr;
}

void PhysicsSpace2D::on_enter_tree() { tree()->add_physics_stepper(this); }

void PhysicsSpace2D::on_exit_tree() { tree()->remove_physics_stepper(this); }

void PhysicsSpace2D::step_physics(float step) {
  if (!world_->step(step)) return;  // only a bad step length fails, and the tree's is valid
  ++steps_;
  // By index: a receiver may add another (a node entering the tree from a slot is deferred, but be safe).
  for (std::size_t i = 0; i < receivers_.size(); ++i)
    if (ContactReceiver2D* r = receivers_[i]) r->after_step();
  for (const ContactEvent& e : world_->events()) {
    ContactReceiver2D* a = receiver(e.fixture_a);
    ContactReceiver2D* b = receiver(e.fixture_b);
    const auto part_a = static_cast<std::uint32_t>(e.fixture_a & 0xFFFFFFFFu);
    const auto part_b = static_cast<std::uint32_t>(e.fixture_b & 0xFFFFFFFFu);
    if (a) a->on_contact(e.kind, part_a, b ? b->contact_node() : nullptr, part_b, e.sensor);
    if (b) b->on_contact(e.kind, part_b, a ? a->contact_node() : nullptr, part_a, e.sensor);
  }
}

}  // namespace mf::scene
