#version 430 core
#if SCAN_SUBGROUP
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
// compute-box-blocked: the box blur in one dispatch at a cost that does not grow with r, with
// the row sums register-blocked. A workgroup of N = WG_X invocations owns a span of N * K span
// columns (K = COLUMNS; the tile of N * K - 2r output columns and the r-column apron on both
// sides) for SEGMENT rows (COLUMNS and SEGMENT: the columns and rows knobs, or the host's choice for 0).
//  - Loads and stores are strided by N (span column lane + N * k), so a warp's accesses are
//    consecutive texels, moved as bits (no format conversion).
//  - Vertical: each span column's running window sum V (2r+1 rows) takes, per row, the entering
//    texel (r below) and loses the leaving one (r + 1 above, a cache hit): two loads per row.
//  - Each invocation owns K consecutive span columns: the batch's entering and leaving rows pass
//    through shared memory once (transposed from the load layout, one word per texel), the
//    invocation updates its columns' V and prefix-sums them in registers, P(c) = V(0) + ... + V(c);
//    the invocations' totals are scanned across the row (subgroupExclusiveAdd when SCAN_SUBGROUP,
//    else serially in shared memory); the P row goes to shared memory, and output column t is
//    P(t + 2r) - P(t - 1), read in the store layout.
// Three barriers per BATCH rows; the next batch's loads are issued before the sums, so they are
// in flight while the current batch is summed and stored.
// rgba8 input (EXACT): integer sums. V holds two 16-bit fields per uint (r and b, g and a): a
// window of 2r+1 <= 257 texels sums to at most 257 * 255 = 65535 per channel, so adding and
// subtracting whole uints is exact (a borrow between fields cancels modulo 2^32). P is four uints
// (a wrap modulo 2^32 would cancel too: a window sums to less than 2^24), or, for r <= 7 (PACKED),
// two uints of two 16-bit fields like V. The output is the exact
// average, rounded to nearest (the area (2r+1)^2 is odd: no ties). rgba16f input: fp32 sums.
#include "blur_common.glsl"
#define SOURCE_RAW
#define TARGET_RAW
#include "source_image.glsl"
#include "target_image.glsl"

layout(local_size_x = WG_X) in;

const int N = WG_X;
const int K = COLUMNS;
const int SPAN = N * K;
const int TILE_W = SPAN - 2 * RADIUS;  // the host checks it is at least 1
// One word of padding per 32 columns: an invocation's K consecutive columns (K a power of two up
// to 32) and a warp's 32 consecutive columns both fall in distinct banks.
const int PADDED = SPAN + SPAN / 32;
int bank_free(int column) { return column + (column >> 5); }

// Texels move as their bits (SOURCE_RAW, TARGET_RAW): rgba8 as one uint, rgba16f as two; the border
// rule is the source hook's (source_bits()).
#if EXACT
#define TEXEL uint
#define COLUMN uvec2  // V: (r | b << 16, g | a << 16)
#define SCALAR uint
TEXEL texel_bits(uvec4 raw) { return raw.x; }
COLUMN column_of(TEXEL t) { return uvec2(t & 0x00FF00FFu, (t >> 8) & 0x00FF00FFu); }
uvec4 channels_of(uvec2 fields) { return uvec4(fields.x & 0xFFFFu, fields.y & 0xFFFFu, fields.x >> 16, fields.y >> 16); }
#if PACKED
// The whole window fits 16 bits per channel ((2r+1)^2 x 255 < 2^16, the host's condition), so the
// row's prefix sums stay packed like V: half the adds, scan steps and shared-memory words. A carry
// between fields in P cancels modulo 2^32 in the window, whose two fields do not overflow.
#define SUM uvec2
SUM sum_of(COLUMN v) { return v; }
#else
#define SUM uvec4
SUM sum_of(COLUMN v) { return channels_of(v); }
#endif
void store_output(ivec2 p, SUM sums) {
  const uint AREA = uint((2 * RADIUS + 1) * (2 * RADIUS + 1));
#if PACKED
  uvec4 window = channels_of(sums);
#else
  uvec4 window = sums;
#endif
  uvec4 q = (window + AREA / 2u) / AREA;
  store_target_bits(p, uvec4(q.r | q.g << 8 | q.b << 16 | q.a << 24));
}
#else
#define TEXEL uvec2
#define COLUMN vec4
#define SUM vec4
#define SCALAR float
TEXEL texel_bits(uvec4 raw) { return raw.xy; }
COLUMN column_of(TEXEL t) { return vec4(unpackHalf2x16(t.x), unpackHalf2x16(t.y)); }
SUM sum_of(COLUMN v) { return v; }
void store_output(ivec2 p, SUM window) {
  float w = tap_weight(0);
  vec4 v = window * (w * w);
  store_target_bits(p, uvec4(packHalf2x16(v.xy), packHalf2x16(v.zw), 0u, 0u));
}
#endif

