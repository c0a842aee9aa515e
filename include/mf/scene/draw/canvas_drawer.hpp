#pragma once
// CanvasDrawer: the drawing step of a 2D scene. Between SkeletonRenderer::begin_frame and end_frame,
// draw(root) queues every Skeleton2D under `root` in tree order (pre-order: parents behind their
// children, earlier siblings behind later ones) with its skeleton transform (flips included) and its
// cull bounds (the playing clips' conservative bounds), and tells each node whether this frame culled
// it (Skeleton2D::set_was_culled), which the node's Offscreen mode reads on its next tick.
//
// The drawer keeps the renderer's per-data and per-node state: a data is added the first time a node
// shows it (decoding and uploading its pages: a load-time cost on that frame) and an instance per
// node; instances of nodes not met by a draw() are removed at the end of that draw, and data no node
// shows any more with them. A frame allocates nothing once every node and data has been seen.

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "mf/core/expected.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/scene/node.hpp"
#include "mf/skel/skeleton_data.hpp"

namespace mf::scene {

class Skeleton2D;

struct CanvasDrawStats {
  std::uint32_t drawn = 0;
  std::uint32_t culled = 0;
};

class CanvasDrawer {
 public:
  explicit CanvasDrawer(render::SkeletonRenderer& renderer) : renderer_(&renderer) {}
  ~CanvasDrawer();
  CanvasDrawer(const CanvasDrawer&) = delete;
  CanvasDrawer& operator=(const CanvasDrawer&) = delete;

  // Queues the skeletons under `root` (root included) into the renderer's current frame. Nodes
  // without data are skipped. An error (from the renderer, naming the node) stops the walk.
  Status draw(Node& root);
  const CanvasDrawStats& stats() const { return stats_; }

 private:
  struct InstanceEntry {
    render::InstanceHandle instance;
    const skel::SkeletonData* data = nullptr;
    std::uint64_t frame = 0;  // the draw() that last met it
  };
  struct DataEntry {
    render::DataHandle handle;
    std::shared_ptr<const skel::SkeletonData> data;  // kept alive while the renderer holds it
    std::uint32_t instances = 0;
  };

  Status visit(Node& node);
  Status draw_skeleton(Skeleton2D& skeleton);
  Status collect();

  render::SkeletonRenderer* renderer_;
  std::unordered_map<std::uint64_t, InstanceEntry> instances_;   // by Skeleton2D::serial()
  std::unordered_map<const skel::SkeletonData*, DataEntry> data_;
  std::uint64_t frame_ = 0;
  CanvasDrawStats stats_;
};

}  // namespace mf::scene
