#pragma once
// Internal: end_frame's recording, into the frame slot's command buffer:
//   1. an execution barrier (the last frame's vertex shaders read the buffer this frame's skinning
//      writes), the sprites' CPU vertices copied and the skinning dispatch, then a barrier making
//      them vertex input and vertex shader storage (the next frame's previous vertices);
//   2. the shadow pass (with a sun that casts shadows and a caster queued): depth only, casters
//      alpha-tested unless opaque;
//   3. the depth prepass: depth, object IDs and motion vectors of every item but Blend materials;
//      sprites through the biased pipeline;
//   4. the main pass into the target: opaque and cutout items grouped by pipeline, then Blend items
//      back to front by the view depth of their sort point, ties in draw order.
// Timestamps (when the frame has a query pool) bracket the four parts.

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "../frame_list.hpp"
#include "draw_list.hpp"
#include "frame_block.hpp"
#include "mf/core/expected.hpp"
#include "mf/core/math/color.hpp"
#include "mf/core/math/mat4.hpp"
#include "mf/render/forward/camera.hpp"
#include "mf/render/forward/lights.hpp"
#include "mf/render/forward/mesh_vertex.hpp"
#include "mf/render/forward_renderer.hpp"
#include "mf/render/frame_ring.hpp"

namespace mf::render::detail {

class ForwardPipelines;
class SkinningPass;
struct SkinningInputs;
struct TargetImages;
struct ShadowMap;

inline constexpr std::uint32_t kTimestampsPerFrame = 8;  // begin and end of skinning, shadow, prepass, main

// An axis-aligned world box grown by corners (the shadow fit's casters and receivers).
struct WorldBox {
  Vec3 lo, hi;
  bool empty = true;
  void grow(const std::array<Vec3, 8>& corners);
};

// The sun's orthographic view-projection looking along `direction` (where the light travels): across
// the light, fitted around the casters' box (a large receiver does not spread the map's texels);
// along it, around the casters and the receivers (`everything`), so every receiver's depth is in the
// map's range. `depth_bias` is the shader's comparison bias in that range's units: a fixed fraction
// of the casters' depth extent, whatever the receivers add.
struct SunFit {
  Mat4 view_projection;
  float depth_bias = 0;
};
SunFit fit_sun_projection(Vec3 direction, const WorldBox& casters, const WorldBox& everything);

// The frame block of a frame: cameras, lights, target size, flags. `sun` is used when `shadows` is
// set.
ForwardFrameBlock make_frame_block(const ForwardFrame& frame, std::span<const PointLight3D> points, const Mat4& view_projection,
                                   const Mat4& previous_view_projection, const SunFit& sun, bool shadows,
                                   int width, int height, std::uint32_t shadow_map_size);

// The sprites' part of a frame (empty: no sprites).
struct SpriteRecording {
  SkinningPass* skinning = nullptr;
  const SkinningInputs* inputs = nullptr;
  std::span<const MeshVertex> cpu_vertices;
  std::uint32_t cpu_vertex_offset = 0;     // in vertices: ForwardOptions::max_gpu_vertices
  std::span<const std::uint32_t> indices;  // the items with indices == VK_NULL_HANDLE point into these
};

struct FrameRecording {
  FrameSlot* slot = nullptr;
  const ForwardPipelines* pipelines = nullptr;
  const TargetImages* images = nullptr;
  const ShadowMap* shadow = nullptr;
  VkBuffer vertex_buffer = VK_NULL_HANDLE;  // the slot's sprite vertex buffer
  const ForwardFrameBlock* block = nullptr;
  bool shadow_pass = false;
  ColorF clear;                              // straight alpha
  Camera camera;
  VkQueryPool timestamps = VK_NULL_HANDLE;  // kTimestampsPerFrame queries, or none
  VkDeviceSize uniform_align = 256, storage_align = 256;  // the device's minimum offset alignments
  SpriteRecording sprites;
};

// Sorts and records; its lists keep their capacity from frame to frame.
class ForwardRecorder {
 public:
  // Allocates the frame's uploads and records it. Records nothing and fails when the uploads exceed
  // the slot's upload range.
  Status record(const FrameRecording& frame, const ForwardDraws& draws, ForwardStats& stats);

 private:
  struct BlendEntry {
    float depth;
    std::uint32_t order;
    std::uint32_t item;
  };
  FrameList<std::uint32_t> opaque_;
  FrameList<BlendEntry> blend_;
};

}  // namespace mf::render::detail