TEXEL load_texel(ivec2 p) { return texel_bits(source_bits(p)); }

shared TEXEL s_enter[BATCH * PADDED];  // [batch row][span column], transposed through here
shared TEXEL s_leave[BATCH * PADDED];
// Words of a prefix sum: four channels, or two packed.
#if EXACT && PACKED
const int PREFIX_WORDS = 2;
#else
const int PREFIX_WORDS = 4;
#endif
shared SCALAR s_prefix[PREFIX_WORDS * BATCH * PADDED];  // P, one plane per word: [word][batch row][span column]
shared SUM s_totals[BATCH * N];  // [batch row][subgroup] (SCAN_SUBGROUP) or [batch row][invocation]

// The warm-up's V through the transpose buffers.
#if EXACT
void stash_column(int i, COLUMN v) {
  s_enter[i] = v.x;
  s_leave[i] = v.y;
}
COLUMN fetch_column(int i) { return uvec2(s_enter[i], s_leave[i]); }
#else
void stash_column(int i, COLUMN v) {
  s_enter[i] = floatBitsToUint(v.xy);
  s_leave[i] = floatBitsToUint(v.zw);
}
COLUMN fetch_column(int i) { return vec4(uintBitsToFloat(s_enter[i]), uintBitsToFloat(s_leave[i])); }
#endif

void put_prefix(int row, int column, SUM p) {
  int i = row * PADDED + bank_free(column);
  for (int c = 0; c < PREFIX_WORDS; ++c) s_prefix[c * BATCH * PADDED + i] = p[c];
}
SUM get_prefix(int row, int column) {
  int i = row * PADDED + bank_free(column);
  SUM p;
  for (int c = 0; c < PREFIX_WORDS; ++c) p[c] = s_prefix[c * BATCH * PADDED + i];
  return p;
}

// The entering and leaving texels of rows y .. y + BATCH - 1 at this invocation's load columns.
void load_rows(int y, int x0, int lane, out TEXEL enter[BATCH * K], out TEXEL leave[BATCH * K]) {
  for (int b = 0; b < BATCH; ++b)
    for (int k = 0; k < K; ++k) {
      int x = x0 + lane + N * k;
      enter[b * K + k] = load_texel(ivec2(x, y + b + RADIUS));
      leave[b * K + k] = load_texel(ivec2(x, y + b - RADIUS - 1));
    }
}

