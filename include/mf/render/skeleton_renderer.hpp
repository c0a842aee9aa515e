#pragma once
// SkeletonRenderer: draws skeleton poses into an offscreen RGBA8 target with Vulkan.
//
// Per frame: begin_frame(target, view, clear, lights, ambient) → draw(instance, pose, options) for
// each skeleton → end_frame(). end_frame records, in one command buffer of the frame ring:
//   1. one compute dispatch of the skinning pass (src/render/skinning_pass.hpp, a component of its
//      own that knows nothing of the canvas pass), skinning every GPU-skinned attachment of every
//      drawn skeleton (a job list of chunks of ≤ 64 vertices: {palette offset, vertex start, count,
//      output offset, slot record, deform offset}, so big and small attachments balance), writing
//      CanvasVertex (canvas layout + dark colour + tangent) into the frame slot's vertex buffer;
//   2. one barrier (compute shader write → vertex attribute read);
//   3. the canvas pass: one indexed draw per batch of runs sharing (page, blend, lit variant, vertex
//      source). Runs are cached per instance and rebuilt only when the draw order, the shown
//      attachments or their pages change (src/render/instance_runs.hpp); consecutive runs from
//      different skeletons with the same key merge into one draw (their indices are rebased into the
//      frame's index ring: src/render/canvas_batches.hpp).
// The recording itself is src/render/frame_recording.cpp; what a draw() appends for it,
// src/render/skeleton_frame.hpp.
//
// Decisions (see also the shaders under src/render/shaders):
// - Gamma space. Pages (straight alpha) and the target are UNORM and blending happens on the
//   stored values, as 2D tools (Spine's editor, Godot 2D) show blend modes.
// - Two-colour tint, with straight texel colour s and alpha a, light colour L (slot × attachment ×
//   instance tint) and dark colour D (0 without one): c = s × L.rgb + (1 − s) × D.rgb; then lighting
//   (c × (ambient + Σ lights)), then premultiplied output (c × a × L.a, a × L.a).
// - Blend modes on the premultiplied output: Normal (ONE, 1−SRC_ALPHA), Additive (ONE, ONE),
//   Multiply (DST_COLOR, 1−SRC_ALPHA), Screen (ONE, 1−SRC_COLOR). Alpha always blends
//   (ONE, 1−SRC_ALPHA), so the target's alpha is the coverage of everything drawn.
// - The target holds premultiplied colour; read_back() gives straight alpha by default (what PNG
//   files and mf::imaging::Image hold) or the premultiplied bytes as stored.
// - Lights: ambient (default white, i.e. unlit) plus point lights with N·L. The light vector is
//   (light.xy − fragment.xy, height) in canvas pixels, normalised; attenuation is
//   (1 − distance/range) clamped to [0, 1] with the 2D distance; contribution
//   colour × energy × attenuation × max(N·L, 0). Without a normal page the normal is (0, 0, 1)
//   ("lit flat"). Normal pages hold tangent-space normals (x along +u, y along −v, i.e. up on the
//   image, z towards the viewer) encoded as n × 0.5 + 0.5; the skinning pass writes the +u direction
//   in canvas space, the bitangent is that direction turned 90° (mirrored attachments flip y).
// - The tangent of a vertex is its static bone-space +u direction carried by its first influence's
//   bone: exact for regions and unweighted meshes, an approximation for weighted meshes.
// - Clipped slots (inside a clipping range) take the CPU path (mf::skel::CpuVertices) and are drawn
//   in draw order between the GPU runs; their tangent is the attachment's first vertex's.
// - Pipelines: one per (blend mode, lit variant: flat or normal-mapped); the sampler (filter,
//   mipmaps) lives in each data's descriptor set. Every variant a data needs is created when it is
//   added, so a frame never creates a pipeline (stats().pipelines_created_this_frame).
// - Memory: static data (influences, vertices, UVs, tangents, indices, pages) is uploaded once per
//   add_data (src/render/skeleton_gpu_data.hpp) and freed by remove_data once no frame in flight
//   can read it; per frame the palette (2×3 per bone, instance transform applied), slot records,
//   deform floats, jobs, CPU vertices and indices go into the frame slot's upload ring. Nothing
//   allocates on the CPU per frame after the first frames (the per-frame lists keep their capacity).

