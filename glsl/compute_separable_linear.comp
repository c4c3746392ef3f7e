#version 430 core
// compute-separable-linear: one 1D pass along AXIS (0 = horizontal, 1 = vertical), one
// invocation per pixel, two taps per bilinear fetch through a sampler (linear_common.glsl),
// written with imageStore.
#include "blur_common.glsl"
#include "source_sampler.glsl"
#include "target_image.glsl"
#include "linear_common.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

const vec2 AXIS_DIR = AXIS == 0 ? vec2(1.0, 0.0) : vec2(0.0, 1.0);

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  // Partial workgroups at the edge: nothing to store (no barrier follows).
  if (any(greaterThanEqual(p, source_size()))) return;
  store_target(p, linear_blur_1d(p, AXIS_DIR));
}
