// The per-frame block shared by the canvas shaders (set 1): the view and the lights.
struct Light {
  vec4 position;  // x, y, height, range (canvas pixels)
  vec4 color;     // rgb × energy
};
layout(std140, set = 1, binding = 0) uniform Frame {
  vec4 view;      // canvas x, y of the target's top-left, 2 / width, 2 / height
  vec4 ambient;   // rgb
  ivec4 counts;   // x: point lights
  Light lights[8];
} frame;
