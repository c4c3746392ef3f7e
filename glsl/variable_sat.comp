#version 430 core
// variable-sat: a summed-area table (Crow 1984; on GPUs Hensley et al. 2005), then each pixel's own
// box in four table reads. The table is of the source padded by R texels on each side with the
// border rule (so every box of every level lies inside it, whatever the mode): S(u, v) = the sum of
// padded texels [0, u] x [0, v]. It is built blocked, after Nehab et al. 2011 ("alg. SAT"), so
// every pass has work for the whole GPU, the source is read twice and the table written once:
//   0 edges: a workgroup sums its TILE_W x TILE_H tile of the padded source in shared memory (its
//     own table L, the sums of the tile's texels up to (u, v)) and writes L's last column (each
//     row's sum in the tile) and last row (each column's sum, accumulated left to right);
//   1 rows: one invocation per row v adds up the last columns from left to right into the row
//     carries A(t, v), the sum of the tile row's rows up to v left of tile column t;
//   2 columns: one invocation per column u adds up, from the top, the last rows of L and A into the
//     column carries T(t, u) = S(u, t TILE_H - 1), everything above tile row t;
//   3 table: each workgroup sums its tile again and writes S(u, v) = L(u, v) + A(u / TILE_W, v) +
//     T(v / TILE_H, u);
//   4 lookup: pixel p of level r reads the box of padded texels [p - r + R, p + r + R] in each
//     axis as four entries of S.
// One texture holds it all: S in [0, Wt) x [0, Ht) (the padded size in whole tiles), the last
// columns and then A in the tiles.x columns after it, the last rows and then T in the tiles.y rows
// below it: (Wt + tiles.x) x (Ht + tiles.y) texels.
//
// Exact integers: rgba8 texels as k = 255 v, one 32-bit word per channel; float input (WIDE) as
// fixed point q = round(v 2^14) (|q| < 2^31 for any fp16 value), two words per channel (a 64-bit
// two's complement number, low and high words in two textures). The table holds its sums modulo
// 2^32 (2^64 WIDE), and that is enough: the four-read difference is the box's own sum modulo 2^32,
// and that sum fits (rgba8: at most 255 x 257^2 < 2^24; WIDE: below 257^2 x 2^31 < 2^47). To prove
// it on every run, not only past 16384^2, each texel of the padded image is summed with OFFSET added
// (2^24; 2^56 WIDE): the table wraps every 256 texels, and the lookup takes the box's n OFFSETs back.
// The host passes R (the largest level) in u_pass.x.
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"
#include "variable_common.glsl"

#ifndef PASS
#error PASS (0 edges, 1 rows, 2 columns, 3 table, 4 lookup) is not defined
#endif

// The host's kTile. A tile's workgroup has TILE_INVOCATIONS: first ROW_PARTS a tile row, each
// summing a run of ROW_RUN texels of it, then COLUMN_PARTS a tile column, each a run of COLUMN_RUN.
// Small tiles because a workgroup's shared memory decides how many are resident on a GPU
// (docs/PERFORMANCE.md, "Residency"): 16 x 16 (5.4 KiB for rgba8) measured faster than 32 x 16.
#define TILE_W 16
#define TILE_H 16
#define TILE_INVOCATIONS 64
const int ROW_PARTS = TILE_INVOCATIONS / TILE_H, ROW_RUN = TILE_W / ROW_PARTS;
const int COLUMN_PARTS = TILE_INVOCATIONS / TILE_W, COLUMN_RUN = TILE_H / COLUMN_PARTS;
#define TILED_PASS (PASS == 0 || PASS == 3)

#if PASS == 0
#define SAT_ACCESS writeonly
#elif PASS == 4
#define SAT_ACCESS readonly
#else
#define SAT_ACCESS
#endif
layout(rgba32ui, binding = BINDING_SAT_LO) uniform restrict SAT_ACCESS uimage2D u_sat_lo;
#ifdef WIDE
layout(rgba32ui, binding = BINDING_SAT_HI) uniform restrict SAT_ACCESS uimage2D u_sat_hi;
#endif

