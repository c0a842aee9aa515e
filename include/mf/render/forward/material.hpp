#pragma once
// Material: how a mesh's surface looks in a ForwardRenderer. Textures are straight-alpha RGBA8
// images, uploaded when the material is added; parameters are fixed at add time.

#include <cstdint>

#include "mf/core/math/color.hpp"
#include "mf/imaging/image.hpp"
#include "mf/skel/rig_modes.hpp"

namespace mf::render {

// Opaque: alpha ignored. Cutout: fragments with alpha below the cutoff are discarded, the rest are
// opaque (depth passes and shadows test the same cutoff). Blend: drawn after the opaque surfaces,
// sorted back to front, with the blend mode on premultiplied output; transparent, they stay out of
// the depth prepass (no depth, object ID or motion vectors: what is behind shows, and pick finds it).
enum class AlphaMode : std::uint8_t { Opaque, Cutout, Blend };

struct Material {
  ColorF base_color{1, 1, 1, 1};          // multiplies the albedo texture (straight alpha)
  const imaging::Image* albedo = nullptr;     // none: white
  const imaging::Image* normal_map = nullptr; // tangent-space normals (MeshVertex's convention); none: the vertex normal
  AlphaMode alpha_mode = AlphaMode::Opaque;
  float alpha_cutoff = 0.5f;              // Cutout; Blend materials' shadows test it
  skel::BlendMode blend = skel::BlendMode::Normal;  // Blend: Normal, Additive, Multiply or Screen (premultiplied)
  bool shaded = true;                     // false: the colour as is, no lights
  bool double_sided = false;              // false: back faces are culled
  bool casts_shadows = true;
  bool receives_shadows = true;
  float specular = 0.2f;                  // Blinn-Phong specular strength
  float shininess = 32;                   // Blinn-Phong exponent
  bool mipmaps = true;
};

}  // namespace mf::render
