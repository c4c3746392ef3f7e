#version 430 core
// compute-naive: one invocation per pixel, all (2r+1)^2 taps through imageLoad.
#include "blur_common.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;
layout(SRC_FORMAT, binding = 0) uniform restrict readonly image2D u_src;
layout(DST_FORMAT, binding = 1) uniform restrict writeonly image2D u_dst;

void main() {
  ivec2 size = imageSize(u_src);
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  // Invocations of partial workgroups past the edge have nothing to do (no barrier follows).
  if (any(greaterThanEqual(p, size))) return;
  vec4 sum = vec4(0.0);
  for (int j = -RADIUS; j <= RADIUS; ++j) {
    vec4 row = vec4(0.0);
    for (int i = -RADIUS; i <= RADIUS; ++i)
      row += tap_weight(i) * imageLoad(u_src, clamp_to_edge(p + ivec2(i, j), size));
    sum += tap_weight(j) * row;
  }
  imageStore(u_dst, p, sum);
}
