#version 430 core
// compute-naive-lds: each WG_X x WG_Y workgroup loads its tile, the workgroup plus an r-texel
// apron on every side, into shared memory once, then every invocation sums its (2r+1)^2 window
// from there: 2r+1 weighted row sums, weighted by the row's tap.
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

const int TILE_X = WG_X + 2 * RADIUS;
const int TILE_Y = WG_Y + 2 * RADIUS;
#if LDS_TEXELS != (WG_X + 2 * RADIUS) * (WG_Y + 2 * RADIUS)
#error LDS_TEXELS does not match the tile (WG_X + 2r) x (WG_Y + 2r)
#endif
#include "lds_common.glsl"

void main() {
  ivec2 origin = ivec2(gl_WorkGroupID.xy) * ivec2(WG_X, WG_Y);
  // Every invocation loads and reaches the barrier, also those of partial workgroups past the
  // image's edge (their loads follow the border rule); only their store is skipped.
  lds_fill_rect(0, origin - RADIUS, ivec2(TILE_X, TILE_Y));
  memoryBarrierShared();
  barrier();

  ivec2 local = ivec2(gl_LocalInvocationID.xy);
  // Tile texel (local + RADIUS) is the centre of this invocation's window.
  int centre = (local.y + RADIUS) * TILE_X + local.x + RADIUS;
  vec4 sum = vec4(0.0);
  for (int j = -RADIUS; j <= RADIUS; ++j) sum += tap_weight(j) * lds_tap_sum(centre + j * TILE_X, 1);
  ivec2 p = origin + local;
  if (all(lessThan(p, source_size()))) store_target(p, sum);
}
