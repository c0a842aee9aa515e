#pragma once
// Internal: what ForwardRenderer's passes draw. Every draw_mesh and draw_sprite appends one
// DrawRecord (the per-draw data the shaders read from the frame's record buffer, indexed by a push
// constant) and one or more DrawItems (an indexed draw with its pipeline key and material set; a
// sprite has one item per run). end_frame sorts the items and records each pass from them.

#include <vulkan/vulkan.h>

#include <cstdint>

#include "../frame_list.hpp"
#include "mf/core/math/vec3.hpp"
#include "mf/render/forward/material.hpp"
#include "mf/skel/rig_modes.hpp"

namespace mf::render::detail {

// DrawRecord::flags.
enum DrawFlag : std::uint32_t {
  kDrawShaded = 1u << 0,            // lit; otherwise the colour as is
  kDrawDoubleSided = 1u << 1,       // back faces drawn (and lit with the flipped normal)
  kDrawPreviousVertices = 1u << 2,  // the previous position is read from the previous frame's skinned vertices
  kDrawReceivesShadows = 1u << 3,
  kDrawSpritePlane = 1u << 4,       // single-sided by the plane's facing (+Z in object space), not by winding
};

// std430, in the frame's record buffer (set 1, binding 1); shaders/forward_frame.glsl mirrors it.
struct DrawRecord {
  float model[16];           // object → world, column-major
  float previous_model[16];  // the same, last frame
  float normal_matrix[12];   // inverse-transpose of model's 3×3, three vec4 columns (xyz used)
  float base_color[4];       // straight alpha; multiplies texel × vertex light colour
  float alpha_cutoff;        // Cutout: discard below; Blend: the shadows'; sprites: the depth passes' cutoff
  float specular, shininess;
  std::uint32_t object_id;   // 0: none
  std::uint32_t flags;       // DrawFlag
  std::int32_t previous_vertex_delta;  // previous position: previous_vertices[gl_VertexIndex + delta]
  std::uint32_t pad0, pad1;
};
static_assert(sizeof(DrawRecord) == 64 + 64 + 48 + 16 + 32);

// The pipeline an item draws with: alpha mode, blend (Blend only), normal-mapped, back faces culled.
struct DrawKey {
  AlphaMode alpha = AlphaMode::Opaque;
  skel::BlendMode blend = skel::BlendMode::Normal;
  bool normal_map = false;
  bool cull_back = false;
  friend bool operator==(const DrawKey&, const DrawKey&) = default;
};

struct DrawItem {
  DrawKey key;
  std::uint32_t record = 0;             // index into the frame's DrawRecords
  VkDescriptorSet material = VK_NULL_HANDLE;  // set 0: albedo (binding 0) and normal map (binding 1)
  VkBuffer vertices = VK_NULL_HANDLE;   // MeshVertex
  VkDeviceSize vertex_offset = 0;       // bytes
  VkBuffer indices = VK_NULL_HANDLE;    // uint32
  VkDeviceSize index_offset = 0;        // bytes
  std::uint32_t index_count = 0;
  std::int32_t base_vertex = 0;         // added to every index (gl_VertexIndex includes it)
  Vec3 sort_point;                      // world point the transparent sort measures (a sprite's: its origin)
  std::uint32_t order = 0;              // draw order: ties in the transparent sort keep it (set by ForwardDraws)
  bool casts_shadow = true;
  bool in_depth_passes = true;          // drawn in the prepass (depth, IDs, motion)
  bool sprite = false;                  // a skeleton sprite's run: its prepass depth is biased away (coplanar slots)
};

// The frame's records and items; lists keep their capacity from frame to frame.
struct ForwardDraws {
  FrameList<DrawRecord> records;
  FrameList<DrawItem> items;

  void clear() {
    records.clear();
    items.clear();
  }
  std::uint32_t add_record(const DrawRecord& record) {
    records.push_back(record);
    return static_cast<std::uint32_t>(records.size() - 1);
  }
  void add_item(DrawItem item) {
    item.order = static_cast<std::uint32_t>(items.size());
    items.push_back(item);
  }
};

}  // namespace mf::render::detail
