#version 430 core
#if SCAN_SUBGROUP
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
// compute-box-blocked: the box blur in one dispatch at a cost that does not grow with r. A
// workgroup of N = WG_X invocations owns a span of N * K columns (K = COLUMNS: the tile of
// N * K - 2r output columns and the r-column apron on both sides) for SEGMENT rows, one row per step.
//  - Vertical, in the load layout: invocation i loads span columns i + N * k (a warp's loads are
//    consecutive texels, moved as bits) and keeps their running window sums V (2r+1 rows) in
//    registers: per row, the entering texel (r below) in, the leaving one (r + 1 above, a cache
//    hit) out. No texel goes through shared memory.
//  - Horizontal, in the owner layout: V goes to shared memory once; invocation `owner` reads the K
//    consecutive columns c = owner * K + j and sums them in registers. The window at its first
//    column is a difference of two prefix sums, W(c) = P(c + r) - P(c - r - 1), read from the
//    invocations owning those columns (each publishes its prefix at the two positions others need;
//    the offsets between invocations come from a scan of their totals); the next K - 1 windows slide:
//    W(c) = W(c - 1) + V(c + r) - V(c - r - 1).
//  - The K outputs, packed, go through shared memory once more to be stored consecutively.
// Per texel that is 2 + 4 words of V through shared memory and 2 of output, plus 16 words per
// K texels for the prefix sums; three barriers per row. The next row's loads are issued before
// the current row's sums, so they are in flight during them.
// rgba8 input (EXACT): integer sums. V holds two 16-bit fields per uint (r and b, g and a): a
// window of 2r+1 <= 257 texels sums to at most 257 * 255 = 65535 per channel, so adding and
// subtracting whole uints is exact (a borrow between fields cancels modulo 2^32). P and W are four
// uints (a wrap of P modulo 2^32 cancels in W, which is below 2^24). The output is the exact
// average, rounded to nearest (the area (2r+1)^2 is odd: no ties). rgba16f input: fp32 sums.
#include "blur_common.glsl"
#include "raw_images.glsl"

layout(local_size_x = WG_X) in;

const int N = WG_X;
const int K = COLUMNS;
const int SPAN = N * K;
const int TILE_W = SPAN - 2 * RADIUS;  // the host checks it is at least 1
// One word of padding per 32 columns: an invocation's K consecutive columns (K a power of two up
// to 32) and a warp's 32 consecutive columns both fall in distinct banks.
const int PADDED = SPAN + SPAN / 32;
int bank_free(int column) { return column + (column >> 5); }

// Where the prefix sums of a window at an invocation's first column c = owner * K come from:
// P(c + r) is at column HIGH_J of invocation owner + HIGH_OWNER, P(c - r - 1) at column LOW_J of
// owner - LOW_OWNER (none, i.e. 0, left of the span).
const int HIGH_OWNER = RADIUS / K, HIGH_J = RADIUS % K;
const int LOW_OWNER = (RADIUS + 1 + K - 1) / K, LOW_J = LOW_OWNER * K - (RADIUS + 1);

// Texels move as their bits (raw_images.glsl): rgba8 as one uint, rgba16f as two.
#if EXACT
#define TEXEL uint
#define COLUMN uvec2  // V: (r | b << 16, g | a << 16)
#define SUM uvec4
TEXEL texel_bits(uvec4 raw) { return raw.x; }
uvec4 raw_bits(TEXEL t) { return uvec4(t, 0u, 0u, 0u); }
#if BORDER == BORDER_CONSTANT
TEXEL border_bits() { return packUnorm4x8(border_value()); }  // exact: the value is a texel's
#endif
COLUMN column_of(TEXEL t) { return uvec2(t & 0x00FF00FFu, (t >> 8) & 0x00FF00FFu); }
SUM sum_of(COLUMN v) { return uvec4(v.x & 0xFFFFu, v.y & 0xFFFFu, v.x >> 16, v.y >> 16); }
TEXEL output_bits(SUM window) {
  const uint AREA = uint((2 * RADIUS + 1) * (2 * RADIUS + 1));
  uvec4 q = (window + AREA / 2u) / AREA;
  return q.r | q.g << 8 | q.b << 16 | q.a << 24;
}
#else
#define TEXEL uvec2
#define COLUMN vec4
#define SUM vec4
TEXEL texel_bits(uvec4 raw) { return raw.xy; }
uvec4 raw_bits(TEXEL t) { return uvec4(t, 0u, 0u); }
#if BORDER == BORDER_CONSTANT
TEXEL border_bits() {
  vec4 v = border_value();
  return uvec2(packHalf2x16(v.xy), packHalf2x16(v.zw));
}
#endif
COLUMN column_of(TEXEL t) { return vec4(unpackHalf2x16(t.x), unpackHalf2x16(t.y)); }
SUM sum_of(COLUMN v) { return v; }
TEXEL output_bits(SUM window) {
  float w = tap_weight(0);
  vec4 v = window * (w * w);
  return uvec2(packHalf2x16(v.xy), packHalf2x16(v.zw));
}
#endif

TEXEL load_texel(ivec2 p, ivec2 size) {
#if BORDER == BORDER_CONSTANT
  return border_outside(p, size) ? border_bits() : texel_bits(imageLoad(u_src_raw, p));
#else
  return texel_bits(imageLoad(u_src_raw, border_texel(p, size)));
#endif
}