void main() {
  ivec2 size = source_size();
  int lane = int(gl_LocalInvocationID.x);
  int x0 = int(gl_WorkGroupID.x) * TILE_W - RADIUS;  // the image column of span column 0
  int y0 = int(gl_WorkGroupID.y) * SEGMENT, y1 = min(y0 + SEGMENT, size.y);
  // This invocation's K consecutive span columns start at `first`. With subgroups, invocations
  // are numbered by subgroup and lane, so that a subgroup's exclusive sum runs over consecutive
  // columns (GL does not promise how invocations map to lanes).
#if SCAN_SUBGROUP
  int owner = int(gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID);
#else
  int owner = lane;
#endif
  int first = owner * K;

  // Warm-up in the load layout: V of the row above the segment (rows y0 - r - 1 .. y0 + r - 1),
  // four rows of loads at a time; then transposed to the owners' layout.
  COLUMN warm[K];
  for (int k = 0; k < K; ++k) warm[k] = COLUMN(0);
  for (int base = 0; base < 2 * RADIUS + 1; base += 4) {
    TEXEL t[4 * K];
    for (int u = 0; u < 4; ++u)
      for (int k = 0; k < K; ++k) t[u * K + k] = load_texel(ivec2(x0 + lane + N * k, y0 - RADIUS - 1 + base + u));
    for (int u = 0; u < 4; ++u)
      if (base + u < 2 * RADIUS + 1)
        for (int k = 0; k < K; ++k) warm[k] += column_of(t[u * K + k]);
  }
  for (int k = 0; k < K; ++k) stash_column(bank_free(lane + N * k), warm[k]);
  memoryBarrierShared();
  barrier();
  COLUMN v[K];
  for (int j = 0; j < K; ++j) v[j] = fetch_column(bank_free(first + j));
  memoryBarrierShared();  // the first batch overwrites the buffers
  barrier();

  TEXEL enter[BATCH * K], leave[BATCH * K];
  load_rows(y0, x0, lane, enter, leave);
  // Uniform bounds: every invocation reaches every barrier.
  for (int y = y0; y < y1; y += BATCH) {
    for (int b = 0; b < BATCH; ++b)
      for (int k = 0; k < K; ++k) {
        int i = b * PADDED + bank_free(lane + N * k);
        s_enter[i] = enter[b * K + k];
        s_leave[i] = leave[b * K + k];
      }
    if (y + BATCH < y1) load_rows(y + BATCH, x0, lane, enter, leave);  // in flight until the next batch
    memoryBarrierShared();
    barrier();

    // Vertical steps and this invocation's part of each row's prefix sums, in registers.
    SUM part[BATCH * K], total[BATCH], offset[BATCH];
    for (int b = 0; b < BATCH; ++b) {
      SUM run = SUM(0);
      for (int j = 0; j < K; ++j) {
        int i = b * PADDED + bank_free(first + j);
        v[j] = v[j] + column_of(s_enter[i]) - column_of(s_leave[i]);
        run += sum_of(v[j]);
        part[b * K + j] = run;
      }
      total[b] = run;
    }
    // The sum of the columns before this invocation's, per row.
#if SCAN_SUBGROUP
    // Subgroup operations in uniform control flow: all lanes take part, then one stores.
    for (int b = 0; b < BATCH; ++b) {
      offset[b] = subgroupExclusiveAdd(total[b]);
      SUM subgroup_total = subgroupAdd(total[b]);
      if (subgroupElect()) s_totals[b * N + int(gl_SubgroupID)] = subgroup_total;
    }
    memoryBarrierShared();
    barrier();
    for (int b = 0; b < BATCH; ++b)
      for (int g = 0; g < int(gl_SubgroupID); ++g) offset[b] += s_totals[b * N + g];
#else
    for (int b = 0; b < BATCH; ++b) s_totals[b * N + owner] = total[b];
    memoryBarrierShared();
    barrier();
    for (int b = 0; b < BATCH; ++b) {
      offset[b] = SUM(0);
      for (int o = 0; o < owner; ++o) offset[b] += s_totals[b * N + o];
    }
#endif
    for (int b = 0; b < BATCH; ++b)
      for (int j = 0; j < K; ++j) put_prefix(b, first + j, part[b * K + j] + offset[b]);
    memoryBarrierShared();
    barrier();

    // Outputs in the store layout: tile column t of a row is the window of span columns t .. t + 2r.
    for (int b = 0; b < BATCH; ++b)
      for (int t = lane; t < TILE_W; t += N) {
        ivec2 p = ivec2(x0 + RADIUS + t, y + b);
        if (p.x < size.x && p.y < y1) store_output(p, get_prefix(b, t + 2 * RADIUS) - (t > 0 ? get_prefix(b, t - 1) : SUM(0)));
      }
    // The next batch writes s_enter/s_leave (read before the second barrier above) and, after its
    // first barrier, s_totals and s_prefix (read above): no barrier needed here.
  }
}
