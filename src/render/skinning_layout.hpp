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
// pad0: the 3D output's z (float bits; the slot's depth offset), unused by the canvas output.
struct SlotRecord {
  float u0, v0, du, dv;
  std::uint32_t light, dark;
  std::uint32_t pad0, pad1;
};
static_assert(sizeof(SlotRecord) == 32);

// A colour as the vertices' RGBA8 (r in the low byte): lround(clamp(v, 0, 1) × 255) per channel
// without the library call (tens of thousands a frame). The float product is below 256, so adding
// 0.5 in double is exact and truncation rounds half away from zero like lround; NaN gives 0.
inline std::uint8_t unit_to_byte(float v) {
  const float scaled = (v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f) * 255.0f;
  return static_cast<std::uint8_t>(static_cast<std::uint32_t>(static_cast<double>(scaled) + 0.5));
}
inline std::uint32_t pack_rgba8(float r, float g, float b, float a) {
  return static_cast<std::uint32_t>(unit_to_byte(r)) | static_cast<std::uint32_t>(unit_to_byte(g)) << 8 |
         static_cast<std::uint32_t>(unit_to_byte(b)) << 16 | static_cast<std::uint32_t>(unit_to_byte(a)) << 24;
}

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
