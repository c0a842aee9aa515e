#pragma once
// Internal: SpriteFrame, the sprites of the frame being recorded (ForwardRenderer::draw_sprite):
// for each sprite its palette (pose world transforms, no instance transform: the skinning pass
// writes skeleton pixels, the model matrix does the rest), slot records (colours, the region
// rectangle, z = draw position × slot_depth_offset in the record's pad0), deform floats and
// skinning jobs, its CPU-path vertices (clipped slots), its indices (uint32, rebased onto the frame's
// vertex buffer), one DrawRecord and one DrawItem per run of its cached runs (page set, blend).
// Every list keeps its capacity from frame to frame.

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <memory>
#include <span>

#include "../frame_list.hpp"
#include "../instance_runs.hpp"
#include "../skinning_layout.hpp"
#include "../skinning_pass.hpp"
#include "draw_list.hpp"
#include "frustum.hpp"
#include "mf/core/math/mat4.hpp"
#include "mf/render/forward/camera.hpp"
#include "mf/render/forward/mesh_vertex.hpp"
#include "mf/render/forward/sprite_draw.hpp"
#include "mf/render/forward_renderer.hpp"
#include "mf/skel/skeleton_pose.hpp"

namespace mf::render::detail {

// A sprite instance: the canvas's run cache (shared code: instance_runs.hpp) and what motion vectors
// need of its last drawn frame.
struct SpriteInstance {
  std::unique_ptr<InstanceRuns> runs;
  std::uint64_t last_frame = ~std::uint64_t{0};  // frame number it was last drawn in; none yet
  std::uint32_t last_base = 0;                     // its first vertex in that frame's vertex buffer
  std::uint32_t last_version = 0;                  // its runs' version then
  Mat4 last_model;                                 // its model matrix then
};

// Where the frame's sprite vertices go: the frame slot's vertex buffer (skinned vertices first,
// then the CPU path's from cpu_vertex_offset) and the previous frame's buffer.
struct SpriteTargets {
  VkBuffer vertex_buffer = VK_NULL_HANDLE;
  std::uint32_t max_gpu_vertices = 0, max_cpu_vertices = 0;
};

class SpriteFrame {
 public:
  // Starts frame number `frame`; clears the lists.
  void begin(std::uint64_t frame, const Camera& camera, float aspect, const SpriteTargets& targets);

  // Culls the sprite (its bounds through the model matrix against the view-projection's frustum),
  // else refreshes its runs and appends its skinning inputs, indices, DrawRecord and DrawItems to
  // `draws`. Culled sprites only count (stats.sprites_culled).
  Status queue(SpriteInstance& instance, const skel::SkeletonPose& pose, const SpriteDrawOptions& options,
               const ForwardOptions& limits, ForwardDraws& draws, ForwardStats& stats);

  SkinningInputs skinning_inputs() const;
  std::span<const MeshVertex> cpu_vertices() const { return {cpu_vertices_.data(), cpu_vertices_.size()}; }
  // The frame's sprite indices (uint32, already rebased onto the frame's vertex buffer). Sprite
  // items are queued with `indices` = VK_NULL_HANDLE and `index_offset` in bytes from the start of
  // this list; end_frame copies the list into the frame slot's upload ring and points those items at it.
  std::span<const std::uint32_t> indices() const { return {indices_.data(), indices_.size()}; }

 private:
  // Per queue call: what its items share.
  struct SpriteDraw {
    InstanceRuns& runs;
    const skel::SkeletonPose& pose;
    std::uint32_t palette_offset, base;
    std::size_t clipped_cursor = 0;  // into the instance's CpuVertices::drawn()
  };
  bool culled(const skel::SkeletonPose& pose, const SpriteDrawOptions& options, const Mat4& model) const;
  std::uint32_t append_palette(const skel::SkeletonPose& pose);
  void queue_skinned(SpriteDraw& draw, const CachedItem& item, std::uint32_t light, std::uint32_t dark, float z);
  void queue_clipped(SpriteDraw& draw, const CachedItem& item, std::uint32_t light, std::uint32_t dark, float z,
                     const ForwardOptions& limits);

  std::uint64_t frame_ = 0;
  Camera camera_;
  float aspect_ = 1;
  Mat4 view_projection_;
  Frustum frustum_;
  SpriteTargets targets_;
  FrameList<float> palette_;
  FrameList<SlotRecord> slot_records_;
  FrameList<float> deform_;
  FrameList<SkinJob> jobs_;
  FrameList<MeshVertex> cpu_vertices_;
  FrameList<std::uint32_t> indices_;
  std::uint32_t gpu_vertex_count_ = 0;
};

}  // namespace mf::render::detail
