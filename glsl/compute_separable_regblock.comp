#version 430 core
// compute-separable-regblock: one of its two passes (the host runs this shader twice). A
// workgroup blurs a tile of LINES rows x SPAN columns of its source along the rows and stores the
// tile transposed: output (x, y) goes to texel (y, x) of the target, which is H x W for the first
// pass and the W x H destination for the second (whose rows are the image's columns).
//  1. stage: the tile's rows with their 2r apron columns are loaded into shared memory, consecutive
//     invocations on consecutive texels (coalesced; texelFetch converts rgba8 once per texel);
//  2. one barrier;
//  3. sum: invocation n takes row n % LINES, columns (n / LINES) K .. + K - 1, and sums those K
//     outputs from the K + 2r staged texels they need, each loaded once (regblock_common.glsl).
//     Neighbouring invocations take neighbouring rows, so their transposed stores land on runs of
//     LINES neighbouring texels, and the odd row stride spreads their shared loads over banks.
//     Small K and LINES (4 and 4-7 on the H200) beat large ones: fewer registers, more warps.
#include "blur_common.glsl"
#include "source_sampler.glsl"
#include "target_image.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

const int N = WG_X * WG_Y;
const int SPAN = N / LINES * BLOCK_X;  // outputs per row of the tile (the host checks N % LINES)
const int STAGE_WIDTH = SPAN + 2 * RADIUS;
const int STAGE_STRIDE = STAGE_WIDTH | 1;
#if LDS_TEXELS != LINES * ((WG_X * WG_Y / LINES * BLOCK_X + 2 * RADIUS) | 1)
#error LDS_TEXELS does not match the staged rows LINES x ((SPAN + 2r) | 1)
#endif
#include "lds_common.glsl"

#define RB_K BLOCK_X
#define RB_LINE_SUM block_sums
#include "regblock_common.glsl"

void main() {
  ivec2 size = source_size();
  int n = int(gl_LocalInvocationIndex);
  ivec2 origin = ivec2(gl_WorkGroupID.xy) * ivec2(SPAN, LINES);
  for (int i = n; i < LINES * STAGE_WIDTH; i += N) {
    int row = i / STAGE_WIDTH, column = i % STAGE_WIDTH;
    if (origin.y + row < size.y)  // rows below the image are never output
      lds_store(row * STAGE_STRIDE + column, source_texel(origin + ivec2(column - RADIUS, row)));
  }
  memoryBarrierShared();
  barrier();

  int line = n % LINES, x = (n / LINES) * BLOCK_X;
  vec4 sums[BLOCK_X];
  block_sums(RbLine(false, ivec2(0), line * STAGE_STRIDE + x, 1, 0), sums);
  int y = origin.y + line;
  if (y < size.y)
    for (int k = 0; k < BLOCK_X; ++k)
      if (origin.x + x + k < size.x) store_target(ivec2(y, origin.x + x + k), sums[k]);
}
