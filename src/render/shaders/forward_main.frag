#version 450
// The forward main pass's shading (the conventions of include/mf/render/skeleton_renderer.hpp and
// canvas.frag): s = albedo texel (straight), L = vertex light × base colour, D = vertex dark;
// c = s × L.rgb + (1 − s) × D.rgb, alpha = s.a × L.a; lit surfaces get c × (ambient + sun (N·L +
// Blinn-Phong specular) × shadow + Σ point lights × attenuation), then the optional ACES curve.
// NORMAL_MAP (constant 0): the normal map in the vertex tangent frame. ALPHA_MODE (constant 1):
// 0 opaque and 1 cutout write alpha 1 (cutout discards below the cutoff), 2 blend writes
// premultiplied colour for the blend state.
#extension GL_GOOGLE_include_directive : require
#include "forward_common.glsl"

layout(constant_id = 0) const bool NORMAL_MAP = false;
layout(constant_id = 1) const int ALPHA_MODE = 0;

layout(set = 0, binding = 0) uniform sampler2D albedo;
layout(set = 0, binding = 1) uniform sampler2D normal_map;
layout(set = 1, binding = 3) uniform sampler2DShadow shadow_map;

layout(location = 0) in vec3 world;
layout(location = 1) in vec2 uv;
layout(location = 2) in vec3 normal;
layout(location = 3) in vec3 tangent;
layout(location = 4) in vec3 bitangent;
layout(location = 5) in vec4 light;
layout(location = 6) in vec4 dark;

layout(location = 0) out vec4 color;

// 3×3 PCF of the sun's shadow map: 1 lit, 0 in shadow.
float sun_shadow() {
  const vec4 clip = frame.light_view_projection * vec4(world, 1.0);
  const vec3 p = clip.xyz / clip.w;
  const vec2 at = p.xy * 0.5 + 0.5;
  const float reference = p.z - frame.target_size.w;
  const float texel = frame.target_size.z;
  float sum = 0.0;
  for (int y = -1; y <= 1; ++y)
    for (int x = -1; x <= 1; ++x) sum += texture(shadow_map, vec3(at + vec2(x, y) * texel, reference));
  return sum / 9.0;
}

// Narkowicz's fit of the ACES filmic curve.
vec3 aces(vec3 x) { return clamp(x * (2.51 * x + 0.03) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0); }

void main() {
  const DrawRecord r = records[push.record];
  const vec4 s = texture(albedo, uv);
  const vec4 L = light * r.base_color;
  vec3 c = s.rgb * L.rgb + (1.0 - s.rgb) * dark.rgb;
  const float alpha = s.a * L.a;
  if (ALPHA_MODE == 1 && alpha < r.alpha_cutoff) discard;

  const vec3 to_eye = frame.camera_position.w > 0.5 ? normalize(frame.camera_position.xyz - world) : -frame.camera_forward.xyz;
  // Which side is seen: sprites by their plane (their winding is arbitrary), meshes by winding,
  // which a mirrored model matrix reverses.
  bool front;
  if ((r.flags & kDrawSpritePlane) != 0u) {
    const vec3 plane = normal_matrix(r) * vec3(0.0, 0.0, 1.0);
    front = dot(plane, to_eye) >= 0.0;
    if (!front && (r.flags & kDrawDoubleSided) == 0u) discard;
  } else {
    front = gl_FrontFacing != (determinant(mat3(r.model)) < 0.0);
  }

  if ((r.flags & kDrawShaded) != 0u) {
    const float nl = length(normal);
    const vec3 vertex_n = nl > 1e-8 ? normal / nl : vec3(0.0, 0.0, 1.0);
    vec3 n = vertex_n;
    if (NORMAL_MAP) {
      const vec3 m = texture(normal_map, uv).xyz * 2.0 - 1.0;
      const vec3 mapped = m.x * tangent - m.y * bitangent + m.z * vertex_n;
      const float ml = length(mapped);
      n = ml > 1e-8 ? mapped / ml : vertex_n;
    }
    if (!front) n = -n;

    vec3 lit = frame.ambient.rgb;
    if (frame.flags.y != 0) {
      const vec3 l = frame.sun_direction.xyz;
      const float diffuse = max(dot(n, l), 0.0);
      if (diffuse > 0.0) {
        const float shadow = frame.flags.z != 0 && (r.flags & kDrawReceivesShadows) != 0u ? sun_shadow() : 1.0;
        const float specular = pow(max(dot(n, normalize(l + to_eye)), 0.0), r.shininess) * r.specular;
        lit += frame.sun_color.rgb * (diffuse + specular) * shadow;
      }
    }
    for (int i = 0; i < frame.flags.x; ++i) {
      const PointLight p = frame.points[i];
      const vec3 d = p.position.xyz - world;
      const float distance = length(d);
      const float fall = clamp(1.0 - distance / max(p.position.w, 1e-6), 0.0, 1.0);
      const vec3 l = distance > 1e-6 ? d / distance : n;
      const float diffuse = max(dot(n, l), 0.0);
      if (diffuse > 0.0) {
        const float specular = pow(max(dot(n, normalize(l + to_eye)), 0.0), r.shininess) * r.specular;
        lit += p.color.rgb * (diffuse + specular) * fall * fall;
      }
    }
    c *= lit;
    if (frame.flags.w != 0) c = aces(c);
  }

  color = ALPHA_MODE == 2 ? vec4(c * alpha, alpha) : vec4(c, 1.0);
}