#include <vulkan/vulkan.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "mf/core/expected.hpp"
#include "mf/core/math/affine2.hpp"
#include "mf/core/math/color.hpp"
#include "mf/imaging/image.hpp"
#include "mf/render/handles.hpp"
#include "mf/skel/clip_data.hpp"
#include "mf/skel/skeleton_data.hpp"
#include "mf/skel/skeleton_pose.hpp"

namespace mf::render {

class Device;
class GpuMemory;

// A 2D affine transform, the SkeletonPose world convention: x' = a·x + b·y + x0, y' = c·x + d·y + y0.
using Affine2 = mf::Affine2;

// Colour with float channels, straight alpha; the same type as a pose's slot colours.
using Color = mf::ColorF;

// A 2D point light in canvas pixels (Y down). `height` lifts it off the canvas plane (the z of the
// light vector); `range` is where its attenuation reaches zero.
struct PointLight {
  float x = 0, y = 0;
  float height = 64;
  float range = 256;
  float energy = 1;
  Color color{1, 1, 1, 1};
};
inline constexpr int kMaxPointLights = 8;

// The canvas rectangle shown in the whole target; culling tests skeletons against it.
struct View {
  float x = 0, y = 0;          // canvas position of the target's top-left corner
  float width = 0, height = 0; // canvas size shown; 0: the target's size (1 canvas pixel = 1 pixel)
};

struct DrawOptions {
  Affine2 transform;                 // skeleton space → canvas
  Color tint{1, 1, 1, 1};            // multiplies every slot's light colour (the node's modulate)
  bool cpu_skinning = false;         // skin every attachment of this skeleton on the CPU (the fallback path)
  std::optional<skel::Bounds> cull_bounds;  // skeleton-space bounds to cull by, e.g. ClipData::bounds of the
                                            // playing clips; empty: the pose's bounds (skel::pose_bounds)
};

struct RenderStats {
  std::uint32_t skeletons_drawn = 0;
  std::uint32_t skeletons_culled = 0;
  std::uint32_t draw_calls = 0;
  std::uint32_t dispatches = 0;                     // compute dispatches (0 or 1 per frame)
  std::uint32_t pipelines_created_this_frame = 0;
  std::uint32_t gpu_vertices = 0;                   // vertices written by the skinning pass
  std::uint32_t cpu_vertices = 0;                   // vertices from the CPU path (clipped slots, cpu_skinning)
  std::uint32_t run_rebuilds = 0;                   // instances whose cached runs were rebuilt this frame
  std::uint64_t pipelines_created_total = 0;
};

struct RendererOptions {
  std::uint32_t max_gpu_vertices = 1u << 18;   // skinned vertices per frame
  std::uint32_t max_cpu_vertices = 1u << 16;   // CPU-path vertices per frame (clipped slots, cpu_skinning)
  std::uint32_t max_static_vertices = 1u << 18;    // over all data added and not removed
  std::uint32_t max_static_influences = 1u << 19;  // over all data added and not removed
  VkDeviceSize upload_bytes_per_slot = VkDeviceSize{8} << 20;
  // Proof switches for tests: with `allow_cpu_vertices` false the CPU path is never used (clipped
  // slots are skipped and cpu_skinning is ignored, so stats().cpu_vertices stays 0); with
  // `allow_gpu_skinning` false every skeleton takes the CPU path.
  bool allow_cpu_vertices = true;
  bool allow_gpu_skinning = true;
  // Measures the skinning dispatch with timestamp queries (last_skinning_gpu_ms()).
  bool timestamps = false;
};

// An offscreen colour image (RGBA8 UNORM, premultiplied alpha) the renderer draws into.
class RenderTarget {
 public:
  static Expected<std::unique_ptr<RenderTarget>> create(Device& device, GpuMemory& memory, int width, int height);
  ~RenderTarget();
  RenderTarget(const RenderTarget&) = delete;
  RenderTarget& operator=(const RenderTarget&) = delete;

