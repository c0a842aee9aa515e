#version 450
// The depth prepass: the main pass's position (the same precise formula), and for motion vectors
// this frame's and the last frame's clip positions. A skinned sprite's last position is its vertex
// in the previous frame's vertex buffer (MeshVertex: 10 words, the position first).
#extension GL_GOOGLE_include_directive : require
#include "forward_common.glsl"

layout(std430, set = 1, binding = 2) readonly buffer Previous {
  uint previous_words[];
};

layout(location = 0) in vec3 position;
layout(location = 1) in vec2 uv;
layout(location = 4) in vec4 light;

layout(location = 0) out vec2 out_uv;
layout(location = 1) out float out_alpha;
layout(location = 2) out vec4 out_clip;
layout(location = 3) out vec4 out_previous_clip;

void main() {
  const DrawRecord r = records[push.record];
  gl_Position = camera_clip(r.model, position);
  vec3 previous = position;
  if ((r.flags & kDrawPreviousVertices) != 0u) {
    const uint base = uint(gl_VertexIndex + r.previous_vertex_delta) * 10u;
    previous = vec3(uintBitsToFloat(previous_words[base]), uintBitsToFloat(previous_words[base + 1u]),
                    uintBitsToFloat(previous_words[base + 2u]));
  }
  out_uv = uv;
  out_alpha = light.a * r.base_color.a;
  out_clip = gl_Position;
  out_previous_clip = frame.previous_view_projection * (r.previous_model * vec4(previous, 1.0));
}
