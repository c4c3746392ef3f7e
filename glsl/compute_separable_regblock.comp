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
//     LINES neighbouring texels, and the row stride spreads their shared loads over banks.
//     Small K and LINES beat large ones: fewer registers, more warps.
// A workgroup takes TILES such tiles down the same columns, software pipelined: the next tile's
// texels are fetched into registers before this tile is summed, so its loads are in flight during
// the sums (the sums alone run near the FMA rate, and at small r the loads and stores alone take
// about as long as the whole blur) (docs/PERFORMANCE.md).
#include "blur_common.glsl"
#include "source_sampler.glsl"
#include "target_image.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

const int N = WG_X * WG_Y;
const int SPAN = N / LINES * BLOCK_X;  // outputs per row of the tile (the host checks N % LINES)
const int STAGE_WIDTH = SPAN + 2 * RADIUS;
// The staged rows' stride, STAGE_STRIDE >= STAGE_WIDTH, is the host's choice: the one that
// spreads the invocations' shared loads over the most banks for this layout of lines and blocks.
#if STAGE_STRIDE < WG_X * WG_Y / LINES * BLOCK_X + 2 * RADIUS
#error STAGE_STRIDE is shorter than a staged row
#endif
#if LDS_TEXELS != LINES * STAGE_STRIDE
#error LDS_TEXELS does not match the staged rows LINES x STAGE_STRIDE
#endif
#include "lds_common.glsl"

#define RB_K BLOCK_X
#define RB_LINE_SUM block_sums
#include "regblock_common.glsl"

// Each invocation's share of a tile's staged texels: staged texel i = n + s * N, s = 0 .. STAGED - 1.
const int STAGED = (LINES * STAGE_WIDTH + N - 1) / N;

// Fetches the tile at `origin` into registers. Unconditional: the border rule makes every
// coordinate readable, and the texels past the tile (s at its end) or below the image are never
// staged or output.
void fetch_tile(ivec2 origin, int n, out vec4 staged[STAGED]) {
  for (int s = 0; s < STAGED; ++s) {
    int i = n + s * N;
    staged[s] = source_texel(origin + ivec2(i % STAGE_WIDTH - RADIUS, i / STAGE_WIDTH));
  }
}

void stage_tile(int n, vec4 staged[STAGED]) {
  for (int s = 0; s < STAGED; ++s) {
    int i = n + s * N;
    if (i < LINES * STAGE_WIDTH) lds_store(i / STAGE_WIDTH * STAGE_STRIDE + i % STAGE_WIDTH, staged[s]);
  }
}

void main() {
  ivec2 size = source_size();
  int n = int(gl_LocalInvocationIndex);
  ivec2 first = ivec2(gl_WorkGroupID.xy) * ivec2(SPAN, LINES * TILES);
  int line = n % LINES, x = (n / LINES) * BLOCK_X;
  vec4 staged[STAGED];
  fetch_tile(first, n, staged);
  // Uniform bounds: every invocation reaches every barrier.
  for (int tile = 0; tile < TILES; ++tile) {
    ivec2 origin = first + ivec2(0, tile * LINES);
    stage_tile(n, staged);
    memoryBarrierShared();
    barrier();
    if (tile + 1 < TILES) fetch_tile(origin + ivec2(0, LINES), n, staged);  // in flight during the sums

    vec4 sums[BLOCK_X];
    block_sums(RbLine(false, ivec2(0), line * STAGE_STRIDE + x, 1, 0), sums);
    int y = origin.y + line;
    if (y < size.y)
      for (int k = 0; k < BLOCK_X; ++k)
        if (origin.x + x + k < size.x) store_target(ivec2(y, origin.x + x + k), sums[k]);
    memoryBarrierShared();  // the next tile's staging overwrites what the sums read
    barrier();
  }
}
