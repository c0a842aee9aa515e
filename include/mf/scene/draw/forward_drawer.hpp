#pragma once
// ForwardDrawer: the drawing step of a 3D scene's skeletons. Between ForwardRenderer::begin_frame and
// end_frame, draw(root) queues every SkeletonSprite3D under `root` with its sprite options
// (SkeletonSprite3D::sprite_options: transform, pixel size, billboard, shading, alpha cutoff, slot
// depth offset, object id, the playing clips' cull bounds) and tells each whether the frame's frustum
// culling dropped it (set_was_culled), for its Offscreen mode. The renderer's per-data and per-node
// state is kept as CanvasDrawer keeps it.

#include <memory>

#include "mf/core/expected.hpp"
#include "mf/render/forward_renderer.hpp"
#include "mf/scene/draw/canvas_drawer.hpp"
#include "mf/scene/node.hpp"

namespace mf::scene {

class SkeletonSprite3D;

class ForwardDrawer {
 public:
  explicit ForwardDrawer(render::ForwardRenderer& renderer);
  ~ForwardDrawer();
  ForwardDrawer(const ForwardDrawer&) = delete;
  ForwardDrawer& operator=(const ForwardDrawer&) = delete;

  Status draw(Node& root);
  const DrawStats& stats() const { return stats_; }

 private:
  Status visit(Node& node);
  Status draw_sprite(SkeletonSprite3D& sprite);

  std::unique_ptr<detail::RendererInstances<render::ForwardRenderer>> instances_;
  DrawStats stats_;
};

}  // namespace mf::scene
