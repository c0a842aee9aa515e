#version 450
// The shadow pass: positions through the sun's projection.
#extension GL_GOOGLE_include_directive : require
#include "forward_common.glsl"

layout(location = 0) in vec3 position;
layout(location = 1) in vec2 uv;
layout(location = 4) in vec4 light;

layout(location = 0) out vec2 out_uv;
layout(location = 1) out float out_alpha;

void main() {
  const DrawRecord r = records[push.record];
  gl_Position = frame.light_view_projection * (r.model * vec4(position, 1.0));
  out_uv = uv;
  out_alpha = light.a * r.base_color.a;
}
