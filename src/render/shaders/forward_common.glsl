// What every ForwardRenderer shader shares: the frame block (set 1, binding 0), the draw records
// (set 1, binding 1), the record index (push constant), the octahedral normal decode and the one
// position formula every camera pass uses (so the main pass's depth equals the prepass's exactly:
// `precise`, no fused operations, in both; the Invariant decoration on gl_Position is what the
// design names, but the validation layer rejects it on gl_PerVertex's member).

struct PointLight {
  vec4 position;  // xyz, w: range
  vec4 color;     // rgb × energy
};
layout(std140, set = 1, binding = 0) uniform Frame {
  mat4 view_projection;
  mat4 previous_view_projection;
  mat4 light_view_projection;
  vec4 camera_position;  // w: 1 perspective, 0 orthographic
  vec4 camera_forward;
  vec4 ambient;
  vec4 sun_direction;    // towards the sun
  vec4 sun_color;
  vec4 target_size;      // width, height, 1 / shadow map size, shadow depth bias
  ivec4 flags;           // x: point lights, y: sun, z: sun shadows, w: tonemap
  PointLight points[8];
} frame;

// src/render/forward/draw_list.hpp's DrawRecord.
struct DrawRecord {
  mat4 model;
  mat4 previous_model;
  vec4 normal_matrix[3];
  vec4 base_color;
  float alpha_cutoff;
  float specular;
  float shininess;
  uint object_id;
  uint flags;
  int previous_vertex_delta;
  uint pad0;
  uint pad1;
};
layout(std430, set = 1, binding = 1) readonly buffer Records {
  DrawRecord records[];
};

layout(push_constant) uniform Push {
  uint record;
} push;

const uint kDrawShaded = 1u;
const uint kDrawDoubleSided = 2u;
const uint kDrawPreviousVertices = 4u;
const uint kDrawReceivesShadows = 8u;
const uint kDrawSpritePlane = 16u;

// As mesh_vertex.cpp's decode_octahedral.
vec3 decode_octahedral(vec2 e) {
  e = max(e, vec2(-1.0));
  float z = 1.0 - abs(e.x) - abs(e.y);
  if (z < 0.0) {
    const vec2 s = vec2(e.x >= 0.0 ? 1.0 : -1.0, e.y >= 0.0 ? 1.0 : -1.0);
    e = (1.0 - abs(e.yx)) * s;
  }
  return normalize(vec3(e, z));
}

// The camera passes' clip position: gl_Position = camera_clip(r.model, position).
vec4 camera_clip(mat4 model, vec3 position) {
  precise vec4 world = model * vec4(position, 1.0);
  precise vec4 clip = frame.view_projection * world;
  return clip;
}

mat3 normal_matrix(const DrawRecord r) { return mat3(r.normal_matrix[0].xyz, r.normal_matrix[1].xyz, r.normal_matrix[2].xyz); }
