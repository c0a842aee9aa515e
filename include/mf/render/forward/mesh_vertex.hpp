#pragma once
// MeshVertex: the one vertex every 3D draw reads (ForwardRenderer): the boxes and planes of a scene,
// and skeleton sprites, whose vertices the compute skinning pass writes in this layout (the 3D
// output of shaders/skin.comp). 32 bytes of mesh data plus the 8-byte skeleton extension (light and
// dark colour), 40 bytes, tightly packed, std430-compatible:
//
//   offset  field     format                 meaning
//   0       x, y, z   3 × float              object-space position (sprites: skeleton pixels, Y down,
//                                            z = the slot's depth offset; the model matrix scales)
//   12      u, v      2 × float              texture coordinates (sprites: atlas page UV)
//   20      normal    2 × snorm16, octahedral the unit normal in object space
//   24      tangent   2 × snorm16, octahedral the unit +u direction in object space; the bitangent
//                                            (+v on the image) as `flags` says
//   28      light     RGBA8 UNORM            straight-alpha colour multiplier (meshes: white)
//   32      dark      RGBA8 UNORM            two-colour tint's dark colour; A = 255 when there is one
//   36      flags     uint32                 MeshVertexFlag bits, the others 0
//
// The bitangent (+v, down the image) is cross(normal, tangent) without kBitangentTangentCrossNormal:
// the skinning output, whose skeleton space (Y down) is mirrored, writes 0. Meshes that are
// right-handed with upright images (v running down them, as make_box and make_plane write) set
// kBitangentTangentCrossNormal: their +v is cross(tangent, normal).
//
// Normal maps hold tangent-space normals (x along +u, y along −v, z out of the surface) encoded as
// n × 0.5 + 0.5, the canvas's convention, so one normal page serves both paths.

#include <cstdint>

#include "mf/core/math/vec3.hpp"

namespace mf::render {

struct MeshVertex {
  float x, y, z;
  float u, v;
  std::uint32_t normal;   // octahedral, two snorm16 (x in the low half)
  std::uint32_t tangent;  // octahedral, two snorm16 (x in the low half)
  std::uint32_t light;    // RGBA8, r in the low byte
  std::uint32_t dark;     // RGBA8, r in the low byte
  std::uint32_t flags;    // MeshVertexFlag bits
};
static_assert(sizeof(MeshVertex) == 40);

// MeshVertex::flags.
enum MeshVertexFlag : std::uint32_t {
  kBitangentTangentCrossNormal = 1u << 0,  // the bitangent (+v) is cross(tangent, normal); clear: cross(normal, tangent)
};

// A unit vector in the octahedral encoding MeshVertex uses, and back (the shaders decode the same).
std::uint32_t encode_octahedral(Vec3 unit);
Vec3 decode_octahedral(std::uint32_t packed);

}  // namespace mf::render
