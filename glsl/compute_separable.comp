#version 430 core
// compute-separable: one 1D pass along AXIS (0 = horizontal, 1 = vertical), one invocation
// per pixel, 2r+1 taps through imageLoad.
#include "blur_common.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;
layout(SRC_FORMAT, binding = 0) uniform restrict readonly image2D u_src;
layout(DST_FORMAT, binding = 1) uniform restrict writeonly image2D u_dst;

const ivec2 STEP = AXIS == 0 ? ivec2(1, 0) : ivec2(0, 1);

void main() {
  ivec2 size = imageSize(u_src);
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, size))) return;  // partial workgroup at the edge; no barrier follows
  vec4 sum = vec4(0.0);
  for (int i = -RADIUS; i <= RADIUS; ++i)
    sum += tap_weight(i) * imageLoad(u_src, clamp_to_edge(p + i * STEP, size));
  imageStore(u_dst, p, sum);
}
