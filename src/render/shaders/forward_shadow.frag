#version 450
// The shadow pass: depth only; ALPHA_TEST (constant 0) cuts casters out at the record's cutoff, so a
// sprite's shadow has its art's silhouette.
#extension GL_GOOGLE_include_directive : require
#include "forward_common.glsl"

layout(constant_id = 0) const bool ALPHA_TEST = false;

layout(set = 0, binding = 0) uniform sampler2D albedo;

layout(location = 0) in vec2 uv;
layout(location = 1) in float alpha;

void main() {
  if (ALPHA_TEST && texture(albedo, uv).a * alpha < records[push.record].alpha_cutoff) discard;
}
