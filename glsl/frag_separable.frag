#version 430 core
// frag-separable: one 1D pass along AXIS (0 = horizontal, 1 = vertical), 2r+1 taps.
#include "blur_common.glsl"

layout(binding = 0) uniform sampler2D u_src;
layout(location = 0) out vec4 o_color;

const ivec2 STEP = AXIS == 0 ? ivec2(1, 0) : ivec2(0, 1);

void main() {
  ivec2 size = textureSize(u_src, 0);
  ivec2 p = ivec2(gl_FragCoord.xy);
  vec4 sum = vec4(0.0);
  for (int i = -RADIUS; i <= RADIUS; ++i)
    sum += tap_weight(i) * texelFetch(u_src, clamp_to_edge(p + i * STEP, size), 0);
  o_color = sum;
}
