#version 430 core
// frag-naive: every output pixel reads all (2r+1)^2 texels of its window, weight w(i) w(j).
#include "blur_common.glsl"

layout(binding = 0) uniform sampler2D u_src;
layout(location = 0) out vec4 o_color;

void main() {
  ivec2 size = textureSize(u_src, 0);
  ivec2 p = ivec2(gl_FragCoord.xy);
  vec4 sum = vec4(0.0);
  for (int j = -RADIUS; j <= RADIUS; ++j) {
    vec4 row = vec4(0.0);
    for (int i = -RADIUS; i <= RADIUS; ++i)
      row += tap_weight(i) * texelFetch(u_src, clamp_to_edge(p + ivec2(i, j), size), 0);
    sum += tap_weight(j) * row;
  }
  o_color = sum;
}
