#version 430 core
// dual-kawase: one pass of Bjorge's dual filter, one invocation per texel of the target level
// (src/variants/dual_kawase.cpp). DK_UP 0: downsample into a level of half the size, 1: upsample
// into one of twice the size; DK_OFFSET: the offset o (steps of 1/2). h is half a target texel
// times o, in texel units of the level read: o for a downsample, o / 4 for an upsample.
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
#if DK_UP == 0
  // Target texel p covers source texels 2p and 2p + 1 of each axis: its centre is their corner.
  vec2 c = 2.0 * vec2(p) + 1.0;
  const float h = DK_OFFSET;
  vec4 sum = 4.0 * bilinear_fetch(c, inv_size);
  sum += bilinear_fetch(c + vec2(-h, -h), inv_size);
  sum += bilinear_fetch(c + vec2(h, h), inv_size);
  sum += bilinear_fetch(c + vec2(h, -h), inv_size);
  sum += bilinear_fetch(c + vec2(-h, h), inv_size);
  store_target(p, sum * (1.0 / 8.0));
#else
  // Target texel p is half a source texel wide: its centre is (p + 1/2) / 2.
  vec2 c = (vec2(p) + 0.5) * 0.5;
  const float h = 0.25 * DK_OFFSET;
  vec4 sum = bilinear_fetch(c + vec2(-2.0 * h, 0.0), inv_size);
  sum += 2.0 * bilinear_fetch(c + vec2(-h, h), inv_size);
  sum += bilinear_fetch(c + vec2(0.0, 2.0 * h), inv_size);
  sum += 2.0 * bilinear_fetch(c + vec2(h, h), inv_size);
  sum += bilinear_fetch(c + vec2(2.0 * h, 0.0), inv_size);
  sum += 2.0 * bilinear_fetch(c + vec2(h, -h), inv_size);
  sum += bilinear_fetch(c + vec2(0.0, -2.0 * h), inv_size);
  sum += 2.0 * bilinear_fetch(c + vec2(-h, -h), inv_size);
  store_target(p, sum * (1.0 / 12.0));
#endif
}
