#pragma once
// CanvasDrawer: the drawing step of a 2D scene. Between SkeletonRenderer::begin_frame and end_frame,
// draw(root) queues every Skeleton2D under `root` in tree order (pre-order: parents behind their
// children, earlier siblings behind later ones) with its skeleton transform (flips included), its
// modulate as the tint and its cull bounds (the playing clips' conservative bounds), and tells each node whether this frame culled
// it (Skeleton2D::set_was_culled), which the node's Offscreen mode reads on its next tick.
//
// The drawer keeps the renderer's per-data and per-node state: a data is added the first time a node
// shows it (decoding and uploading its pages: a load-time cost on that frame) and an instance per
// node; instances of nodes not met by a draw() are removed at the end of that draw, and data no node
// shows any more with them. A frame allocates nothing once every node and data has been seen.

#include <cstdint>
#include <memory>

#include "mf/core/expected.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/scene/node.hpp"

namespace mf::scene {

namespace detail {
template <class Renderer>
class RendererInstances;
}

class Skeleton2D;

struct DrawStats {
  std::uint32_t drawn = 0;
  std::uint32_t culled = 0;
};

class CanvasDrawer {
 public:
  explicit CanvasDrawer(render::SkeletonRenderer& renderer);
  ~CanvasDrawer();
  CanvasDrawer(const CanvasDrawer&) = delete;
  CanvasDrawer& operator=(const CanvasDrawer&) = delete;

  // Queues the skeletons under `root` (root included) into the renderer's current frame. Nodes
  // without data are skipped. An error (from the renderer, naming the node) stops the walk.
  Status draw(Node& root);
  const DrawStats& stats() const { return stats_; }

 private:
  Status visit(Node& node);
  Status draw_skeleton(Skeleton2D& skeleton);

  std::unique_ptr<detail::RendererInstances<render::SkeletonRenderer>> instances_;
  DrawStats stats_;
};

}  // namespace mf::scene
