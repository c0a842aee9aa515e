#version 450
// The canvas pass: CanvasVertex in, canvas position to clip space (Y down in both).
#extension GL_GOOGLE_include_directive : require
#include "frame.glsl"

layout(location = 0) in vec2 position;
layout(location = 1) in vec2 uv;
layout(location = 2) in vec4 light;   // R8G8B8A8_UNORM
layout(location = 3) in vec4 dark;    // R8G8B8A8_UNORM
layout(location = 4) in vec2 tangent; // R16G16_SNORM

layout(location = 0) out vec2 out_uv;
layout(location = 1) out vec4 out_light;
layout(location = 2) out vec4 out_dark;
layout(location = 3) out vec2 out_tangent;
layout(location = 4) out vec2 out_canvas;

void main() {
  out_uv = uv;
  out_light = light;
  out_dark = dark;
  out_tangent = tangent;
  out_canvas = position;
  gl_Position = vec4((position - frame.view.xy) * frame.view.zw - 1.0, 0.0, 1.0);
}
