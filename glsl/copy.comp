#version 430 core
// copy: reads each texel once and writes it once, no blur: the memory floor every blur is
// measured against.
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, source_size()))) return;  // partial workgroup; no barrier follows
  store_target(p, imageLoad(u_src, p));  // inside the image: no border rule to apply
}
