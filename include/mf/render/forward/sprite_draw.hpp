#pragma once
// SpriteDrawOptions: how ForwardRenderer::draw_sprite shows a skeleton in a 3D world (what the
// SkeletonSprite3D node passes), and the model matrix it makes of them.
//
// The skinning pass writes a sprite's vertices in skeleton pixels (Y down, as on the canvas); the
// model matrix is transform × billboard rotation × scale(pixel_size, −pixel_size, pixel_size): one Y
// mirror turns the skeleton's Y-down pixels into the world's Y-up metres. The sprite's plane is its
// local XY plane and faces its local +Z.

#include <cstdint>
#include <optional>

#include "mf/core/math/bounds.hpp"
#include "mf/core/math/color.hpp"
#include "mf/core/math/mat4.hpp"
#include "mf/render/forward/camera.hpp"

namespace mf::render {

// None: the sprite keeps its transform's orientation. Y: it turns about its vertical axis to face the
// camera (upright characters). Full: its plane faces the camera (the camera's up stays up).
enum class SkeletonBillboard : std::uint8_t { None, Y, Full };

struct SpriteDrawOptions {
  Mat4 transform;                 // the node's global transform (world)
  float pixel_size = 0.01f;       // metres per skeleton pixel
  SkeletonBillboard billboard = SkeletonBillboard::None;
  // Mirror the skeleton in its own plane (FlipH: along its X, FlipV: along its Y), after any
  // billboard turn, so a billboarded sprite can face left or right.
  bool flip_h = false, flip_v = false;
  bool shaded = true;             // lit by the frame's lights; false: colours as on the canvas
  bool double_sided = true;       // false: not drawn from behind (the plane's back)
  float alpha_cutoff = 0.5f;      // shadows, the depth prepass and picking test the art's alpha against it
  float slot_depth_offset = 0;    // z of the n-th drawn attachment = n × offset (skeleton pixels, towards +Z)
  ColorF tint{1, 1, 1, 1};        // multiplies every slot's light colour
  std::uint32_t object_id = 0;    // what pick() returns on its pixels; 0: not pickable
  bool casts_shadows = true;
  std::optional<Bounds> cull_bounds;  // skeleton-space bounds to cull by (e.g. the playing clips'); empty: the pose's
};

// The sprite's model matrix (skeleton pixels → world) for a camera.
Mat4 sprite_model_matrix(const SpriteDrawOptions& options, const Camera& camera);

}  // namespace mf::render
