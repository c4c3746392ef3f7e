#version 430 core
// compute-strip-regblock: both passes in one dispatch, register blocked (regblock_common.glsl),
// each workgroup walking down a strip of STRIP columns (the FidelityFX walk with register blocks):
// every row of the strip is blurred horizontally once, into a ring of the last 2r + STEP rows in
// shared memory, and every output sums its column from the ring. Per step of STEP rows:
//  1. horizontal: invocation n blurs BLOCK consecutive columns of one new row (rows y0 + r ..
//     y0 + r + STEP - 1) from the BLOCK + 2r texels they need, each read once;
//  2. barrier;
//  3. vertical: invocation n sums BLOCK consecutive output rows of one column from the BLOCK + 2r
//     ring rows they need, each loaded once, and stores those inside the image;
//  4. barrier (the next step overwrites the ring rows that left the window).
// A segment of SEGMENT rows starts with a prologue: the 2r rows above its first output row. So
// each texel is blurred horizontally (1 + 2r / SEGMENT) times, never more, and the arithmetic
// is the minimal 2 (2r+1) FMAs per channel otherwise (no vertical apron recomputed).
// FETCH_TEXTURE selects the source hook: texelFetch through texture units, or imageLoad.
// WEIGHTS_CONST: the host passes the weights as CONST_TAPS (compile-time constants).
#include "blur_common.glsl"
#if FETCH_TEXTURE
#include "source_sampler.glsl"
#else
#include "source_image.glsl"
#endif
#include "target_image.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

const int N = WG_X * WG_Y;
const int STEP = N * BLOCK / STRIP;        // rows per step: N blocks each way (the host checks)
const int RING = 2 * RADIUS + STEP;        // ring rows, STRIP texels each
#if LDS_TEXELS != STRIP * (2 * RADIUS + WG_X * WG_Y * BLOCK / STRIP)
#error LDS_TEXELS does not match the ring STRIP x (2r + STEP)
#endif
#include "lds_common.glsl"

#define RB_K BLOCK
#define RB_LINE_SUM block_sums
#include "regblock_common.glsl"

int g_segment_top;  // image row of ring row 0 of this segment's walk: its first output row - r
int ring_row(int y) { return (y - g_segment_top) % RING; }

// Blurs horizontally image row y, columns x .. x + BLOCK - 1, into the ring. Rows outside the
// image are read through the border rule like any tap (the border's row, or the constant).
void blur_row_block(int x, int y) {
  vec4 sums[BLOCK];
  block_sums(RbLine(true, ivec2(x - RADIUS, y), 0, 0, 0), sums);
  int base = ring_row(y) * STRIP + (x - int(gl_WorkGroupID.x) * STRIP);
  for (int k = 0; k < BLOCK; ++k) lds_store(base + k, sums[k]);
}

void main() {
  ivec2 size = source_size();
  int n = int(gl_LocalInvocationIndex);
  int x0 = int(gl_WorkGroupID.x) * STRIP;
  int start = int(gl_WorkGroupID.y) * SEGMENT, end = min(start + SEGMENT, size.y);
  g_segment_top = start - RADIUS;
  // The horizontal task: a block of columns of one of the step's rows; the vertical task: a block
  // of rows of one column (consecutive invocations take consecutive columns: no bank conflicts).
  int h_row = n / (STRIP / BLOCK), h_x = x0 + (n % (STRIP / BLOCK)) * BLOCK;
  int v_column = n % STRIP, v_row = (n / STRIP) * BLOCK;

  // Prologue: rows start - r .. start + r - 1, STEP at a time (no barrier: the first step's
  // barrier orders these stores before any read, and no two invocations store the same row).
  for (int first = start - RADIUS; first < start + RADIUS; first += STEP)
    if (first + h_row < start + RADIUS) blur_row_block(h_x, first + h_row);

  // Uniform bounds: every invocation reaches both barriers of every step.
  for (int y0 = start; y0 < end; y0 += STEP) {
    blur_row_block(h_x, y0 + RADIUS + h_row);
    memoryBarrierShared();
    barrier();
    // Output rows y + k take ring rows y + k - r .. y + k + r: from ring row (y - r) on.
    int y = y0 + v_row;
    vec4 outputs[BLOCK];
    block_sums(RbLine(false, ivec2(0), ring_row(y - RADIUS) * STRIP + v_column, STRIP, RING * STRIP), outputs);
    if (x0 + v_column < size.x)
      for (int k = 0; k < BLOCK; ++k)
        if (y + k < end) store_target(ivec2(x0 + v_column, y + k), outputs[k]);
    memoryBarrierShared();
    barrier();
  }
}
