#version 430 core
// compute-inline-persistent: both passes in one dispatch, no intermediate texture (the
// FidelityFX approach). A workgroup of W x S invocations (W = WG_X, S = WG_Y) owns a strip of W
// columns and walks down SEGMENT rows of it, S rows per step, keeping a ring of the last 2r + S
// horizontally blurred rows in shared memory. Per step it reads S new input rows of the strip
// plus the horizontal apron (W + 2r texels each) once, blurs them horizontally into the ring,
// and writes S output rows, each the 2r+1 vertical taps of the ring.
//
// Shared memory, one array s_lds:
//   [0, IN_TEXELS)                   S input rows of W + 2r texels (border rule applied), of the current step
//   [IN_TEXELS, + RING_ROWS * W)     the ring: horizontally blurred row y of the segment that
//                                    starts at row `start` lives in slot (y - start + r) % RING_ROWS
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

const int SPAN = WG_X + 2 * RADIUS;
const int IN_TEXELS = WG_Y * SPAN;
const int RING_ROWS = 2 * RADIUS + WG_Y;
#if LDS_TEXELS != WG_Y * (WG_X + 2 * RADIUS) + WG_X * (2 * RADIUS + WG_Y)
#error LDS_TEXELS does not match S x (W + 2r) input texels plus the ring W x (2r + S)
#endif
#include "lds_common.glsl"

// Horizontally blurs the strip's image rows first .. first + count - 1 (count <= S; rows outside
// the image are read through the border rule like any texel) into their ring slots. Call in uniform control flow (all arguments dynamically uniform).
// The first barrier orders the input loads before the horizontal sums, and the ring stores after
// the previous step's vertical reads of the slots they overwrite; the second orders the ring
// stores before the vertical reads, and the horizontal sums before the next input loads.
void blur_rows_into_ring(int x0, int start, int first, int count) {
  lds_fill_rect(0, ivec2(x0 - RADIUS, first), ivec2(SPAN, count));
  memoryBarrierShared();
  barrier();
  ivec2 local = ivec2(gl_LocalInvocationID.xy);
  if (local.y < count) {
    int slot = (first + local.y - start + RADIUS) % RING_ROWS;
    lds_store(IN_TEXELS + slot * WG_X + local.x, lds_tap_sum(local.y * SPAN + local.x + RADIUS, 1));
  }
  memoryBarrierShared();
  barrier();
}

void main() {
  ivec2 size = source_size();
  int x0 = int(gl_WorkGroupID.x) * WG_X;
  int start = int(gl_WorkGroupID.y) * SEGMENT;
  int end = min(start + SEGMENT, size.y);
  ivec2 local = ivec2(gl_LocalInvocationID.xy);

  // Prologue: rows start - r .. start + r - 1, S at a time (the last chunk may be shorter).
  for (int first = start - RADIUS; first < start + RADIUS; first += WG_Y)
    blur_rows_into_ring(x0, start, first, min(WG_Y, start + RADIUS - first));

  // Steps: output rows y0 .. y0 + S - 1 need ring rows y0 - r .. y0 + S - 1 + r; the ring holds
  // y0 - r .. y0 + r - 1 already, the step adds y0 + r .. y0 + r + S - 1 over y0 - r - S .. y0 - r - 1.
  for (int y0 = start; y0 < end; y0 += WG_Y) {
    blur_rows_into_ring(x0, start, y0 + RADIUS, WG_Y);
    int y = y0 + local.y;
    int slot = (y - start) % RING_ROWS;  // the slot of row y - r
    vec4 sum = vec4(0.0);
    for (int j = -RADIUS; j <= RADIUS; ++j) {
      sum += tap_weight(j) * lds_load(IN_TEXELS + slot * WG_X + local.x);
      slot = slot + 1 == RING_ROWS ? 0 : slot + 1;
    }
    // Partial strips at the right edge and rows past the segment or the image are not stored.
    if (x0 + local.x < size.x && y < end) store_target(ivec2(x0 + local.x, y), sum);
  }
}
