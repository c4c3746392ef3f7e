#version 430 core
// compute-inline-lds: both passes in one dispatch, no intermediate texture. A WG_X x WG_Y
// workgroup blurs horizontally the rows its outputs need, its WG_X columns by WG_Y + 2r rows (the
// vertical apron), into shared memory; after a barrier each invocation sums its 2r+1 vertical
// taps from there and writes one output.
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

const int ROWS = WG_Y + 2 * RADIUS;  // horizontally blurred rows, WG_X texels each
#if LDS_TEXELS != WG_X * (WG_Y + 2 * RADIUS)
#error LDS_TEXELS does not match the tile WG_X x (WG_Y + 2r)
#endif
#include "lds_common.glsl"

void main() {
  ivec2 size = source_size();
  ivec2 origin = ivec2(gl_WorkGroupID.xy) * ivec2(WG_X, WG_Y);
  // Horizontal pass, balanced: invocation k blurs tile texels k, k + N, ... (N invocations).
  // Tile row t is image row origin.y - r + t, outside the image for apron rows past an edge:
  // every tap reads through the border rule, so such a row is the border's row (a mirrored or
  // wrapped row, or the constant). Columns past the right edge are blurred too; their sums are
  // never read by a stored output.
  for (int i = int(gl_LocalInvocationIndex); i < WG_X * ROWS; i += LDS_INVOCATIONS) {
    ivec2 q = origin + ivec2(i % WG_X, i / WG_X - RADIUS);
    vec4 sum = vec4(0.0);
    for (int k = -RADIUS; k <= RADIUS; ++k) sum += tap_weight(k) * source_texel(q + ivec2(k, 0));
    lds_store(i, sum);
  }
  // Every invocation reaches the barrier, also those past the image's edge.
  memoryBarrierShared();
  barrier();
  // Vertical pass: output (x, y) of the tile takes tile rows y .. y + 2r of column x.
  ivec2 local = ivec2(gl_LocalInvocationID.xy);
  vec4 sum = lds_tap_sum((local.y + RADIUS) * WG_X + local.x, WG_X);
  ivec2 p = origin + local;
  if (all(lessThan(p, size))) store_target(p, sum);
}
