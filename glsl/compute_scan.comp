#version 430 core
// compute-scan: the pair of passes Toschi inferred from the MPS trace (MIBox_Horizontal,
// MIBox_Vertical_Scan).
//   AXIS 0: running box sums along rows (one invocation per row segment) into an rgba32f
//           intermediate that holds the raw sums (sliding_common.glsl: line_pass).
//   AXIS 1: a workgroup of WG_X columns x WG_Y invocations per column owns WG_Y * SEGMENT rows
//           of those columns; invocation k of a column takes the k-th contiguous chunk of those
//           rows (SEGMENT rows, fewer at the bottom). In both passes an invocation slides over at
//           most SEGMENT texels.
// With P the prefix sum of a column's row sums H (rows past the edges repeat the edge row), the
// vertical box sum is V(y) = P[y+r] - P[y-r-1]. Across a chunk [c0, c1) it changes by
//   D = (P[c1-1+r] - P[c0-1+r]) - (P[c1-2-r] - P[c0-2-r]) = sum over y in the chunk of H[y+r] - H[y-r-1],
// the chunk total of the entering prefix minus that of the leaving prefix. So:
//   1. each invocation sums its chunk's D (two reads per row) and a 1/WG_Y share of the window
//      before the segment (rows y0-1-r .. y0-1+r), and stores both in shared memory;
//   2. after the one barrier, invocation k adds the window shares and the exclusive prefix of
//      the chunk totals D_0 .. D_{k-1}: the window before its chunk, V(c0 - 1), exactly;
//   3. it slides that window over its chunk (two reads per row) and stores the outputs.
// The scan of WG_Y totals is sequential per invocation (WG_Y shared reads, no more barriers):
// for 16 chunks that is cheaper than a log-step scan with a barrier per step.
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

#include "sliding_common.glsl"

#if AXIS == 0
void main() { line_pass(); }
#else
shared ACC s_window[WG_Y * WG_X];  // [k][column]: chunk k's share of the window before the segment
shared ACC s_change[WG_Y * WG_X];  // [k][column]: D_k, the change of the window over chunk k

void main() {
  ivec2 size = source_size();
  int column = int(gl_LocalInvocationID.x), k = int(gl_LocalInvocationID.y);
  int x = int(gl_WorkGroupID.x) * WG_X + column;
  int y0 = int(gl_WorkGroupID.y) * (WG_Y * SEGMENT), y1 = min(y0 + WG_Y * SEGMENT, size.y);
  int chunk = (y1 - y0 + WG_Y - 1) / WG_Y;
  int c0 = min(y0 + k * chunk, y1), c1 = min(c0 + chunk, y1);  // may be empty
  bool inside = x < size.x;  // partial workgroup: no reads or writes, but every barrier
  Line line;
  line.origin = ivec2(x, 0);
  line.dir = ivec2(0, 1);
  line.len = size.y;

  ACC window = ACC(0), change = ACC(0);
  if (inside) {
    for (int j = k; j < 2 * RADIUS + 1; j += WG_Y) window += load_line(line, y0 - RADIUS - 1 + j);
    change = slide(line, c0, c1 - c0, ACC(0), false);
  }
  s_window[k * WG_X + column] = window;
  s_change[k * WG_X + column] = change;
  memoryBarrierShared();
  barrier();

  if (!inside || c0 >= c1) return;  // after the only barrier
  ACC sum = ACC(0);
  for (int j = 0; j < WG_Y; ++j) sum += s_window[j * WG_X + column];
  for (int j = 0; j < k; ++j) sum += s_change[j * WG_X + column];
  slide(line, c0, c1 - c0, sum, true);
}
#endif
