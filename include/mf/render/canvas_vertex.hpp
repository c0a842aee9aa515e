#pragma once
// CanvasVertex: the vertex the canvas pass draws, as the skinning pass writes it (and as the CPU
// skinning fallback fills it): the canvas layout (position, UV, colour: 20 bytes) plus the 8-byte
// skeleton extension (dark colour, tangent). 28 bytes, tightly packed, std430-compatible.

#include <cstdint>

namespace mf::render {

struct CanvasVertex {
  float x, y;             // canvas (world) position: the instance transform is already applied
  float u, v;             // atlas page UV
  std::uint32_t light;    // RGBA8 straight alpha (r in the low byte): slot × attachment colour × instance tint
  std::uint32_t dark;     // RGB8 dark colour (r in the low byte); A8 = 255 when the slot has one, 0 when not
  std::uint32_t tangent;  // two snorm16 (x in the low half): the image's +u direction in canvas space, unit length
};
static_assert(sizeof(CanvasVertex) == 28);

}  // namespace mf::render
