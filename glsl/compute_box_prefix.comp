#version 430 core
#if SCAN_SUBGROUP
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
// compute-box-prefix: the box blur in one dispatch at a cost that does not grow with r. A
// workgroup of N = WG_X invocations owns a tile of N - 2r output columns and SEGMENT rows.
//  - Vertical: invocation c walks down span column c (image column x0 - r + c; the span is the
//    tile plus the r-column apron on both sides) with the column's running box sum V: it starts
//    from the window before the tile (2r+1 loads), then each row adds the entering texel (r
//    below) and subtracts the leaving one (r + 1 above): two loads per row whatever r is.
//  - Horizontal, BATCH rows at a time: the batch's V rows go to shared memory; each row is
//    prefix-summed, P(c) = V(0) + ... + V(c) (each invocation sums a chunk of BATCH consecutive
//    columns of one row; the chunks' offsets come from a scan of their totals, across a subgroup
//    with subgroupExclusiveAdd when SCAN_SUBGROUP, else from shared memory); then output column j
//    of the tile is P(j + 2r) - P(j - 1) times the box weight squared.
// rgba8 input (EXACT): texels are summed as integers, V fits 16 bits a channel (at most
// 257 x 255) and P wraps modulo 2^32 harmlessly (a window sum is below 2^24), so the result is
// the exact box average, rounded once. Float input: fp32 sums.
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"

layout(local_size_x = WG_X) in;

const int N = WG_X;
const int TILE_W = N - 2 * RADIUS;          // the host checks it is at least 1
const int CHUNKS = N / BATCH;               // chunks of BATCH columns per batch row (the host checks BATCH divides N)

#if EXACT
#define SUM uvec4
SUM to_sum(vec4 v) { return uvec4(round(v * 255.0)); }
#else
#define SUM vec4
SUM to_sum(vec4 v) { return v; }
#endif

shared SUM s_rows[BATCH * N];  // [batch row][span column]: V, then P in place
#if SCAN_SUBGROUP
shared SUM s_subgroup_total[N];  // [batch row * subgroups per row + subgroup]
#else
shared SUM s_chunk_total[N];     // [batch row * CHUNKS + chunk]
#endif

SUM texel(int x, int y) { return to_sum(source_texel(ivec2(x, y))); }

void main() {
  ivec2 size = source_size();
  int c = int(gl_LocalInvocationID.x);
  int x0 = int(gl_WorkGroupID.x) * TILE_W;
  int y0 = int(gl_WorkGroupID.y) * SEGMENT, y1 = min(y0 + SEGMENT, size.y);
  int x = x0 - RADIUS + c;

  // The window before the tile: rows y0 - r - 1 .. y0 + r - 1 of this column, 4 loads at a time.
  SUM v = SUM(0);
  for (int base = 0; base < 2 * RADIUS + 1; base += 4) {
    SUM t[4];
    for (int u = 0; u < 4; ++u) t[u] = base + u < 2 * RADIUS + 1 ? texel(x, y0 - RADIUS - 1 + base + u) : SUM(0);
    for (int u = 0; u < 4; ++u) v += t[u];
  }

  // The chunk this invocation prefix-sums in each batch: row `row`, columns [first, first + BATCH).
  // With subgroups, chunks are numbered by subgroup and lane, so that a subgroup's exclusive sum
  // runs over consecutive chunks of one row (GL does not promise how invocations map to lanes).
#if SCAN_SUBGROUP
  int order = int(gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID);
#else
  int order = c;
#endif
  int row = order / CHUNKS, chunk = order % CHUNKS, first = chunk * BATCH;
#if EXACT
  const float scale = tap_weight(0) * tap_weight(0) * (1.0 / 255.0);
#else
  const float scale = tap_weight(0) * tap_weight(0);
#endif

  // Uniform bounds: every invocation reaches every barrier.
  for (int batch = y0; batch < y1; batch += BATCH) {
    // Vertical: BATCH steps of the running sum, entering and leaving loads issued first.
    SUM enter[BATCH], leave[BATCH];
    for (int b = 0; b < BATCH; ++b) {
      enter[b] = texel(x, batch + b + RADIUS);
      leave[b] = texel(x, batch + b - RADIUS - 1);
    }
    for (int b = 0; b < BATCH; ++b) {
      v += enter[b] - leave[b];
      s_rows[b * N + c] = v;
    }
    memoryBarrierShared();
    barrier();

    // Horizontal prefix sums: this invocation's chunk in registers, its total...
    SUM part[BATCH];
    SUM total = SUM(0);
    for (int k = 0; k < BATCH; ++k) {
      total += s_rows[row * N + first + k];
      part[k] = total;
    }
    // ... and the sum of the chunks before it in its row.
#if SCAN_SUBGROUP
    // CHUNKS is a multiple of the subgroup size (checked by the host): a subgroup never spans two
    // rows, and the subgroups of a row are consecutive.
    const int per_row = CHUNKS / int(gl_SubgroupSize);
    // Subgroup operations in uniform control flow: all lanes take part, then one stores.
    SUM offset = subgroupExclusiveAdd(total);
    SUM subgroup_total = subgroupAdd(total);
    if (subgroupElect()) s_subgroup_total[gl_SubgroupID] = subgroup_total;
    memoryBarrierShared();
    barrier();
    for (int s = row * per_row; s < int(gl_SubgroupID); ++s) offset += s_subgroup_total[s];
#else
    s_chunk_total[order] = total;
    memoryBarrierShared();
    barrier();
    SUM offset = SUM(0);
    for (int k = row * CHUNKS; k < order; ++k) offset += s_chunk_total[k];
#endif
    for (int k = 0; k < BATCH; ++k) s_rows[row * N + first + k] = part[k] + offset;
    memoryBarrierShared();
    barrier();

    // Outputs: tile column j of batch row b is the window of span columns j .. j + 2r.
    for (int o = c; o < BATCH * TILE_W; o += N) {
      int b = o / TILE_W, j = o % TILE_W;
      SUM sum = s_rows[b * N + j + 2 * RADIUS] - (j > 0 ? s_rows[b * N + j - 1] : SUM(0));
      ivec2 p = ivec2(x0 + j, batch + b);
      if (p.x < size.x && p.y < y1) store_target(p, vec4(sum) * scale);
    }
    memoryBarrierShared();  // the next batch overwrites s_rows
    barrier();
  }
}
