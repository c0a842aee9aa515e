#pragma once
// Tangent-space normal maps for the example art: a height field (pixels above the image plane, as a
// function of the drawing coordinate) made of domes over shapes, raised bands and grooves, turned
// into normals by its gradient.
//
// Encoding (MeshVertex's and the canvas's convention): n × 0.5 + 0.5 with x along +u (image right),
// y along −v (image up) and z out of the image. Alpha is the colour image's, so the build's alpha
// bleed carries the edge normals into the transparent border as it does the colours.
//
// Like drawing.hpp, only +, -, *, / and sqrt touch the values: the bytes are the same everywhere.

#include <cmath>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "drawing.hpp"

namespace mf::tools::art {

using Height = std::function<float(Vec2)>;

// A rounded body over a shape: 0 outside, rising over `bevel` pixels inside the outline to `height`
// (the profile 2t − t², steepest at the outline), flat further in.
inline Height dome(Sdf shape, float height, float bevel) {
  return [shape = std::move(shape), height, bevel](Vec2 p) {
    const float t = clamp01(-shape(p) / bevel);
    return height * (2 * t - t * t);
  };
}

// A groove along a shape's outline (a thin capsule's: a line): `depth` pixels deep on it, back to 0
// `width` pixels away on either side.
inline Height groove(Sdf line, float depth, float width) {
  return [line = std::move(line), depth, width](Vec2 p) {
    return -depth * (1 - smoothstep(0, width, std::abs(line(p))));
  };
}

inline Height sum(std::vector<Height> parts) {
  return [parts = std::move(parts)](Vec2 p) {
    float h = 0;
    for (const Height& part : parts) h += part(p);
    return h;
  };
}

// Encodes the height field's normals over the colour canvas's pixels (straight-alpha RGBA8, the
// colour's alpha).
inline std::vector<std::uint8_t> normal_rgba8(const Canvas& colour, const Height& height) {
  std::vector<std::uint8_t> out = colour.rgba8();
  auto to8 = [](float v) { return static_cast<std::uint8_t>(clamp01(v * 0.5f + 0.5f) * 255 + 0.5f); };
  const Vec2 origin = colour.origin();
  for (int y = 0; y < colour.height(); ++y) {
    for (int x = 0; x < colour.width(); ++x) {
      const Vec2 p = {origin.x + static_cast<float>(x) + 0.5f, origin.y + static_cast<float>(y) + 0.5f};
      // Central differences one pixel wide; the image's y runs down, the normal's y up.
      const float dx = height({p.x + 0.5f, p.y}) - height({p.x - 0.5f, p.y});
      const float dy = height({p.x, p.y + 0.5f}) - height({p.x, p.y - 0.5f});
      const float nx = -dx, ny = dy, nz = 1;
      const float k = 1 / std::sqrt(nx * nx + ny * ny + nz * nz);
      const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(colour.width()) + static_cast<std::size_t>(x)) * 4;
      out[i + 0] = to8(nx * k);
      out[i + 1] = to8(ny * k);
      out[i + 2] = to8(nz * k);
    }
  }
  return out;
}

}  // namespace mf::tools::art
