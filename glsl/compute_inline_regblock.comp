#version 430 core
// compute-inline-regblock: both passes in one dispatch, no intermediate texture, register
// blocked (regblock_common.glsl). A workgroup of WG_X x WG_Y invocations owns an output tile of
// TILE_W = WG_X columns by TILE_H = WG_Y * BLOCK_Y rows.
//  1. Horizontal: the tile's TILE_H + 2r rows (the vertical apron; rows past an edge read
//     through the border rule like any tap) are cut into segments of BLOCK_X columns; an invocation sums a segment from its
//     BLOCK_X + 2r source texels, each read once, and stores the sums in the cache.
//  2. barrier.
//  3. Vertical: invocation (x, y) sums column x, output rows y * BLOCK_Y .. + BLOCK_Y-1, from the
//     BLOCK_Y + 2r cached values they need, each read once, and stores those inside the image.
//
// The cache: row t (image row origin.y - r + t), column c at t * ROW_STRIDE + c. ROW_STRIDE is
// odd, so the horizontal stage (consecutive invocations on consecutive rows, same columns)
// stores without bank conflicts, as does the vertical stage (consecutive columns, same row).
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

const int TILE_W = WG_X;
const int TILE_H = WG_Y * BLOCK_Y;
const int ROWS = TILE_H + 2 * RADIUS;
const int ROW_STRIDE = TILE_W | 1;
const int ROW_BLOCKS = TILE_W / BLOCK_X;  // the host checks that BLOCK_X divides WG_X
#if LDS_TEXELS != (WG_X | 1) * (WG_Y * BLOCK_Y + 2 * RADIUS)
#error LDS_TEXELS does not match the cache (WG_X | 1) x (WG_Y * BLOCK_Y + 2r)
#endif
#include "lds_common.glsl"

#define RB_K BLOCK_X
#define RB_LINE_SUM row_sums
#include "regblock_common.glsl"
#undef RB_K
#undef RB_LINE_SUM
#define RB_K BLOCK_Y
#define RB_LINE_SUM column_sums
#include "regblock_common.glsl"

void main() {
  ivec2 size = source_size();
  ivec2 origin = ivec2(gl_WorkGroupID.xy) * ivec2(TILE_W, TILE_H);

  // Horizontal stage, balanced: invocation n takes segments n, n + N, ... (N invocations),
  // segment s being row s % ROWS, columns (s / ROWS) * BLOCK_X .. + BLOCK_X-1. Rows and columns
  // past an edge are read through the border rule like any tap (unmapped here: constant has no
  // row to map to); sums of columns past the right edge are never stored to the image.
  for (int s = int(gl_LocalInvocationIndex); s < ROWS * ROW_BLOCKS; s += LDS_INVOCATIONS) {
    int row = s % ROWS, column = (s / ROWS) * BLOCK_X;
    int y = origin.y - RADIUS + row;
    vec4 sums[BLOCK_X];
    row_sums(RbLine(true, ivec2(origin.x + column - RADIUS, y), 0, 0, 0), sums);
    for (int k = 0; k < BLOCK_X; ++k) lds_store(row * ROW_STRIDE + column + k, sums[k]);
  }
  // Every invocation reaches the barrier, also those past the image's edge.
  memoryBarrierShared();
  barrier();

  // Vertical stage: output row y * BLOCK_Y + k of the tile takes cache rows y * BLOCK_Y + k .. + 2r.
  ivec2 local = ivec2(gl_LocalInvocationID.xy);
  vec4 outputs[BLOCK_Y];
  column_sums(RbLine(false, ivec2(0), local.y * BLOCK_Y * ROW_STRIDE + local.x, ROW_STRIDE, 0), outputs);
  ivec2 p = origin + ivec2(local.x, local.y * BLOCK_Y);
  if (p.x < size.x)
    for (int k = 0; k < BLOCK_Y; ++k)
      if (p.y + k < size.y) store_target(p + ivec2(0, k), outputs[k]);
}
