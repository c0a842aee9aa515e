#version 450
// The depth prepass: the object ID and the motion vector (this frame's window position minus the
// last frame's, in pixels, +y down). ALPHA_TEST (constant 0): discard below the record's cutoff.
#extension GL_GOOGLE_include_directive : require
#include "forward_common.glsl"

layout(constant_id = 0) const bool ALPHA_TEST = false;

layout(set = 0, binding = 0) uniform sampler2D albedo;

layout(location = 0) in vec2 uv;
layout(location = 1) in float alpha;
layout(location = 2) in vec4 clip;
layout(location = 3) in vec4 previous_clip;

layout(location = 0) out uint object_id;
layout(location = 1) out vec2 motion;

void main() {
  const DrawRecord r = records[push.record];
  if (ALPHA_TEST && texture(albedo, uv).a * alpha < r.alpha_cutoff) discard;
  object_id = r.object_id;
  const vec2 now = (clip.xy / clip.w * 0.5 + 0.5) * frame.target_size.xy;
  const vec2 before = (previous_clip.xy / previous_clip.w * 0.5 + 0.5) * frame.target_size.xy;
  motion = now - before;
}
