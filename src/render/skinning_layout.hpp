#pragma once
// Internal: the records the skinning shader (shaders/skin.comp) and the canvas shaders read, laid out
// for std430 / std140. Kept in one place so the C++ writers and the GLSL readers cannot drift apart.

#include <cstdint>

namespace mf::render::detail {

// Static, once per SkeletonData (in the skinning pass's influence arena): [bone, weight, x, y].
struct GpuInfluence {
  std::int32_t bone;  // the data's bone index; the job's palette offset makes it a palette entry
  float weight, x, y;
};
static_assert(sizeof(GpuInfluence) == 16);

// Static, once per SkeletonData (in the skinning pass's vertex arena): where the vertex's influences
// are (absolute arena index), its 0…1 image UV and its +u direction in its first influence's bone
// space.
struct GpuVertex {
  std::uint32_t first, count;
  float u, v;
  float tx, ty;
};
static_assert(sizeof(GpuVertex) == 24);

// Per frame: a chunk of ≤ 64 vertices of one attachment of one skeleton (one workgroup).
struct SkinJob {
  std::uint32_t palette;       // first palette entry of the skeleton
  std::uint32_t vertex_start;  // into the vertex arena
  std::uint32_t count;         // 1 … kSkinChunk
  std::uint32_t out_start;     // output vertex index
  std::uint32_t slot;          // slot record index
  std::int32_t deform_base;    // deform float of influence j: deform_base + 2·(j − influence_base)
  std::uint32_t influence_base;
  std::uint32_t has_deform;
};
static_assert(sizeof(SkinJob) == 32);
inline constexpr std::uint32_t kSkinChunk = 64;

// Per frame and drawn attachment: the region rectangle its 0…1 UVs map into and its colours.
struct SlotRecord {
  float u0, v0, du, dv;
  std::uint32_t light, dark;
  std::uint32_t pad0, pad1;
};
static_assert(sizeof(SlotRecord) == 32);

// The frame block (std140) shared by the canvas shaders: shaders/frame.glsl.
struct FrameLight {
  float x, y, height, range;
  float r, g, b, unused;
};
struct FrameBlock {
  float view[4];     // canvas x, y of the top-left, 2 / width, 2 / height
  float ambient[4];
  std::int32_t counts[4];
  FrameLight lights[8];
};
static_assert(sizeof(FrameBlock) == 48 + 8 * 32);

}  // namespace mf::render::detail
