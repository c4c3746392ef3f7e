#version 430 core
// An experiment, not a variant (tests/device/perf.sh PART=gauss_halves copies it over
// glsl/compute_separable_regblock.comp in a --shader-dir): compute-separable-regblock whose fp16
// cache's 8 bytes per texel hold two fp32 channels instead of four fp16 ones. Each tile is staged and
// summed twice (r, g then b, a): the fp32 cache's loads with no conversions at the fp16 cache's
// footprint, for twice the shared loads and barriers. Run 25 of docs/data/h100/issue16: its sums alone
// are the fastest measured (82% of the FMA rate at r = 30), the whole blur is not faster.
#include "blur_common.glsl"
#include "source_sampler.glsl"
#include "target_image.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

const int N = WG_X * WG_Y;
const int SPAN = N / LINES * BLOCK_X;
const int STAGE_WIDTH = SPAN + 2 * RADIUS;
const int STAGE_STRIDE = STAGE_WIDTH | 1;
#if CACHE_BITS != 16
#error the halves experiment runs with --cache fp16 (8 bytes per texel)
#endif
#include "lds_common.glsl"

const int STAGED = (LINES * STAGE_WIDTH + N - 1) / N;
const int TAPS = 2 * RADIUS + 1;

void fetch_tile(ivec2 origin, int n, out vec4 staged[STAGED]) {
  for (int s = 0; s < STAGED; ++s) {
    int i = n + s * N;
    staged[s] = source_texel(origin + ivec2(i % STAGE_WIDTH - RADIUS, i / STAGE_WIDTH));
  }
}

void stage_half(int n, vec4 staged[STAGED], bool high) {
  for (int s = 0; s < STAGED; ++s) {
    int i = n + s * N;
    if (i < LINES * STAGE_WIDTH) s_lds[i / STAGE_WIDTH * STAGE_STRIDE + i % STAGE_WIDTH] = floatBitsToUint(high ? staged[s].zw : staged[s].xy);
  }
}

vec2 half_load(int i) { return uintBitsToFloat(s_lds[i]); }

#define HALF_SCATTER(i)                                                                  \
  {                                                                                      \
    vec2 x = half_load(base + (i));                                                      \
    for (int k = 0; k < BLOCK_X; ++k)                                                    \
      if ((i) - k >= 0 && (i) - k < TAPS) acc[k] += tap_weight((i) - k - RADIUS) * x;    \
  }

// regblock_common.glsl's weighted line sum, on two channels.
void half_sums(int base, out vec2 acc[BLOCK_X]) {
  const int inputs = BLOCK_X + 2 * RADIUS;
  const int full = TAPS / BLOCK_X;
  const int tail = max(BLOCK_X, full * BLOCK_X);
  for (int k = 0; k < BLOCK_X; ++k) acc[k] = vec2(0.0);
  for (int i = 0; i < BLOCK_X; ++i) HALF_SCATTER(i)
  for (int b = 1; b < full; ++b)
    for (int ii = 0; ii < BLOCK_X; ++ii) {
      int i = b * BLOCK_X + ii;
      vec2 x = half_load(base + i);
      for (int k = 0; k < BLOCK_X; ++k) acc[k] += tap_weight(i - k - RADIUS) * x;
    }
  for (int i = tail; i < inputs; ++i) HALF_SCATTER(i)
}

void main() {
  ivec2 size = source_size();
  int n = int(gl_LocalInvocationIndex);
  ivec2 first = ivec2(gl_WorkGroupID.xy) * ivec2(SPAN, LINES * TILES);
  int line = n % LINES, x = (n / LINES) * BLOCK_X;
  vec4 staged[STAGED];
  fetch_tile(first, n, staged);
  for (int tile = 0; tile < TILES; ++tile) {
    ivec2 origin = first + ivec2(0, tile * LINES);
    stage_half(n, staged, false);
    memoryBarrierShared();
    barrier();
    vec2 lo[BLOCK_X];
    half_sums(line * STAGE_STRIDE + x, lo);
    memoryBarrierShared();
    barrier();
    stage_half(n, staged, true);
    memoryBarrierShared();
    barrier();
    if (tile + 1 < TILES) fetch_tile(origin + ivec2(0, LINES), n, staged);
    vec2 hi[BLOCK_X];
    half_sums(line * STAGE_STRIDE + x, hi);
    int y = origin.y + line;
    if (y < size.y)
      for (int k = 0; k < BLOCK_X; ++k)
        if (origin.x + x + k < size.x) store_target(ivec2(y, origin.x + x + k), vec4(lo[k], hi[k]));
    memoryBarrierShared();
    barrier();
  }
}
