#pragma once
// Internal: the ForwardRenderer's frame block (std140, set 1 binding 0), written once per frame by
// end_frame; shaders/forward_common.glsl mirrors it.

#include <cstdint>

namespace mf::render::detail {

struct ForwardPointLight {
  float position[4];  // xyz world, w: range
  float color[4];     // rgb × energy
};

struct ForwardFrameBlock {
  float view_projection[16];           // this frame's camera, column-major
  float previous_view_projection[16];  // the last frame's camera (this frame's on the first)
  float light_view_projection[16];     // the sun's shadow map projection
  float camera_position[4];            // xyz; w: 1 perspective, 0 orthographic
  float camera_forward[4];             // xyz: the view direction (orthographic surfaces are seen along it)
  float ambient[4];                    // rgb
  float sun_direction[4];              // xyz: unit vector towards the sun
  float sun_color[4];                  // rgb × energy
  float target_size[4];                // width, height (pixels), 1 / shadow map size, shadow depth bias
  std::int32_t flags[4];               // x: point lights, y: sun, z: sun shadows, w: tonemap
  ForwardPointLight points[8];
};
static_assert(sizeof(ForwardFrameBlock) == 3 * 64 + 7 * 16 + 8 * 32);

}  // namespace mf::render::detail