// The carry passes: CARRY_LINES lines (rows or columns) a workgroup, each walked in CARRY_SEGMENTS
// segments by as many invocations (the host's kCarryLines, kCarrySegments).
#define CARRY_LINES 32
#define CARRY_SEGMENTS 8
#if TILED_PASS
layout(local_size_x = TILE_INVOCATIONS) in;
#elif PASS == 4
layout(local_size_x = WG_X, local_size_y = WG_Y) in;
#else
layout(local_size_x = CARRY_LINES, local_size_y = CARRY_SEGMENTS) in;
#endif

int max_radius() { return int(u_pass.x); }

// A sum of the table: per channel 32 bits, or 64 WIDE (two's complement, low and high words).
#ifdef WIDE
struct Sum {
  uvec4 lo, hi;
};
const Sum ZERO = Sum(uvec4(0u), uvec4(0u));
Sum sum_add(Sum a, Sum b) {
  uvec4 carry;
  uvec4 lo = uaddCarry(a.lo, b.lo, carry);
  return Sum(lo, a.hi + b.hi + carry);
}
Sum sum_sub(Sum a, Sum b) {
  uvec4 borrow;
  uvec4 lo = usubBorrow(a.lo, b.lo, borrow);
  return Sum(lo, a.hi - b.hi - borrow);
}
// The texel in fixed point (2^14 units), sign-extended to 64 bits (an arithmetic shift), OFFSET added.
Sum texel_sum(vec4 v) {
  ivec4 q = ivec4(round(v * 16384.0));
  return Sum(uvec4(q), uvec4(q >> 31) + (1u << 24u));
}
// n OFFSETs (n 2^56 modulo 2^64: in the high word alone).
Sum offsets(uint n) { return Sum(uvec4(0u), uvec4(n << 24u)); }
#else
struct Sum {
  uvec4 lo;
};
const Sum ZERO = Sum(uvec4(0u));
Sum sum_add(Sum a, Sum b) { return Sum(a.lo + b.lo); }
Sum sum_sub(Sum a, Sum b) { return Sum(a.lo - b.lo); }
Sum texel_sum(vec4 v) { return Sum(uvec4(round(v * 255.0)) + (1u << 24u)); }
Sum offsets(uint n) { return Sum(uvec4(n << 24u)); }
#endif

// The table's entries: written by every pass but the lookup, read by every pass but the edges.
#if PASS != 4
void table_store(ivec2 p, Sum s) {
  imageStore(u_sat_lo, p, s.lo);
#ifdef WIDE
  imageStore(u_sat_hi, p, s.hi);
#endif
}
#endif
#if PASS != 0
Sum table_load(ivec2 p) {
#ifdef WIDE
  return Sum(imageLoad(u_sat_lo, p), imageLoad(u_sat_hi, p));
#else
  return Sum(imageLoad(u_sat_lo, p));
#endif
}
#endif

// The tiles covering the padded image, and where the table texture keeps what.
#if PASS == 0
ivec2 table_tiles() { return (source_size() + 2 * max_radius() + ivec2(TILE_W - 1, TILE_H - 1)) / ivec2(TILE_W, TILE_H); }
#else
ivec2 table_tiles() { return imageSize(u_sat_lo) / ivec2(TILE_W + 1, TILE_H + 1); }
#endif
ivec2 tiled_size() { return table_tiles() * ivec2(TILE_W, TILE_H); }  // (Wt, Ht)
// Tile column t's last column in row v, then A(t, v).
ivec2 row_carry_at(int tile_x, int v) { return ivec2(tiled_size().x + tile_x, v); }
// Tile row t's last row in column u, then T(t, u).
ivec2 column_carry_at(int tile_y, int u) { return ivec2(u, tiled_size().y + tile_y); }

#if TILED_PASS
shared Sum s_tile[TILE_H][TILE_W + 1];
shared Sum s_run_total[TILE_INVOCATIONS];

