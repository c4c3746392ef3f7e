#version 430 core
// compute-separable: one 1D pass along AXIS (0 = horizontal, 1 = vertical), one invocation per
// pixel, 2r+1 taps through imageLoad (separable_1d.glsl).
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"
#include "separable_1d.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, source_size()))) return;  // partial workgroup at the edge; no barrier follows
  store_target(p, separable_1d(p));
}
