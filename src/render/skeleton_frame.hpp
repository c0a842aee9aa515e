#pragma once
// Internal: SkeletonFrame, the frame being recorded between begin_frame and end_frame: the frame
// block, and what each draw() appends: the skinning pass's inputs (palette, slot records, deform
// floats, jobs), the CPU path's vertices and the canvas pass's indices and draws. Every list keeps
// its capacity from frame to frame, so nothing allocates once the first frames have grown them.

#include <cstdint>
#include <optional>
#include <span>

#include "canvas_batches.hpp"
#include "frame_list.hpp"
#include "instance_runs.hpp"
#include "mf/render/canvas_vertex.hpp"
#include "mf/render/frame_ring.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "skinning_layout.hpp"
#include "skinning_pass.hpp"

namespace mf::render::detail {

class SkeletonFrame {
 public:
  // Starts a frame on `slot` (after its fence) drawing into `target`: writes the frame block first
  // in the slot's upload ring and hands the ring's free space after it to the indices.
  void begin(FrameSlot& slot, std::uint64_t slot_use, RenderTarget& target, const View& view, Color clear,
             std::span<const PointLight> lights, Color ambient, VkDeviceSize uniform_align);
  bool recording() const { return slot_ != nullptr; }
  // Ends recording (whatever end_frame then does with the lists).
  void finish() {
    slot_ = nullptr;
    target_ = nullptr;
  }

  // A skeleton through the skinning pass: its cached runs (refreshed), its palette, slot records,
  // deform floats and jobs, and its indices (clipped items through its CPU clipping buffers).
  Status queue_gpu(InstanceRuns& instance, const skel::SkeletonPose& pose, const DrawOptions& options,
                   const RendererOptions& limits, RenderStats& stats);
  // A skeleton skinned on the CPU (mf::skel::CpuVertices), every attachment.
  Status queue_cpu(InstanceRuns& instance, const skel::SkeletonPose& pose, const DrawOptions& options,
                   const RendererOptions& limits, RenderStats& stats);

  FrameSlot& slot() const { return *slot_; }
  RenderTarget& target() const { return *target_; }
  const View& view() const { return view_; }
  Color clear() const { return clear_; }
  const std::optional<UploadSpan>& frame_block() const { return frame_block_; }
  SkinningInputs skinning_inputs() const;
  std::span<const CanvasVertex> cpu_vertices() const { return {cpu_vertices_.data(), cpu_vertices_.size()}; }
  const CanvasBatches& batches() const { return batches_; }

 private:
  // Per queue_gpu call: what its items share.
  struct GpuDraw {
    InstanceRuns& instance;
    const skel::SkeletonPose& pose;
    const DrawOptions& options;
    std::uint32_t palette_offset, base;
    bool in_place;                 // the indices are where the previous frame on this slot left them
    bool cpu_updated = false;      // the instance's CPU clipping buffers hold this pose
    std::size_t clipped_cursor = 0;
  };
  std::uint32_t append_palette(const skel::SkeletonPose& pose, const Affine2& t);
  Status queue_clipped(GpuDraw& draw, const CachedItem& item, std::uint32_t light, std::uint32_t dark, const RendererOptions& limits,
                       RenderStats& stats);
  void queue_skinned(GpuDraw& draw, const CachedItem& item, std::uint32_t light, std::uint32_t dark);

  FrameSlot* slot_ = nullptr;
  std::uint64_t slot_use_ = 0;  // frames begun on this slot, this one included
  RenderTarget* target_ = nullptr;
  View view_;
  Color clear_;
  std::optional<UploadSpan> frame_block_;
  FrameList<float> palette_;
  FrameList<SlotRecord> slot_records_;
  FrameList<float> deform_;
  FrameList<SkinJob> jobs_;
  FrameList<CanvasVertex> cpu_vertices_;
  CanvasBatches batches_;
  std::uint32_t gpu_vertex_count_ = 0;
};

}  // namespace mf::render::detail
