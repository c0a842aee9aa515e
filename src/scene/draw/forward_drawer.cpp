#include "mf/scene/draw/forward_drawer.hpp"

#include "mf/scene/sprite3d/skeleton_sprite_3d.hpp"
#include "renderer_instances.hpp"

namespace mf::scene {

ForwardDrawer::ForwardDrawer(render::ForwardRenderer& renderer)
    : instances_(std::make_unique<detail::RendererInstances<render::ForwardRenderer>>(renderer)) {}

ForwardDrawer::~ForwardDrawer() = default;

Status ForwardDrawer::draw(Node& root) {
  instances_->begin_frame();
  stats_ = {};
  if (Status s = visit(root); !s) return s;
  return instances_->collect();
}

Status ForwardDrawer::visit(Node& node) {
  if (auto* sprite = dynamic_cast<SkeletonSprite3D*>(&node)) {
    if (Status s = draw_sprite(*sprite); !s) return s;
  }
  for (std::size_t i = 0; i < node.child_count(); ++i) {
    if (Status s = visit(*node.child(i)); !s) return s;
  }
  return {};
}

Status ForwardDrawer::draw_sprite(SkeletonSprite3D& sprite) {
  const skel::SkeletonPose* pose = sprite.pose();
  if (!sprite.data() || !pose) return {};
  auto instance = instances_->instance(sprite.serial(), sprite.data(), sprite.path());
  if (!instance) return Unexpected{instance.error()};
  render::ForwardRenderer& renderer = instances_->renderer();
  const std::uint32_t culled_before = renderer.stats().sprites_culled;
  if (Status s = renderer.draw_sprite(*instance, *pose, sprite.sprite_options()); !s)
    return Unexpected{Error{{}, {}, {}, sprite.path() + ": " + s.error().to_string()}};
  const bool culled = renderer.stats().sprites_culled != culled_before;
  sprite.set_was_culled(culled);
  ++(culled ? stats_.culled : stats_.drawn);
  return {};
}

}  // namespace mf::scene
