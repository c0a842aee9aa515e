#version 450
// Compute skinning: one workgroup per job, a chunk of ≤ 64 vertices of one attachment of one
// skeleton. Each invocation sums its vertex's influences (bone-space position plus deform offset,
// through the bone's 2×3 palette entry, which already carries the instance transform), and writes a
// CanvasVertex: position, page UV (the slot's region rectangle applied), light and dark colour, and
// the tangent (+u direction) carried by the first influence's bone.
// With MESH_OUTPUT (the 3D renderer) it writes a MeshVertex instead (mf/render/forward/mesh_vertex.hpp):
// z is the slot's depth (the slot record's pad0, float bits), the normal the plane's +Z, the tangent
// octahedral-encoded as mesh_vertex.cpp's encode_octahedral does.
// The job and vertex layouts are documented in src/render/skinning_layout.hpp.
layout(local_size_x = 64) in;
layout(constant_id = 0) const bool MESH_OUTPUT = false;

struct Influence { int bone; float weight; float x; float y; };
struct StaticVertex { uint first; uint count; float u; float v; float tx; float ty; };
struct Job { uint palette; uint vertex_start; uint count; uint out_start; uint slot; int deform_base; uint influence_base; uint has_deform; };
struct SlotRecord { vec4 uv_rect; uint light; uint dark; uint pad0; uint pad1; };

layout(std430, set = 0, binding = 0) readonly buffer Influences { Influence influences[]; };
layout(std430, set = 0, binding = 1) readonly buffer Vertices { StaticVertex vertices[]; };
layout(std430, set = 0, binding = 2) readonly buffer Palette { float palette[]; };
layout(std430, set = 0, binding = 3) readonly buffer Slots { SlotRecord slots[]; };
layout(std430, set = 0, binding = 4) readonly buffer Deform { float deform[]; };
layout(std430, set = 0, binding = 5) readonly buffer Jobs { Job jobs[]; };
layout(std430, set = 0, binding = 6) writeonly buffer Output { uint words[]; } outputs;

layout(push_constant) uniform Push { uint job_count; uint groups_x; } push;

// lround(clamp(v, -1, 1) × 32767) as a 16-bit two's complement: half away from zero, as the C++
// encoder rounds (packSnorm2x16 leaves the halfway direction to the implementation).
uint snorm16(float v) {
  const float s = clamp(v, -1.0, 1.0) * 32767.0;
  return uint(int(sign(s) * floor(abs(s) + 0.5))) & 0xffffu;
}

// The octahedral encoding of the unit vector (t, 0): z = 0 needs no fold.
uint octahedral_xy(vec2 t) {
  const vec2 o = t / (abs(t.x) + abs(t.y));
  return snorm16(o.x) | (snorm16(o.y) << 16);
}

void main() {
  const uint job_index = gl_WorkGroupID.y * push.groups_x + gl_WorkGroupID.x;
  if (job_index >= push.job_count) return;
  const Job job = jobs[job_index];
  const uint local = gl_LocalInvocationID.x;
  if (local >= job.count) return;

  const StaticVertex v = vertices[job.vertex_start + local];
  vec2 p = vec2(0.0);
  for (uint k = 0; k < v.count; ++k) {
    const uint i = v.first + k;
    const Influence inf = influences[i];
    vec2 local_position = vec2(inf.x, inf.y);
    if (job.has_deform != 0u) {
      const int d = job.deform_base + 2 * int(i - job.influence_base);
      local_position += vec2(deform[d], deform[d + 1]);
    }
    const uint m = 6u * (job.palette + uint(inf.bone));
    p += inf.weight * vec2(palette[m] * local_position.x + palette[m + 1u] * local_position.y + palette[m + 4u],
                           palette[m + 2u] * local_position.x + palette[m + 3u] * local_position.y + palette[m + 5u]);
  }
  const uint fm = 6u * (job.palette + uint(influences[v.first].bone));
  vec2 t = vec2(palette[fm] * v.tx + palette[fm + 1u] * v.ty, palette[fm + 2u] * v.tx + palette[fm + 3u] * v.ty);
  const float len = length(t);
  t = len > 1e-20 ? t / len : vec2(1.0, 0.0);

  const SlotRecord slot = slots[job.slot];
  if (MESH_OUTPUT) {
    const uint o = 10u * (job.out_start + local);
    outputs.words[o] = floatBitsToUint(p.x);
    outputs.words[o + 1u] = floatBitsToUint(p.y);
    outputs.words[o + 2u] = slot.pad0;
    outputs.words[o + 3u] = floatBitsToUint(slot.uv_rect.x + v.u * slot.uv_rect.z);
    outputs.words[o + 4u] = floatBitsToUint(slot.uv_rect.y + v.v * slot.uv_rect.w);
    outputs.words[o + 5u] = 0u;  // octahedral (0, 0, 1)
    outputs.words[o + 6u] = octahedral_xy(t);
    outputs.words[o + 7u] = slot.light;
    outputs.words[o + 8u] = slot.dark;
    outputs.words[o + 9u] = 0u;  // MeshVertex flags: the bitangent is cross(normal, tangent)
    return;
  }
  const uint o = 7u * (job.out_start + local);
  outputs.words[o] = floatBitsToUint(p.x);
  outputs.words[o + 1u] = floatBitsToUint(p.y);
  outputs.words[o + 2u] = floatBitsToUint(slot.uv_rect.x + v.u * slot.uv_rect.z);
  outputs.words[o + 3u] = floatBitsToUint(slot.uv_rect.y + v.v * slot.uv_rect.w);
  outputs.words[o + 4u] = slot.light;
  outputs.words[o + 5u] = slot.dark;
  outputs.words[o + 6u] = packSnorm2x16(t);
}
