#version 430 core
// variable-naive: one invocation per pixel gathers all (2r+1)^2 taps of its own level r, weight
// w_r(i) w_r(j): 2r+1 weighted row sums, each weighted by its row's tap (as naive_2d.glsl, with the
// level's weights read as data). The reference on the GPU.
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"
#include "variable_common.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, source_size()))) return;  // no barrier follows
  int r = pixel_level(p);
  vec4 sum = vec4(0.0);
  for (int j = -r; j <= r; ++j) {
    vec4 row = vec4(0.0);
    for (int i = -r; i <= r; ++i) row += level_weight(r, i) * source_texel(p + ivec2(i, j));
    sum += level_weight(r, j) * row;
  }
  store_target(p, sum);
}
