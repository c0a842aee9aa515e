#include "mf/scene/draw/canvas_drawer.hpp"

#include "mf/scene/skeleton/skeleton_2d.hpp"
#include "renderer_instances.hpp"

namespace mf::scene {

CanvasDrawer::CanvasDrawer(render::SkeletonRenderer& renderer)
    : instances_(std::make_unique<detail::RendererInstances<render::SkeletonRenderer>>(renderer)) {}

CanvasDrawer::~CanvasDrawer() = default;

Status CanvasDrawer::draw(Node& root) {
  instances_->begin_frame();
  stats_ = {};
  if (Status s = visit(root); !s) return s;
  return instances_->collect();
}

Status CanvasDrawer::visit(Node& node) {
  if (auto* skeleton = dynamic_cast<Skeleton2D*>(&node)) {
    if (Status s = draw_skeleton(*skeleton); !s) return s;
  }
  for (std::size_t i = 0; i < node.child_count(); ++i) {
    if (Status s = visit(*node.child(i)); !s) return s;
  }
  return {};
}

Status CanvasDrawer::draw_skeleton(Skeleton2D& skeleton) {
  const skel::SkeletonPose* pose = skeleton.pose();
  if (!skeleton.data() || !pose) return {};
  auto instance = instances_->instance(skeleton.serial(), skeleton.data(), skeleton.path());
  if (!instance) return Unexpected{instance.error()};
  render::DrawOptions options;
  options.transform = skeleton.skeleton_transform();
  options.cull_bounds = skeleton.cull_bounds();
  options.tint = skeleton.modulate();
  render::SkeletonRenderer& renderer = instances_->renderer();
  const std::uint32_t culled_before = renderer.stats().skeletons_culled;
  if (Status s = renderer.draw(*instance, *pose, options); !s)
    return Unexpected{Error{{}, {}, {}, skeleton.path() + ": " + s.error().to_string()}};
  const bool culled = renderer.stats().skeletons_culled != culled_before;
  skeleton.set_was_culled(culled);
  ++(culled ? stats_.culled : stats_.drawn);
  return {};
}

}  // namespace mf::scene