  int width() const { return width_; }
  int height() const { return height_; }
  VkImage image() const { return image_; }
  VkImageView view() const { return view_; }

  enum class Alpha : std::uint8_t { Straight, Premultiplied };
  // Copies the pixels back (waits for the GPU). Straight: un-premultiplied, as PNG files hold them.
  Expected<imaging::Image> read_back(Alpha alpha = Alpha::Straight);

 private:
  friend class SkeletonRenderer;
  friend class ForwardRenderer;
  friend class Swapchain;
  friend class OverlayPass;
  RenderTarget() = default;
  // A number no other target of the process carries (handles and addresses are reused after a
  // target is destroyed): renderers key what they cache per target by it.
  static std::uint64_t next_serial() {
    static std::atomic<std::uint64_t> counter{0};
    return ++counter;
  }
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::uint64_t serial_ = next_serial();
  Device* device_ = nullptr;
  VkImage image_ = VK_NULL_HANDLE;
  VkImageView view_ = VK_NULL_HANDLE;
  int width_ = 0, height_ = 0;
};

class SkeletonRenderer {
 public:
  static Expected<std::unique_ptr<SkeletonRenderer>> create(Device& device, GpuMemory& memory,
                                                            const RendererOptions& options = {});
  ~SkeletonRenderer();
  SkeletonRenderer(const SkeletonRenderer&) = delete;
  SkeletonRenderer& operator=(const SkeletonRenderer&) = delete;

  // Uploads the data's static arrays and decodes and uploads its pages and normal pages (PNG or
  // RGBA8); creates every pipeline variant it needs. The data must outlive the renderer, or its
  // remove_data. Errors name
  // the page ("<data name>: page <name>: ...") when one cannot be decoded or has no bytes.
  Expected<DataHandle> add_data(const skel::SkeletonData& data);
  // Per-skeleton CPU state: its cached runs and, when the data has clipping attachments, its CPU
  // clipping buffers. Allocates; call outside the frame loop.
  Expected<InstanceHandle> add_instance(DataHandle data);
  // Removes an instance: its CPU state is freed at once (nothing on the GPU is its own). Allowed
  // between frames and inside one (a draw already queued still shows).
  Status remove_instance(InstanceHandle instance);
  // Removes a data. Data that still has instances is not removed: that is an error naming how many
  // remain (remove them first). Its handle is stale at once and its table slot free for the next
  // add_data; its GPU resources (static arena ranges, pages, sampler, descriptor sets) are kept until
  // every frame begun before the removal has finished (found by a later begin_frame, which waits for
  // those frame slots anyway, or by wait_idle; never a wait in remove_data itself), and only then
  // freed and their arena ranges reused. The SkeletonData itself may be destroyed after this call.
  Status remove_data(DataHandle data);

  // Starts a frame drawing into `target` (which must outlive end_frame): waits for the frame slot,
  // clears the per-frame lists. `clear` is straight alpha. At most kMaxPointLights lights.
  Status begin_frame(RenderTarget& target, const View& view, Color clear, std::span<const PointLight> lights = {},
                     Color ambient = {1, 1, 1, 1});
  // Queues a skeleton (its pose must have up-to-date world transforms). Culled skeletons only count.
  Status draw(InstanceHandle instance, const skel::SkeletonPose& pose, const DrawOptions& options = {});
  // Records the dispatch, the barrier and the canvas pass into the frame's target, and submits.
  // The target is then ready to read back (read_back waits for the GPU).
  Status end_frame();

  const RenderStats& stats() const { return stats_; }
  // GPU time of the last measured skinning dispatch in milliseconds (RendererOptions::timestamps),
  // from a frame already finished; nothing before one is.
  std::optional<double> last_skinning_gpu_ms() const;
  // Waits for the GPU to finish every frame in flight (and, between frames, frees the GPU resources of
  // removed data).
  Status wait_idle();

 private:
  SkeletonRenderer() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  RenderStats stats_;
};

}  // namespace mf::render
