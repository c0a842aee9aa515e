#version 450
// The forward main pass: MeshVertex in; world position, UV, the world normal, tangent and bitangent
// (+v: as the vertex's flags say) and the vertex colours out. gl_Position is the prepass's, bit for bit (the same precise formula),
// so the depth test LESS_OR_EQUAL passes exactly where the prepass wrote.
#extension GL_GOOGLE_include_directive : require
#include "forward_common.glsl"

layout(location = 0) in vec3 position;
layout(location = 1) in vec2 uv;
layout(location = 2) in vec2 normal;   // R16G16_SNORM, octahedral
layout(location = 3) in vec2 tangent;  // R16G16_SNORM, octahedral
layout(location = 4) in vec4 light;    // R8G8B8A8_UNORM
layout(location = 5) in vec4 dark;     // R8G8B8A8_UNORM
layout(location = 6) in uint flags;    // MeshVertexFlag: bit 0, the bitangent is cross(t, n)

layout(location = 0) out vec3 out_world;
layout(location = 1) out vec2 out_uv;
layout(location = 2) out vec3 out_normal;
layout(location = 3) out vec3 out_tangent;
layout(location = 4) out vec3 out_bitangent;
layout(location = 5) out vec4 out_light;
layout(location = 6) out vec4 out_dark;

void main() {
  const DrawRecord r = records[push.record];
  gl_Position = camera_clip(r.model, position);
  const vec3 n = decode_octahedral(normal);
  const vec3 t = decode_octahedral(tangent);
  const mat3 model = mat3(r.model);
  out_world = (r.model * vec4(position, 1.0)).xyz;
  out_uv = uv;
  out_normal = normal_matrix(r) * n;
  out_tangent = model * t;
  out_bitangent = model * ((flags & 1u) != 0u ? cross(t, n) : cross(n, t));
  out_light = light;
  out_dark = dark;
}
