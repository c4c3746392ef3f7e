#version 430 core
// compute-naive: one invocation per pixel, all (2r+1)^2 taps through imageLoad (naive_2d.glsl).
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"
#include "naive_2d.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  // Invocations of partial workgroups past the edge have nothing to do (no barrier follows).
  if (any(greaterThanEqual(p, source_size()))) return;
  store_target(p, naive_2d(p));
}
