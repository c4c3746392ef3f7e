#version 430 core
// compute-separable-lds: one 1D pass along AXIS (0 = horizontal, 1 = vertical). The workgroup
// knob G x K means K lines of G texels along the pass: G x K invocations for the horizontal pass,
// the transposed K x G for the vertical one. Each workgroup caches its K line segments plus the
// r-texel apron at both ends, (G + 2r) x K texels, then each invocation takes its 2r+1 taps from
// shared memory.
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"

#if AXIS == 0
layout(local_size_x = WG_X, local_size_y = WG_Y) in;
#else
layout(local_size_x = WG_Y, local_size_y = WG_X) in;
#endif

const int SPAN = WG_X + 2 * RADIUS;  // cached texels of one line
#if LDS_TEXELS != (WG_X + 2 * RADIUS) * WG_Y
#error LDS_TEXELS does not match the cache (G + 2r) x K
#endif
#include "lds_common.glsl"

void main() {
  ivec2 origin = ivec2(gl_WorkGroupID.xy * gl_WorkGroupSize.xy);
  ivec2 local = ivec2(gl_LocalInvocationID.xy);
  // The cache is the source rectangle in row-major order, so that consecutive invocations load
  // consecutive texels of an image row: SPAN x K (line l at l * SPAN) when horizontal, K x SPAN
  // (texel t of line l at t * K + l) when vertical.
#if AXIS == 0
  lds_fill_rect(0, origin - ivec2(RADIUS, 0), ivec2(SPAN, WG_Y));
  const int stride = 1;
  int centre = local.y * SPAN + local.x + RADIUS;
#else
  lds_fill_rect(0, origin - ivec2(0, RADIUS), ivec2(WG_Y, SPAN));
  const int stride = WG_Y;
  int centre = (local.y + RADIUS) * WG_Y + local.x;
#endif
  // All invocations reach the barrier, those past the image's edge too (their loads follow the border rule).
  memoryBarrierShared();
  barrier();
  vec4 sum = lds_tap_sum(centre, stride);
  ivec2 p = origin + local;
  if (all(lessThan(p, source_size()))) store_target(p, sum);
}
