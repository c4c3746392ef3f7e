#version 430 core
// kawase: one pass of the Kawase blur, one invocation per texel: the average of four bilinear
// fetches at the diagonal offsets (+-d, +-d), d = o + 1/2 texels, the offset o the pass's value
// u_pass.x (a whole number). Each lands on the corner between four texels, so the texture units
// average a 2x2 block (bilinear_common.glsl).
#include "blur_common.glsl"
#include "source_sampler.glsl"
#include "target_image.glsl"
#include "bilinear_common.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  // Partial workgroups at the edge: nothing to store (no barrier follows).
  if (any(greaterThanEqual(p, target_size()))) return;
  vec2 inv_size = 1.0 / vec2(source_size());
  vec2 centre = vec2(p) + 0.5;
  float d = u_pass.x + 0.5;
  vec4 sum = bilinear_fetch(centre + vec2(-d, -d), inv_size) + bilinear_fetch(centre + vec2(d, -d), inv_size) +
             bilinear_fetch(centre + vec2(-d, d), inv_size) + bilinear_fetch(centre + vec2(d, d), inv_size);
  store_target(p, 0.25 * sum);
}
