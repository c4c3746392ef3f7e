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
// FETCH selects how the horizontal stage reads the source: 0 imageLoad, 1 texelFetch (texture
// units convert rgba8 and cache in 2D), 2 staged: the step's rows (plus the 2r apron columns) are
// first loaded into shared memory with consecutive invocations on consecutive texels (each texel
// converted once), then blurred from there, consecutive invocations on consecutive rows (odd row
// strides: no bank conflicts). WEIGHTS_CONST: the host passes the weights as CONST_TAPS.
#include "blur_common.glsl"
#if FETCH == 1
#include "source_sampler.glsl"
#else
#include "source_image.glsl"
#endif
#include "target_image.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

const int N = WG_X * WG_Y;
const int STEP = N * BLOCK / STRIP;        // rows per step: N blocks each way (the host checks)
const int RING = 2 * RADIUS + STEP;        // ring rows
const int RING_STRIDE = STRIP | 1;         // odd: the horizontal stage's stores hit distinct banks
#if FETCH == 2
const int STAGE_WIDTH = STRIP + 2 * RADIUS;
const int STAGE_STRIDE = STAGE_WIDTH | 1;
const int STAGE_BASE = RING * RING_STRIDE;  // the staging rows follow the ring
#if LDS_TEXELS != (STRIP | 1) * (2 * RADIUS + WG_X * WG_Y * BLOCK / STRIP) + (WG_X * WG_Y * BLOCK / STRIP) * ((STRIP + 2 * RADIUS) | 1)
#error LDS_TEXELS does not match the ring (STRIP | 1) x (2r + STEP) plus the staging STEP x ((STRIP + 2r) | 1)
#endif
#else
#if LDS_TEXELS != (STRIP | 1) * (2 * RADIUS + WG_X * WG_Y * BLOCK / STRIP)
#error LDS_TEXELS does not match the ring (STRIP | 1) x (2r + STEP)
#endif
#endif
#include "lds_common.glsl"

#define RB_K BLOCK
#define RB_LINE_SUM block_sums
#include "regblock_common.glsl"

int g_segment_top;  // image row of ring row 0 of this segment's walk: its first output row - r
int ring_row(int y) { return (y - g_segment_top) % RING; }

#if FETCH == 2
// Loads image rows first .. first + STEP - 1, columns x0 - r .. x0 + STRIP + r - 1, into the
// staging rows. No barrier inside: call in uniform control flow, with barriers around.
void stage_rows(int x0, int first) {
  for (int i = int(gl_LocalInvocationIndex); i < STEP * STAGE_WIDTH; i += N) {
    int row = i / STAGE_WIDTH, column = i % STAGE_WIDTH;
    lds_store(STAGE_BASE + row * STAGE_STRIDE + column, source_texel(ivec2(x0 - RADIUS + column, first + row)));
  }
}

// Blurs staging row `row` (image row y), columns x .. x + BLOCK - 1 of the strip, into the ring.
void blur_staged_block(int row, int y, int column) {
  vec4 sums[BLOCK];
  block_sums(RbLine(false, ivec2(0), STAGE_BASE + row * STAGE_STRIDE + column, 1, 0), sums);
  int base = ring_row(y) * RING_STRIDE + column;
  for (int k = 0; k < BLOCK; ++k) lds_store(base + k, sums[k]);
}
#else
// Blurs horizontally image row y, strip columns x .. x + BLOCK - 1 (image column x0 + x), into
// the ring. Rows outside the image are read through the border rule like any tap (the border's
// row, or the constant).
void blur_row_block(int x0, int x, int y) {
  vec4 sums[BLOCK];
  block_sums(RbLine(true, ivec2(x0 + x - RADIUS, y), 0, 0, 0), sums);
  int base = ring_row(y) * RING_STRIDE + x;
  for (int k = 0; k < BLOCK; ++k) lds_store(base + k, sums[k]);
}
#endif

// Sums column v_column of the strip for output rows y .. y + BLOCK - 1 from the ring rows
// y - r .. y + BLOCK - 1 + r, and stores those inside the image and the segment.
void sum_columns(int x0, int v_column, int y, int end) {
  vec4 outputs[BLOCK];
  block_sums(RbLine(false, ivec2(0), ring_row(y - RADIUS) * RING_STRIDE + v_column, RING_STRIDE, RING * RING_STRIDE), outputs);
  if (x0 + v_column < source_size().x)
    for (int k = 0; k < BLOCK; ++k)
      if (y + k < end) store_target(ivec2(x0 + v_column, y + k), outputs[k]);
}

void main() {
  ivec2 size = source_size();
  int n = int(gl_LocalInvocationIndex);
  int x0 = int(gl_WorkGroupID.x) * STRIP;
  int start = int(gl_WorkGroupID.y) * SEGMENT, end = min(start + SEGMENT, size.y);
  g_segment_top = start - RADIUS;
  // The vertical task: a block of rows of one column (consecutive invocations take consecutive
  // columns: no bank conflicts).
  int v_column = n % STRIP, v_row = (n / STRIP) * BLOCK;
#if FETCH == 2
  // The horizontal task: one staging row, a block of columns; consecutive invocations take
  // consecutive rows.
  int h_row = n % STEP, h_x = (n / STEP) * BLOCK;
  // Prologue: rows start - r .. start + r - 1, STEP at a time (uniform bounds, barriers inside).
  for (int first = start - RADIUS; first < start + RADIUS; first += STEP) {
    stage_rows(x0, first);
    memoryBarrierShared();
    barrier();
    if (first + h_row < start + RADIUS) blur_staged_block(h_row, first + h_row, h_x);
    memoryBarrierShared();
    barrier();  // the next stage_rows overwrites the staging rows
  }
  stage_rows(x0, start + RADIUS);
  memoryBarrierShared();
  barrier();
  for (int y0 = start; y0 < end; y0 += STEP) {
    blur_staged_block(h_row, y0 + RADIUS + h_row, h_x);
    memoryBarrierShared();
    barrier();
    sum_columns(x0, v_column, y0 + v_row, end);
    if (y0 + STEP < end) stage_rows(x0, y0 + STEP + RADIUS);  // uniform: every invocation agrees
    memoryBarrierShared();
    barrier();
  }
#else
  // The horizontal task: a block of columns of one of the step's rows.
  int h_row = n / (STRIP / BLOCK), h_x = (n % (STRIP / BLOCK)) * BLOCK;
  // Prologue: rows start - r .. start + r - 1, STEP at a time (no barrier: the first step's
  // barrier orders these stores before any read, and no two invocations store the same row).
  for (int first = start - RADIUS; first < start + RADIUS; first += STEP)
    if (first + h_row < start + RADIUS) blur_row_block(x0, h_x, first + h_row);

  // Uniform bounds: every invocation reaches both barriers of every step.
  for (int y0 = start; y0 < end; y0 += STEP) {
    blur_row_block(x0, h_x, y0 + RADIUS + h_row);
    memoryBarrierShared();
    barrier();
    sum_columns(x0, v_column, y0 + v_row, end);
    memoryBarrierShared();
    barrier();
  }
#endif
}
