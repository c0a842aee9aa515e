// The octahedral unit-vector encoding of MeshVertex (two snorm16), the same as
// shaders/forward_common.glsl's decode.

#include "mf/render/forward/mesh_vertex.hpp"

#include <algorithm>
#include <cmath>

namespace mf::render {

namespace {

std::uint16_t snorm16(float v) {
  return static_cast<std::uint16_t>(static_cast<std::int16_t>(std::lround(std::clamp(v, -1.0f, 1.0f) * 32767.0f)));
}
float from_snorm16(std::uint16_t bits) { return std::max(static_cast<float>(static_cast<std::int16_t>(bits)) / 32767.0f, -1.0f); }
float sign_not_zero(float v) { return v >= 0 ? 1.0f : -1.0f; }

}  // namespace

std::uint32_t encode_octahedral(Vec3 unit) {
  const Vec3 n = normalize(unit);
  const float l1 = std::abs(n.x) + std::abs(n.y) + std::abs(n.z);
  float x = n.x / l1, y = n.y / l1;
  if (n.z < 0) {
    const float ox = (1 - std::abs(y)) * sign_not_zero(x);
    const float oy = (1 - std::abs(x)) * sign_not_zero(y);
    x = ox;
    y = oy;
  }
  return static_cast<std::uint32_t>(snorm16(x)) | static_cast<std::uint32_t>(snorm16(y)) << 16;
}

Vec3 decode_octahedral(std::uint32_t packed) {
  float x = from_snorm16(static_cast<std::uint16_t>(packed & 0xffffu));
  float y = from_snorm16(static_cast<std::uint16_t>(packed >> 16));
  const float z = 1 - std::abs(x) - std::abs(y);
  if (z < 0) {
    const float ox = (1 - std::abs(y)) * sign_not_zero(x);
    const float oy = (1 - std::abs(x)) * sign_not_zero(y);
    x = ox;
    y = oy;
  }
  return normalize(Vec3{x, y, z});
}

}  // namespace mf::render
