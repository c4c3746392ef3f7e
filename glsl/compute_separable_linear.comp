#version 430 core
// compute-separable-linear: one 1D pass along AXIS (0 = horizontal, 1 = vertical), one
// invocation per pixel, two taps per bilinear fetch through a sampler (linear_common.glsl),
// written with imageStore.
#include "blur_common.glsl"
#include "linear_common.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;
layout(binding = 0) uniform sampler2D u_src;  // linear sampler, clamp-to-edge
layout(DST_FORMAT, binding = 1) uniform restrict writeonly image2D u_dst;

const vec2 AXIS_DIR = AXIS == 0 ? vec2(1.0, 0.0) : vec2(0.0, 1.0);

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  // Partial workgroups at the edge: nothing to store (no barrier follows).
  if (any(greaterThanEqual(p, imageSize(u_dst)))) return;
  imageStore(u_dst, p, linear_blur_1d(u_src, p, AXIS_DIR));
}
