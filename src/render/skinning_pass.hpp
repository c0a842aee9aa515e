#pragma once
// Internal: SkinningPass, the compute skinning pass (shaders/skin.comp), for any consumer that
// draws skinned vertices. It owns the static arenas (influences and vertices, laid out as
// skinning_layout.hpp says) and, per frame, records one dispatch over a job list (chunks of ≤ 64
// vertices: {palette offset, vertex start, count, output offset, slot record, deform offset}, so big
// and small attachments balance) that writes vertex records into a vertex buffer the consumer owns:
// CanvasVertex for the canvas, MeshVertex for the 3D renderer (Options::output, a specialization of
// the one shader). It knows nothing of what reads them: the consumer records the barrier from the
// compute write to its own read (SkeletonRenderer's canvas pass does; ForwardRenderer does the same).

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "mf/core/expected.hpp"
#include "mf/render/frame_ring.hpp"
#include "mf/render/gpu_buffer.hpp"
#include "mf/render/shader_module.hpp"
#include "mf/render/upload_ring.hpp"
#include "range_allocator.hpp"
#include "skinning_layout.hpp"

namespace mf::render {
class Device;
class GpuMemory;
}  // namespace mf::render

namespace mf::render::detail {

// A consumer's share of the static arenas: absolute arena indices, which its GpuVertex::first and
// its jobs' vertex_start and influence_base use.
struct StaticRange {
  std::uint32_t influence_base = 0, influence_count = 0;
  std::uint32_t vertex_base = 0, vertex_count = 0;
};

// One frame's inputs, as the consumer gathered them.
struct SkinningInputs {
  std::span<const float> palette;  // 2×3 per bone, the consumer's instance transform applied
  std::span<const SlotRecord> slots;
  std::span<const float> deform;
  std::span<const SkinJob> jobs;
};

// The inputs copied into a frame slot's upload ring, ready to record.
struct StagedSkinning {
  UploadSpan palette, slots, deform, jobs;
  std::uint32_t job_count = 0;
};

class SkinningPass {
 public:
  struct Options {
    std::uint32_t max_static_influences = 0, max_static_vertices = 0;
    bool timestamps = false;  // measure each dispatch (last_gpu_ms)
    // Canvas: CanvasVertex (2D, 28 bytes); Mesh: MeshVertex (40 bytes; z from the slot record's pad0).
    enum class VertexOutput { Canvas, Mesh } output = VertexOutput::Canvas;
  };
  static Expected<std::unique_ptr<SkinningPass>> create(Device& device, GpuMemory& memory, const Options& options);
  ~SkinningPass();
  SkinningPass(const SkinningPass&) = delete;
  SkinningPass& operator=(const SkinningPass&) = delete;

  // Static data: ranges of the arenas (first fit; nothing when they do not fit), filled once by
  // upload_static (waits for the GPU). free_static gives a range back: the caller frees it only once
  // no frame that may read it is in flight, since the range is reused by later allocations.
  std::optional<StaticRange> allocate_static(std::uint32_t influences, std::uint32_t vertices);
  Status upload_static(const StaticRange& range, std::span<const GpuInfluence> influences,
                       std::span<const GpuVertex> vertices);
  void free_static(const StaticRange& range);

  // Per frame: stage() copies the inputs into the frame slot's upload ring (nothing when they do not
  // fit); record() records the dispatch writing `output` (a vertex at each job's out_start) on
  // frame slot `frame_slot`'s descriptor set. It records nothing without jobs and returns whether it
  // dispatched.
  std::optional<StagedSkinning> stage(UploadRing& uploads, const SkinningInputs& inputs) const;
  bool record(VkCommandBuffer cmd, int frame_slot, const StagedSkinning& staged, VkBuffer output);
  // After the frame slot's fence: reads the timing of the dispatch it last recorded there.
  void collect_timing(int frame_slot);
  std::optional<double> last_gpu_ms() const { return gpu_ms_; }

 private:
  SkinningPass() = default;
  Status create_layouts();
  Status create_pipeline(Options::VertexOutput output);
  Status create_sets();
  void write_inputs(int frame_slot, const StagedSkinning& staged, VkBuffer output);

  Device* device_ = nullptr;
  GpuMemory* memory_ = nullptr;
  GpuBuffer influence_arena_, vertex_arena_;
  RangeAllocator influence_ranges_, vertex_ranges_;
  ShaderModule shader_;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  std::array<VkDescriptorSet, kFrameSlots> sets_{};
  std::array<VkBuffer, kFrameSlots> bound_output_{};  // binding 6 as last written on each slot's set
  VkQueryPool queries_ = VK_NULL_HANDLE;
  std::array<bool, kFrameSlots> queries_written_{};
  std::optional<double> gpu_ms_;
};

}  // namespace mf::render::detail
