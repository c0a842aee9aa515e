#pragma once
// ForwardRenderer: a small forward 3D renderer. Meshes with materials and skeleton sprites
// (SkeletonSprite3D's drawing) are ordinary surfaces in every pass.
//
// Per frame: begin_frame(target, frame) → draw_mesh / draw_sprite → end_frame(). end_frame records,
// in one command buffer of the frame ring:
//   1. the compute skinning pass (the canvas's SkinningPass and shader, 3D output: MeshVertex), one
//      dispatch for every sprite of the frame, then a barrier (compute write → vertex read);
//   2. the shadow pass: the directional light's depth map, fitted across the light to the casters;
//      casters alpha-tested (Cutout, Blend and sprites at their cutoff), so a sprite's shadow has its
//      art's silhouette, not its quads;
//   3. the depth prepass: depth, object IDs (R32_UINT) and motion vectors (RG16F, pixels) for every
//      opaque, cutout and sprite surface (sprites cut out at their cutoff, their depth biased away so
//      that a sprite's coplanar slots all pass against it); Blend materials stay out of it: they
//      hide nothing behind them and are not pickable;
//   4. the main pass: opaque surfaces lit (Blinn-Phong, ambient, the shadow map with 3×3 PCF, up to
//      8 point lights), then Blend surfaces and sprites sorted back to front, ties kept in the order
//      drawn (a sprite's runs keep their draw order).
// Every pipeline is created by create(); a frame creates none (stats().pipelines_created_this_frame).
//
// Colour: like the canvas, the renderer works on the stored (sRGB-encoded) values and writes
// premultiplied alpha into the target (RGBA8 UNORM); ForwardFrame::tonemap applies the ACES filmic
// curve (Narkowicz's fit) to lit colour before output, off for a 2D-identical result.
// The design, passes and vertex layout are in docs/rendering-3d.md.

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/core/math/mat4.hpp"
#include "mf/render/forward/camera.hpp"
#include "mf/render/forward/lights.hpp"
#include "mf/render/forward/material.hpp"
#include "mf/render/forward/mesh_data.hpp"
#include "mf/render/forward/sprite_draw.hpp"
#include "mf/render/handles.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/skel/skeleton_data.hpp"
#include "mf/skel/skeleton_pose.hpp"

namespace mf::render {

class Device;
class GpuMemory;

struct ForwardOptions {
  std::uint32_t max_gpu_vertices = 1u << 18;     // skinned sprite vertices per frame
  std::uint32_t max_cpu_vertices = 1u << 16;     // CPU-path sprite vertices per frame (clipped slots)
  std::uint32_t max_static_vertices = 1u << 18;  // over all skeleton data added and not removed
  std::uint32_t max_static_influences = 1u << 19;
  std::uint32_t max_draws = 1u << 14;            // draw records per frame (a mesh: 1; a sprite: 1)
  VkDeviceSize upload_bytes_per_slot = VkDeviceSize{16} << 20;
  std::uint32_t shadow_map_size = 2048;
  bool timestamps = false;                       // GPU time per pass (last_pass_timings)
};

struct ForwardFrame {
  Camera camera;
  SceneLights lights;
  ColorF clear{0, 0, 0, 1};  // straight alpha
  bool tonemap = true;
};

struct ForwardStats {
  std::uint32_t sprites_drawn = 0, sprites_culled = 0;
  std::uint32_t meshes_drawn = 0, meshes_culled = 0;
  std::uint32_t shadow_draws = 0, prepass_draws = 0, main_draws = 0;  // draw calls per pass
  std::uint32_t dispatches = 0;
  std::uint32_t gpu_vertices = 0;   // written by the skinning pass
  std::uint32_t cpu_vertices = 0;   // sprites' clipped slots
  std::uint32_t run_rebuilds = 0;   // sprite instances whose cached runs were rebuilt this frame
  std::uint32_t pipelines_created_this_frame = 0;
  std::uint64_t pipelines_created_total = 0;
};

// GPU milliseconds of each part of a finished frame (ForwardOptions::timestamps).
struct PassTimings {
  double skinning_ms = 0, shadow_ms = 0, prepass_ms = 0, main_ms = 0;
};

class ForwardRenderer {
 public:
  static Expected<std::unique_ptr<ForwardRenderer>> create(Device& device, GpuMemory& memory, const ForwardOptions& options = {});
  ~ForwardRenderer();
  ForwardRenderer(const ForwardRenderer&) = delete;
  ForwardRenderer& operator=(const ForwardRenderer&) = delete;

  // Uploads a mesh (waits for the GPU). Errors name what is wrong (no triangles, an index out of range).
  Expected<MeshHandle> add_mesh(const MeshData& mesh);
  // Uploads the material's textures (waits for the GPU). The images may be freed afterwards.
  Expected<MaterialHandle> add_material(const Material& material);
  // A skeleton's static data and pages, as SkeletonRenderer::add_data; the data must outlive the
  // renderer or its remove_data.
  Expected<DataHandle> add_data(const skel::SkeletonData& data);
  // A sprite instance: its cached runs and, for motion vectors, where its last frame's vertices were.
  Expected<InstanceHandle> add_instance(DataHandle data);
  // Removals follow SkeletonRenderer's rules: stale handles are errors, GPU resources are freed once
  // no frame in flight can use them, data (and meshes, materials) in use by live instances cannot go.
  Status remove_instance(InstanceHandle instance);
  Status remove_data(DataHandle data);
  Status remove_mesh(MeshHandle mesh);
  Status remove_material(MaterialHandle material);

  // Starts a frame drawing into `target` (which must outlive end_frame). At most kMaxPointLights3D
  // point lights.
  Status begin_frame(RenderTarget& target, const ForwardFrame& frame);
  // Queues a mesh. `previous_transform` is its transform in the previous frame (motion vectors);
  // empty: the same as now. `object_id` 0 is not pickable. Meshes outside the view are culled.
  Status draw_mesh(MeshHandle mesh, MaterialHandle material, const Mat4& transform, std::uint32_t object_id = 0,
                   std::optional<Mat4> previous_transform = {});
  // Queues a skeleton sprite (its pose must have up-to-date world transforms). Culled by its bounds
  // through the model matrix against the camera's frustum.
  Status draw_sprite(InstanceHandle instance, const skel::SkeletonPose& pose, const SpriteDrawOptions& options);
  // Records the frame (skinning, shadow, prepass, main pass) and submits it.
  Status end_frame();

  // Of the last ended frame (these wait for the GPU): the object ID at target pixel (x, y), nothing
  // where no pickable surface is; and the motion vectors, width × height × 2 floats (x, y) in pixels,
  // this frame's position minus the previous frame's (+x right, +y down), 0 where nothing was drawn.
  Expected<std::optional<std::uint32_t>> pick(int x, int y);
  Expected<std::vector<float>> read_motion_vectors();

  const ForwardStats& stats() const { return stats_; }
  std::optional<PassTimings> last_pass_timings() const;
  Status wait_idle();

 private:
  ForwardRenderer() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  ForwardStats stats_;
};

}  // namespace mf::render
