#pragma once
// The lights of a ForwardRenderer frame: ambient, one directional light with a shadow map, and up to
// kMaxPointLights3D point lights. Lighting is Blinn-Phong: colour × (ambient + Σ lights (diffuse
// N·L + specular (N·H)^shininess) × attenuation × shadow).

#include <optional>
#include <span>

#include "mf/core/math/color.hpp"
#include "mf/core/math/vec3.hpp"

namespace mf::render {

struct DirectionalLight {
  Vec3 direction{-0.4f, -1, -0.5f};  // where the light travels (need not be unit length)
  ColorF color{1, 1, 1, 1};
  float energy = 1;
  bool shadows = true;               // casts a shadow map (PCF filtered)
};

// Attenuation: (1 − distance / range)², clamped to [0, 1].
struct PointLight3D {
  Vec3 position;
  float range = 5;
  ColorF color{1, 1, 1, 1};
  float energy = 1;
};
inline constexpr int kMaxPointLights3D = 8;

struct SceneLights {
  ColorF ambient{0.3f, 0.3f, 0.3f, 1};
  std::optional<DirectionalLight> sun;
  std::span<const PointLight3D> points;  // at most kMaxPointLights3D
};

}  // namespace mf::render
