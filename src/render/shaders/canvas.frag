#version 450
// The canvas pass, skeleton variant: the page is sampled straight; two-colour tint
// c = s × light.rgb + (1 − s) × dark.rgb; lighting (ambient + Σ point lights with N·L); then the
// premultiplied output (c × a × light.a, a × light.a). The blend state does the rest.
// NORMAL_MAP (specialisation constant 0): sample the normal page and turn it into canvas space with
// the vertex tangent; without it the normal is (0, 0, 1) ("lit flat").
#extension GL_GOOGLE_include_directive : require
#include "frame.glsl"

layout(constant_id = 0) const bool NORMAL_MAP = false;

layout(set = 0, binding = 0) uniform sampler2D page;
layout(set = 0, binding = 1) uniform sampler2D normal_page;

layout(location = 0) in vec2 uv;
layout(location = 1) in vec4 light;
layout(location = 2) in vec4 dark;
layout(location = 3) in vec2 tangent;
layout(location = 4) in vec2 canvas;

layout(location = 0) out vec4 color;

void main() {
  const vec4 texel = texture(page, uv);
  vec3 c = texel.rgb * light.rgb + (1.0 - texel.rgb) * dark.rgb;

  vec3 n = vec3(0.0, 0.0, 1.0);
  if (NORMAL_MAP) {
    const vec3 m = texture(normal_page, uv).xyz * 2.0 - 1.0;
    const float len = length(tangent);
    const vec2 t = len > 1e-6 ? tangent / len : vec2(1.0, 0.0);
    const vec2 down = vec2(-t.y, t.x);  // +v on the image, in canvas space (Y down)
    n = vec3(m.x * t - m.y * down, m.z);
    const float nl = length(n);
    n = nl > 1e-6 ? n / nl : vec3(0.0, 0.0, 1.0);
  }
  vec3 lit = frame.ambient.rgb;
  for (int i = 0; i < frame.counts.x; ++i) {
    const Light l = frame.lights[i];
    const vec2 d = l.position.xy - canvas;
    const float distance = length(d);
    const float attenuation = clamp(1.0 - distance / max(l.position.w, 1e-6), 0.0, 1.0);
    const vec3 to_light = normalize(vec3(d, l.position.z));
    lit += l.color.rgb * attenuation * max(dot(n, to_light), 0.0);
  }
  c *= lit;

  const float alpha = texel.a * light.a;
  color = vec4(c * alpha, alpha);
}