// The workgroup's tile of the padded image, origin `origin`, summed into its own table L (the sums
// of the tile's texels up to each): this invocation gets column `x` of L, rows y0 .. y0 +
// COLUMN_RUN - 1. Each sum runs in registers along a run of texels; the runs before it in the same
// row (or column) add up in shared memory: three barriers, and the tile passes through shared
// memory once.
void sum_tile(ivec2 origin, out int x, out int y0, out Sum column[COLUMN_RUN]) {
  ivec2 padded = source_size() + 2 * max_radius();
  int i = int(gl_LocalInvocationIndex);
  // Along the rows: run `part` of row `row`, texels x0 .. x0 + ROW_RUN - 1.
  int row = i / ROW_PARTS, part = i % ROW_PARTS, x0 = part * ROW_RUN;
  Sum run[ROW_RUN];
  for (int k = 0; k < ROW_RUN; ++k) {
    ivec2 q = origin + ivec2(x0 + k, row);
    // Past the padded image (the last tiles' rest): zeros, which no box reads.
    run[k] = all(lessThan(q, padded)) ? texel_sum(source_texel(q - max_radius())) : ZERO;
  }
  for (int k = 1; k < ROW_RUN; ++k) run[k] = sum_add(run[k - 1], run[k]);
  s_run_total[i] = run[ROW_RUN - 1];
  memoryBarrierShared();
  barrier();
  Sum before = ZERO;
  for (int p = 0; p < part; ++p) before = sum_add(before, s_run_total[row * ROW_PARTS + p]);
  for (int k = 0; k < ROW_RUN; ++k) s_tile[row][x0 + k] = sum_add(before, run[k]);
  memoryBarrierShared();
  barrier();
  // Down the columns: run `segment` of column x.
  x = i % TILE_W;
  int segment = i / TILE_W;
  y0 = segment * COLUMN_RUN;
  column[0] = s_tile[y0][x];
  for (int k = 1; k < COLUMN_RUN; ++k) column[k] = sum_add(column[k - 1], s_tile[y0 + k][x]);
  s_run_total[i] = column[COLUMN_RUN - 1];  // every read of the row runs' totals was before the last barrier
  memoryBarrierShared();
  barrier();
  before = ZERO;
  for (int p = 0; p < segment; ++p) before = sum_add(before, s_run_total[p * TILE_W + x]);
  for (int k = 0; k < COLUMN_RUN; ++k) column[k] = sum_add(before, column[k]);
}
#endif

#if PASS == 0
void main() {
  ivec2 tile = ivec2(gl_WorkGroupID.xy), origin = tile * ivec2(TILE_W, TILE_H);
  int x, y0;
  Sum column[COLUMN_RUN];
  sum_tile(origin, x, y0, column);
  for (int k = 0; k < COLUMN_RUN; ++k)  // the last column: each row's sum in the tile
    if (x == TILE_W - 1) table_store(row_carry_at(tile.x, origin.y + y0 + k), column[k]);
  if (y0 + COLUMN_RUN == TILE_H)  // the last row
    table_store(column_carry_at(tile.y, origin.x + x), column[COLUMN_RUN - 1]);
}
#elif PASS == 1 || PASS == 2
// The carries: along each line (PASS 1: a row v of the tiled image, across its tile columns; PASS
// 2: a column u, down its tile rows), entry k of the line becomes the sum of the increments before
// it. A line's CARRY_SEGMENTS invocations each sum their segment's increments, add up the segments
// before theirs in shared memory, and walk their segment again writing the running sum. Their
// reads, which do not depend on the running sum, go out BATCH at a time so that several are in
// flight.
const int BATCH = 8;
shared Sum s_segment_total[CARRY_SEGMENTS][CARRY_LINES];

#if PASS == 1
int line_count() { return tiled_size().y; }
int entry_count() { return table_tiles().x; }
ivec2 entry_at(int line, int k) { return row_carry_at(k, line); }
// The tile's last column in the row (the edges pass put it there).
Sum increment(int line, int k) { return table_load(entry_at(line, k)); }
#else
int line_count() { return tiled_size().x; }
int entry_count() { return table_tiles().y; }
ivec2 entry_at(int line, int k) { return column_carry_at(k, line); }
// The tile row's last row in the column: the tile's own sums (the edges pass put them there) and
// the row carry of that row (the rows pass).
Sum increment(int line, int k) {
  return sum_add(table_load(entry_at(line, k)), table_load(row_carry_at(line / TILE_W, k * TILE_H + TILE_H - 1)));
}
#endif

