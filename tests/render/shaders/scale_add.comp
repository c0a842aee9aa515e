#version 450
// out[i] = in[i] * scale + i: enough to prove that uploads reach a shader and results come back.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer Input { float values[]; } inputs;
layout(std430, set = 0, binding = 1) writeonly buffer Output { float values[]; } outputs;
layout(push_constant) uniform Push { float scale; uint count; } push;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= push.count) return;
  outputs.values[i] = inputs.values[i] * push.scale + float(i);
}