shared COLUMN s_v[PADDED];     // V of the row, by span column
shared SUM s_high[N];          // P(owner * K + HIGH_J) within its scan group, by owner
shared SUM s_low[N];           // P(owner * K + LOW_J) within its scan group, by owner
shared SUM s_totals[N];        // the scan groups' totals
shared TEXEL s_out[PADDED];    // the row's outputs, by span column of their centre

// V at span column c, 0 outside the span (left of it, the window recurrence needs V = 0; right of
// it, only windows that are not output read it).
SUM column_sum(int c) { return (c >= 0 && c < SPAN) ? sum_of(s_v[bank_free(c)]) : SUM(0); }

// The scan groups: a subgroup of consecutive owners with SCAN_SUBGROUP (its prefix is one
// subgroupExclusiveAdd), else each owner alone. A prefix sum at owner o's column is its value
// within the group plus the totals of the groups before o's.
#if SCAN_SUBGROUP
int group_of(int owner) { return owner / int(gl_SubgroupSize); }
#else
int group_of(int owner) { return owner; }
#endif
SUM groups_before(int group) {
  SUM sum = SUM(0);
  for (int g = 0; g < group; ++g) sum += s_totals[g];
  return sum;
}

void main() {
  ivec2 size = imageSize(u_src_raw);
  int lane = int(gl_LocalInvocationID.x);
  int x0 = int(gl_WorkGroupID.x) * TILE_W - RADIUS;  // the image column of span column 0
  int y0 = int(gl_WorkGroupID.y) * SEGMENT, y1 = min(y0 + SEGMENT, size.y);
  // With subgroups, owners are numbered by subgroup and lane, so that a subgroup's exclusive sum
  // runs over consecutive columns (GL does not promise how invocations map to lanes).
#if SCAN_SUBGROUP
  int owner = int(gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID);
#else
  int owner = lane;
#endif
  int first = owner * K;

  // Warm-up: V of the row above the segment (rows y0 - r - 1 .. y0 + r - 1), four rows of loads
  // at a time.
  COLUMN v[K];
  for (int k = 0; k < K; ++k) v[k] = COLUMN(0);
  for (int base = 0; base < 2 * RADIUS + 1; base += 4) {
    TEXEL t[4 * K];
    for (int u = 0; u < 4; ++u)
      for (int k = 0; k < K; ++k) t[u * K + k] = load_texel(ivec2(x0 + lane + N * k, y0 - RADIUS - 1 + base + u), size);
    for (int u = 0; u < 4; ++u)
      if (base + u < 2 * RADIUS + 1)
        for (int k = 0; k < K; ++k) v[k] += column_of(t[u * K + k]);
  }

  TEXEL enter[K], leave[K];
  for (int k = 0; k < K; ++k) {
    enter[k] = load_texel(ivec2(x0 + lane + N * k, y0 + RADIUS), size);
    leave[k] = load_texel(ivec2(x0 + lane + N * k, y0 - RADIUS - 1), size);
  }
  // Uniform bounds: every invocation reaches every barrier.
  for (int y = y0; y < y1; ++y) {
    for (int k = 0; k < K; ++k) {
      v[k] = v[k] + column_of(enter[k]) - column_of(leave[k]);
      s_v[bank_free(lane + N * k)] = v[k];
    }
    if (y + 1 < y1)  // the next row's loads, in flight until the next step
      for (int k = 0; k < K; ++k) {
        enter[k] = load_texel(ivec2(x0 + lane + N * k, y + 1 + RADIUS), size);
        leave[k] = load_texel(ivec2(x0 + lane + N * k, y - RADIUS), size);
      }
    memoryBarrierShared();
    barrier();

    // The owner's K columns: prefix sums within its scan group, published where others need them.
    SUM run = SUM(0), high = SUM(0), low = SUM(0);
    for (int j = 0; j < K; ++j) {
      run += column_sum(first + j);
      if (j == HIGH_J) high = run;
      if (j == LOW_J) low = run;
    }
#if SCAN_SUBGROUP
    SUM before = subgroupExclusiveAdd(run);  // uniform control flow: every lane takes part
    SUM group_total = subgroupAdd(run);
    if (subgroupElect()) s_totals[group_of(owner)] = group_total;
#else
    SUM before = SUM(0);
    s_totals[owner] = run;
#endif
    s_high[owner] = before + high;
    s_low[owner] = before + low;
    memoryBarrierShared();
    barrier();

    // The window at the first column, then K - 1 slides; out-of-span sources only feed windows
    // that are not output (their index is clamped to stay in the arrays).
    int high_owner = min(owner + HIGH_OWNER, N - 1), low_owner = owner - LOW_OWNER;
    SUM window = s_high[high_owner] + groups_before(group_of(high_owner));
    if (low_owner >= 0) window -= s_low[low_owner] + groups_before(group_of(low_owner));
    for (int j = 0; j < K; ++j) {
      int c = first + j;
      if (j > 0) window += column_sum(c + RADIUS) - column_sum(c - RADIUS - 1);
      s_out[bank_free(c)] = output_bits(window);
    }
    memoryBarrierShared();
    barrier();

    // Stores in the load layout: tile column t is the window centred on span column t + r.
    for (int t = lane; t < TILE_W; t += N) {
      ivec2 p = ivec2(x0 + RADIUS + t, y);
      if (p.x < size.x) imageStore(u_dst_raw, p, raw_bits(s_out[bank_free(t + RADIUS)]));
    }
    // The next step writes s_v (read above, before the last barrier) and, after its first barrier,
    // s_high, s_low, s_totals and s_out (read before its second barrier / above): no barrier here.
  }
}