void main() {
  int line = int(gl_WorkGroupID.x) * CARRY_LINES + int(gl_LocalInvocationID.x), segment = int(gl_LocalInvocationID.y);
  int count = entry_count(), per_segment = (count + CARRY_SEGMENTS - 1) / CARRY_SEGMENTS;
  int first = segment * per_segment, end = min(first + per_segment, count);
  if (line >= line_count()) end = first;  // past the last line: nothing to walk, but every barrier reached
  Sum total = ZERO;
  for (int k0 = first; k0 < end; k0 += BATCH) {
    Sum step[BATCH];
    for (int k = 0; k < BATCH; ++k) step[k] = k0 + k < end ? increment(line, k0 + k) : ZERO;
    for (int k = 0; k < BATCH; ++k) total = sum_add(total, step[k]);
  }
  s_segment_total[segment][gl_LocalInvocationID.x] = total;
  memoryBarrierShared();
  barrier();
  Sum running = ZERO;
  for (int s = 0; s < segment; ++s) running = sum_add(running, s_segment_total[s][gl_LocalInvocationID.x]);
  for (int k0 = first; k0 < end; k0 += BATCH) {
    Sum step[BATCH];
    for (int k = 0; k < BATCH; ++k) step[k] = k0 + k < end ? increment(line, k0 + k) : ZERO;
    for (int k = 0; k < BATCH; ++k) {
      if (k0 + k < end) table_store(entry_at(line, k0 + k), running);
      running = sum_add(running, step[k]);
    }
  }
}
#elif PASS == 3
void main() {
  ivec2 tile = ivec2(gl_WorkGroupID.xy), origin = tile * ivec2(TILE_W, TILE_H);
  int i = int(gl_LocalInvocationIndex), x = i % TILE_W, y0 = i / TILE_W * COLUMN_RUN;  // as sum_tile() assigns them
  // The carries, read before sum_tile()'s barriers so that they are in flight during the sums.
  Sum above = table_load(column_carry_at(tile.y, origin.x + x)), left[COLUMN_RUN];
  for (int k = 0; k < COLUMN_RUN; ++k) left[k] = table_load(row_carry_at(tile.x, origin.y + y0 + k));
  Sum column[COLUMN_RUN];
  sum_tile(origin, x, y0, column);
  for (int k = 0; k < COLUMN_RUN; ++k) table_store(origin + ivec2(x, y0 + k), sum_add(sum_add(column[k], left[k]), above));
}
#else
// The sum of the padded texels [0, c) (c in 0 .. the padded size): S(c - 1), or zero at an edge.
Sum table_sum(ivec2 c) { return c.x == 0 || c.y == 0 ? ZERO : table_load(c - 1); }

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, target_size()))) return;  // no barrier follows
  int R = max_radius(), r = pixel_level(p);
  ivec2 a = p - r + R, b = p + r + R + 1;  // the box's corners: padded texels [a, b)
  uint n = uint((2 * r + 1) * (2 * r + 1));
  Sum box = sum_add(sum_sub(sum_sub(table_sum(b), table_sum(ivec2(a.x, b.y))), table_sum(ivec2(b.x, a.y))), table_sum(a));
  box = sum_sub(box, offsets(n));
#ifdef WIDE
  // The signed 64-bit sum to float: high word and the low word's upper half exactly (|sum| < 2^40
  // keeps that partial sum below 2^24), then the lower half: rounded once where the sum is large.
  vec4 upper = vec4(ivec4(box.hi)) * 65536.0 + vec4(box.lo >> 16u);
  vec4 sum = upper * 65536.0 + vec4(box.lo & 0xFFFFu);
  store_target(p, sum / (float(n) * 16384.0));
#else
  // The average to the nearest step in integers (n is odd: no ties): sum <= 255 n < 2^24.
  uvec4 step = (2u * box.lo + n) / (2u * n);
  store_target(p, vec4(step) / 255.0);
#endif
}
#endif
