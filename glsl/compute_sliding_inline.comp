#version 430 core
// compute-sliding-inline: both running sums in one dispatch, no intermediate texture. A
// workgroup of WG_X invocations owns a strip of WG_X columns and walks down SEGMENT rows of it
// (after a warm-up of 2r+1 rows), a batch of WG_X/2 rows at a time:
//  1. horizontal: each invocation slides along one row of the strip and stores its WG_X
//     horizontal box sums in shared memory: invocation i < WG_X/2 the row entering the vertical
//     window at batch step i, invocation WG_X/2 + i the row leaving it at that step (recomputed
//     rather than kept: a ring of the 2r+2 rows of the window would need (2r+2) x WG_X sums,
//     66 KiB at r = 64 for 32 columns, more than either device has; recomputing doubles the
//     horizontal work but keeps shared memory at WG_X x (WG_X + 1) sums for every radius);
//  2. vertical: invocation i keeps the running sum of column i: for each step of the batch it
//     adds the entering row's sum and subtracts the leaving row's, and stores the output.
// The first 2r+1 steps (the warm-up) only add entering rows: they build the window centred on
// the segment's first row - 1 from zero, so the rows above the image (read through the border
// rule like any tap) come out exactly.
#define SLIDE_EMIT_CUSTOM 1
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"

layout(local_size_x = WG_X) in;  // WG_Y = 1 and WG_X even (checked by the host)

#include "sliding_common.glsl"

const int STRIP = WG_X;        // columns of the strip, one invocation each
const int BATCH = WG_X / 2;    // vertical steps per batch
const int STRIDE = STRIP + 1;  // padded: the horizontal phase writes one column of all rows at once
shared ACC s_rows[WG_X * STRIDE];  // row i: horizontal sums of invocation i's row

int g_row;  // this invocation's row in s_rows
void emit(ivec2 p, int k, ACC sum) { s_rows[g_row * STRIDE + k] = sum; }

void main() {
  ivec2 size = source_size();
  int i = int(gl_LocalInvocationID.x);
  int x0 = int(gl_WorkGroupID.x) * STRIP, x = x0 + i;
  int y0 = int(gl_WorkGroupID.y) * SEGMENT, y1 = min(y0 + SEGMENT, size.y);
  g_row = i;
  bool entering = i < BATCH;
  Line row;
  row.dir = ivec2(1, 0);
  row.len = size.x;
  ACC column = ACC(0);  // the vertical window sum of column x
  // Step t outputs row t: its window gains row t + r and loses row t - r - 1. Uniform bounds:
  // every invocation reaches both barriers of every batch.
  for (int batch = y0 - 2 * RADIUS - 1; batch < y1; batch += BATCH) {
    int t = batch + (entering ? i : i - BATCH);
    if (t < y1 && (entering || t >= y0)) {  // warm-up steps lose no row
      // The row may lie outside the image: its texels follow the border rule (no mapped row).
      row.origin = ivec2(0, entering ? t + RADIUS : t - RADIUS - 1);
      slide(row, x0, STRIP, window_before(row, x0), true);
    }
    memoryBarrierShared();
    barrier();
    for (int j = 0; j < BATCH && batch + j < y1; ++j) {
      int tj = batch + j;
      ACC change = s_rows[j * STRIDE + i];
      if (tj >= y0) change -= s_rows[(BATCH + j) * STRIDE + i];
      column += change;
      if (tj >= y0 && x < size.x) store_target(ivec2(x, tj), from_acc(column));
    }
    memoryBarrierShared();  // the next batch overwrites s_rows
    barrier();
  }
}
