#version 430 core
// compute-inline-regblock: both passes in one dispatch, no intermediate texture, register
// blocked (regblock_common.glsl). A workgroup of WG_X x WG_Y invocations owns an output tile of
// TILE_W = WG_X columns by TILE_H = WG_Y * UNROLL rows.
//  1. Horizontal: the tile's TILE_H + 2r rows (the vertical apron; rows clamped to the image)
//     are cut into segments of SEGMENT columns; an invocation sums a segment from its
//     SEGMENT + 2r source texels, each read once, and stores the sums in the cache.
//  2. barrier.
//  3. Vertical: invocation (x, y) sums column x, output rows y * UNROLL .. + UNROLL-1, from the
//     UNROLL + 2r cached values they need, each read once, and stores those inside the image.
//
// The cache: row t (image row origin.y - r + t), column c at t * ROW_STRIDE + c. ROW_STRIDE is
// odd, so the horizontal stage (consecutive invocations on consecutive rows, same columns)
// stores without bank conflicts, as does the vertical stage (consecutive columns, same row).
#include "blur_common.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

const int TILE_W = WG_X;
const int TILE_H = WG_Y * UNROLL;
const int ROWS = TILE_H + 2 * RADIUS;
const int ROW_STRIDE = TILE_W | 1;
const int ROW_SEGMENTS = TILE_W / SEGMENT;  // the host checks that SEGMENT divides WG_X
#if LDS_TEXELS != (WG_X | 1) * (WG_Y * UNROLL + 2 * RADIUS)
#error LDS_TEXELS does not match the cache (WG_X | 1) x (WG_Y * UNROLL + 2r)
#endif
#include "lds_common.glsl"

#define RB_K SEGMENT
#define RB_LINE_SUM row_sums
#include "regblock_common.glsl"
#undef RB_K
#undef RB_LINE_SUM
#define RB_K UNROLL
#define RB_LINE_SUM column_sums
#include "regblock_common.glsl"

void main() {
  ivec2 size = imageSize(u_src);
  ivec2 origin = ivec2(gl_WorkGroupID.xy) * ivec2(TILE_W, TILE_H);

  // Horizontal stage, balanced: invocation n takes segments n, n + N, ... (N invocations),
  // segment s being row s % ROWS, columns (s / ROWS) * SEGMENT .. + SEGMENT-1. Columns past the
  // right edge are clamped like any tap; their sums are never stored to the image.
  for (int s = int(gl_LocalInvocationIndex); s < ROWS * ROW_SEGMENTS; s += LDS_INVOCATIONS) {
    int row = s % ROWS, column = (s / ROWS) * SEGMENT;
    int y = clamp(origin.y - RADIUS + row, 0, size.y - 1);
    vec4 sums[SEGMENT];
    row_sums(RbLine(true, ivec2(origin.x + column - RADIUS, y), 0, 0), sums);
    for (int k = 0; k < SEGMENT; ++k) lds_store(row * ROW_STRIDE + column + k, sums[k]);
  }
  // Every invocation reaches the barrier, also those past the image's edge.
  memoryBarrierShared();
  barrier();

  // Vertical stage: output row y * UNROLL + k of the tile takes cache rows y * UNROLL + k .. + 2r.
  ivec2 local = ivec2(gl_LocalInvocationID.xy);
  vec4 outputs[UNROLL];
  column_sums(RbLine(false, ivec2(0), local.y * UNROLL * ROW_STRIDE + local.x, ROW_STRIDE), outputs);
  ivec2 p = origin + ivec2(local.x, local.y * UNROLL);
  if (p.x < size.x)
    for (int k = 0; k < UNROLL; ++k)
      if (p.y + k < size.y) imageStore(u_dst, p + ivec2(0, k), outputs[k]);
}
