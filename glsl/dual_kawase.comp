#version 430 core
// dual-kawase: Bjorge's dual filter (src/variants/dual_kawase.cpp). DK_OFFSET: the offset o (steps
// of 1/2).
//
// DK_UP 0: one downsampling pass into a level of half the size, one invocation per target texel:
// five bilinear fetches, the centre (on the corner of its 2x2 source texels) and four at (+-h, +-h),
// h = o source texels. Five fetches per texel written are 1.25 per texel read: fetches and bytes
// bound it alike, unless neighbouring texels share them (DK_DOWN_SHARED, below: integer offsets).
//
// DK_UP 1: a chain of DK_CHAIN upsampling passes in one dispatch, from the level the source holds to
// the target (e.g. levels 3 -> 2 -> 1 -> 0). The textbook pass issues eight bilinear fetches per
// texel written, and the last one runs at full resolution: bound by the fetch rate. Here a
// workgroup writes a 64x64 tile of the target: it fetches the region of the source level the tile
// needs into shared memory once, computes the region of each level in between there (in fp32,
// never stored), and applies each pass's weights there, to the texels the eight fetches blend
// (listed by the host, DK_ROW_*). Regions grow by a few texels per level (the taps' reach), so the
// small levels cost a little recomputation, not a dispatch each.
// DK_FOLD 1: u_src holds the level below the chain's source, and the workgroup computes the source
// level's region itself, with the downsampling pass's five bilinear fetches per texel (fp32, never
// stored): the last downsampling pass, the smallest and bound by a dispatch's latency, is folded
// into the chain (at one level, the only one: blur and pyramid in one dispatch).
// DK_UP_BLOCK (knob up-block): the rows of level 1 each invocation of the last pass reads for, 2 or
// 4 (8 or 16 target texels per round); DK_UP_FP16 (knob up-stage): the staged levels held as fp16
// (half the shared memory, one rounding per level, which the model makes too) or fp32.
//
// DK_UP 2: the downsampling chain in one dispatch (knob down-chain fused), after AMD's single-pass
// downsampler (FidelityFX SPD), see below.
//
// DK_UP 3: the last upsampling pass on its own, from level 1 stored (knob last-pass stream): each
// invocation walks a column of level 1 down, its windows' rows fetched once through the texture
// cache, no shared memory (below).
#include "blur_common.glsl"
#include "source_sampler.glsl"
#include "target_image.glsl"
#include "bilinear_common.glsl"

// Texel p of the level a downsampling pass writes, from the level u_src holds: target texel p
// covers source texels 2p and 2p + 1 of each axis, so its centre is their corner.
vec4 down_texel(ivec2 p, vec2 inv_size) {
  vec2 c = 2.0 * vec2(p) + 1.0;
  const float h = DK_OFFSET;
  vec4 sum = 4.0 * bilinear_fetch(c, inv_size);
  sum += bilinear_fetch(c + vec2(-h, -h), inv_size);
  sum += bilinear_fetch(c + vec2(h, h), inv_size);
  sum += bilinear_fetch(c + vec2(h, -h), inv_size);
  sum += bilinear_fetch(c + vec2(-h, h), inv_size);
  return sum * (1.0 / 8.0);
}

#if DK_UP == 1 || DK_UP == 3
// An upsampling pass. Target texel q = 2n + b (b its phase, per axis) sits at (q + 1/2) / 2 in the
// level it reads, n + 1/4 or n + 3/4; its fetches at (+-2h, 0) and (0, +-2h) weighted 1/12 and at
// (+-h, +-h) weighted 2/12, h = o / 4 <= 3/4, blend texels n - 2 .. n + 2 only. The host lists them
// by row: DK_ROW_<dy + 2> holds TAP(by, bx, dx, w) for each texel (dy, dx) relative to n that phase
// (by, bx) blends, w its summed weight in units of 1/768 (exact). The code is written out row by
// row, so every array index is a constant and no loop needs unrolling to stay in registers.
const float kTapUnit = 1.0 / 768.0;
// The body of a function applying row `row` (dy + 2) of the window: that row's TAP()s, each pass
// defining TAP and ACC for the sums it keeps. Called with constant rows, so after inlining only
// that row's taps remain, at constant indices.
#define APPLY_ROW_TAPS(row) \
  if (row == 0) {           \
    DK_ROW_0                \
  } else if (row == 1) {    \
    DK_ROW_1                \
  } else if (row == 2) {    \
    DK_ROW_2                \
  } else if (row == 3) {    \
    DK_ROW_3                \
  } else {                  \
    DK_ROW_4                \
  }
#endif

#if DK_UP == 0
layout(local_size_x = WG_X, local_size_y = WG_Y) in;

#if DK_DOWN_SHARED
// DK_DOWN_SHARED = o, an integer offset (the host's choice where the offset is one): every fetch of
// the pass sits on a corner of the source's texel grid. Target texel p's centre fetch is corner
// 2p + 1, its diagonal ones 2p + 1 +- o: with even o the centres of the texels p +- o/2 of the
// level written (o = 2: its diagonal neighbours), with odd o even corners, 2p + 1 +- o = 2(p +
// (1 +- o)/2). Neighbouring target texels read the same corners, so a workgroup fetches each corner
// its tile reads once, into shared memory, and sums the five there: the same fetches at the same
// positions summed in the same order as down_texel(), the same values bit for bit, in (WG + o)^2
// fetches (plus WG^2 centres for odd o) per WG^2 texels written: 1.3 (o = 2) to 2.4 (o = 3) per
// texel with 16 x 16 workgroups, against 5.
//  - s_diagonal: corners 2m + 1 - (o & 1) for m = p0 - o/2 (rounded down) .. p0 + WG - 1 + o - o/2,
//    per axis (p0 the tile's first texel), in which target texel p0 + q finds its diagonal corners
//    at q and q + o, and with even o its centre at q + o/2;
//  - s_centre (odd o only): corners 2p + 1 of the tile's texels.
const int kO = DK_DOWN_SHARED;
const int kDiagonalX = WG_X + kO, kDiagonalY = WG_Y + kO;  // s_diagonal's extent
shared vec4 s_diagonal[kDiagonalX * kDiagonalY];
#if DK_DOWN_SHARED % 2 == 1
shared vec4 s_centre[WG_X * WG_Y];
#endif

vec4 diagonal(ivec2 i) { return s_diagonal[i.y * kDiagonalX + i.x]; }

void main() {
  ivec2 p0 = ivec2(gl_WorkGroupID.xy) * ivec2(WG_X, WG_Y), q = ivec2(gl_LocalInvocationID.xy);
  vec2 inv_size = 1.0 / vec2(source_size());
  ivec2 first = 2 * (p0 - kO / 2) + 1 - (kO & 1);  // the corner of s_diagonal[0]
  for (int i = int(gl_LocalInvocationIndex); i < kDiagonalX * kDiagonalY; i += WG_X * WG_Y)
    s_diagonal[i] = bilinear_fetch(vec2(first + 2 * ivec2(i % kDiagonalX, i / kDiagonalX)), inv_size);
#if DK_DOWN_SHARED % 2 == 1
  s_centre[gl_LocalInvocationIndex] = bilinear_fetch(2.0 * vec2(p0 + q) + 1.0, inv_size);
#endif
  barrier();
  ivec2 p = p0 + q;
  if (any(greaterThanEqual(p, target_size()))) return;  // partial workgroups at the edge: no barrier follows
#if DK_DOWN_SHARED % 2 == 1
  vec4 sum = 4.0 * s_centre[gl_LocalInvocationIndex];
#else
  vec4 sum = 4.0 * diagonal(q + kO / 2);
#endif
  // down_texel()'s order: (-h, -h), (h, h), (h, -h), (-h, h).
  sum += diagonal(q);
  sum += diagonal(q + kO);
  sum += diagonal(q + ivec2(kO, 0));
  sum += diagonal(q + ivec2(0, kO));
  store_target(p, sum * (1.0 / 8.0));
}
#else
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  // Partial workgroups at the edge: nothing to store (no barrier follows).
  if (any(greaterThanEqual(p, target_size()))) return;
  store_target(p, down_texel(p, 1.0 / vec2(source_size())));
}
#endif

#elif DK_UP == 2
// The downsampling chain in one dispatch: levels 1 .. DK_STORED. Every workgroup computes a 16x16
// tile of level 1 from the source (the down pass's five bilinear fetches per texel). A tile of
// level k + 1 reads a footprint of level k that spans up to four tiles of level k along each axis
// (the taps' reach, DK_DOWN_LO .. DK_DOWN_HI texels about 2p, plus the border rule's reflections),
// so, unlike SPD's 2x2 means, no workgroup holds everything a tile of the next level needs. Instead
// each tile of level k + 1 has a counter (image unit 3), and a workgroup that has stored a tile adds
// one to the counter of every tile of the next level whose footprint it lies in: the one that makes
// a counter reach its number of children is the last to finish of them, and computes that tile
// itself (then does the same one level up), reading level k back from the image the others wrote.
// Every tile is computed once, by a workgroup that is already running: nothing waits for another
// workgroup, so no forward-progress guarantee is needed (GL gives none). The winner resets the
// counter to zero, ready for the next run (the pipeline makes the counters zero, BlurPasses::
// counters). Levels 1 .. DK_STORED - 1 live in an atlas (image unit 2, MID_FORMAT), level k at
// rows level_row(k); level DK_STORED, the one the upsampling chain reads, is the target.
//
// Memory order: a tile's stores, then memoryBarrierImage() (they reach device-coherent memory
// before anything this invocation does next) and barrier() (every invocation's stores done), then
// the atomics; the winner learns it has won through the atomic and shared memory, and after a
// barrier its invocations read level k with coherent loads (not through the texture cache, which
// is not kept coherent with stores within a dispatch; hence imageLoad and the exact 1/32 weights
// below rather than bilinear fetches of level k).
#define kT 16  // the side of a tile, at every level (a define: layout sizes must be literals before GLSL 4.40)
layout(local_size_x = kT, local_size_y = kT) in;

#if DK_STORED > 1
layout(MID_FORMAT, binding = BINDING_DOWN_LEVELS) uniform restrict coherent image2D u_levels;
layout(r32ui, binding = BINDING_COUNTERS) uniform restrict coherent uimage2D u_counters;
#endif

ivec2 level_size(int k) {
  ivec2 n = source_size();
  for (int i = 0; i < k; ++i) n = (n + 1) >> 1;
  return n;
}
ivec2 tiles(ivec2 n) { return (n + kT - 1) / kT; }
// The atlas row where level k (1 .. DK_STORED - 1) starts, and the counters' row of level k (2 ..
// DK_STORED): the levels before it stacked.
int level_row(int k) {
  int row = 0;
  for (int i = 1; i < k; ++i) row += level_size(i).y;
  return row;
}
int counter_row(int k) {
  int row = 0;
  for (int i = 2; i < k; ++i) row += tiles(level_size(i)).y;
  return row;
}

void store_level(int k, ivec2 p, vec4 v) {
#if DK_STORED > 1
  if (k < DK_STORED) {
    imageStore(u_levels, ivec2(p.x, level_row(k) + p.y), v);
    return;
  }
#endif
  store_target(p, v);
}

#if DK_STORED > 1
// Along one axis: the texels of level k (n0 of them) that tile j of level k + 1 (n1 texels) reads,
// border rule included, as the tiles of level k holding them: one interval [x, y], or with wrap
// two, [x, y] and [z, w] (z > w: none). A superset where the rule folds: any child named is waited
// for, which costs nothing but a later start; one missing would be a race.
ivec4 child_tiles(int j, int n0, int n1) {
  int last = min(j * kT + kT, n1) - 1;  // the tile's last texel
  int a = 2 * j * kT + DK_DOWN_LO, b = 2 * last + DK_DOWN_HI;
#if BORDER == BORDER_WRAP
  if (b - a + 1 >= n0) return ivec4(0, (n0 - 1) / kT, 1, 0);
  int wa = border_mod(a, n0), wb = wa + (b - a);
  if (wb < n0) return ivec4(wa / kT, wb / kT, 1, 0);
  return ivec4(wa / kT, (n0 - 1) / kT, 0, (wb - n0) / kT);
#else
  // Clamp, reflect and reflect101 fold what lies past an edge back onto the texels next to it:
  // past the left edge onto 0 .. -a at most, past the right onto 2 n0 - 2 - b .. n0 - 1. Constant
  // reads nothing there.
  int lo = max(a, 0), hi = min(b, n0 - 1);
  if (a < 0) hi = max(hi, min(-a, n0 - 1));
  if (b >= n0) lo = min(lo, max(2 * n0 - 2 - b, 0));
  return ivec4(lo / kT, hi / kT, 1, 0);
#endif
}
bool depends(int j, int i, int n0, int n1) {
  ivec4 t = child_tiles(j, n0, n1);
  return (i >= t.x && i <= t.y) || (i >= t.z && i <= t.w);
}
int child_count(int j, int n0, int n1) {
  ivec4 t = child_tiles(j, n0, n1);
  return min(t.y - t.x + 1 + max(t.w - t.z + 1, 0), (n0 - 1) / kT + 1);  // wrap's two intervals may overlap
}
// Candidate c (0..7) of the tiles of level k + 1 that tile i of level k may be a child of, along
// one axis: the nominal ones i / 2 - 2 .. i / 2 + 2, then 0, last - 1 and last, which the border
// rule may reach from the far edge (wrap) or by folding (small levels); false: none (outside, or
// already named).
bool candidate(int c, int i, int last, out int j) {
  int near = i / 2 - 2;
  j = c < 5 ? near + c : c == 5 ? 0 : c == 6 ? last - 1 : last;
  if (j < 0 || j > last) return false;
  if (c >= 5 && j >= near && j <= near + 4) return false;
  return !(c == 6 && j == 0) && !(c == 7 && (j == 0 || j == last - 1));
}

// The work list: tiles this workgroup has won and not yet computed, (level << 28 | x << 14 | y).
// Each tile it computes names at most 4 parents per axis (2 nominal, the far edges' under wrap), so
// depth-first at most 16 wait per level.
const int kStackSize = 16 * 12;
shared uint s_stack[kStackSize];
shared uint s_top;

// Tile i of level k is stored: count it in each tile of level k + 1 whose footprint holds it, and
// take on those it completes. Invocations 0..63 each try one of the 8 x 8 candidates.
void signal_parents(int k, ivec2 i) {
  int c = int(gl_LocalInvocationIndex);
  if (c < 64) {
    ivec2 n0 = level_size(k), n1 = level_size(k + 1), last = tiles(n1) - 1;
    int jx, jy;
    if (candidate(c % 8, i.x, last.x, jx) && candidate(c / 8, i.y, last.y, jy) && depends(jx, i.x, n0.x, n1.x) &&
        depends(jy, i.y, n0.y, n1.y)) {
      uint children = uint(child_count(jx, n0.x, n1.x) * child_count(jy, n0.y, n1.y));
      ivec2 at = ivec2(jx, counter_row(k + 1) + jy);
      if (imageAtomicAdd(u_counters, at, 1u) == children - 1u) {
        imageAtomicExchange(u_counters, at, 0u);  // the last of its children: zero for the next run
        s_stack[atomicAdd(s_top, 1u)] = uint(k + 1) << 28 | uint(jx) << 14 | uint(jy);
      }
    }
  }
  memoryBarrierImage();
  barrier();
}

// A footprint of level k - 1 staged as its texels' bits (MID_BYTES a texel: exact, and a quarter
// of fp32 vec4s for rgba8), 2 x 16 - 1 + DK_DOWN_HI - DK_DOWN_LO texels a side.
const int kE = 2 * kT - 1 + DK_DOWN_HI - DK_DOWN_LO;
const int kWords = MID_BYTES / 4;
shared uint s_footprint[kE * kE * kWords];
void stage_bits(int i, vec4 v) {
  uvec4 bits = texel_bits(v, MID_BYTES);
  s_footprint[i * kWords] = bits.x;
#if MID_BYTES > 4
  s_footprint[i * kWords + 1] = bits.y;
#endif
#if MID_BYTES > 8
  s_footprint[i * kWords + 2] = bits.z;
  s_footprint[i * kWords + 3] = bits.w;
#endif
}
vec4 footprint_texel(ivec2 q) {
  int i = (q.y * kE + q.x) * kWords;
#if MID_BYTES == 4
  return bits_texel(uvec4(s_footprint[i], 0u, 0u, 0u), 4);
#elif MID_BYTES == 8
  return bits_texel(uvec4(s_footprint[i], s_footprint[i + 1], 0u, 0u), 8);
#else
  return bits_texel(uvec4(s_footprint[i], s_footprint[i + 1], s_footprint[i + 2], s_footprint[i + 3]), 16);
#endif
}

// Tile j of level k from level k - 1 in the atlas: the footprint staged (border rule applied at
// level k - 1's edges, as the sampler applies it in the separate passes), then per texel the down
// pass's weights over the texels its five fetches blend (DK_DOWN_TAPS: DTAP(dy, dx, w), w in units
// of 1/32, exact), stored, and the parents counted.
void compute_tile(int k, ivec2 j) {
  ivec2 n0 = level_size(k - 1), n1 = level_size(k);
  int row = level_row(k - 1);
  ivec2 start = 2 * j * kT + DK_DOWN_LO;
  ivec2 end = 2 * (min(j * kT + kT, n1) - 1) + DK_DOWN_HI;  // the last texel the tile reads
  for (int i = int(gl_LocalInvocationIndex); i < kE * kE; i += kT * kT) {
    ivec2 q = start + ivec2(i % kE, i / kE);
    vec4 v = vec4(0.0);  // past the tile's last texel's reach: read by nothing stored
    if (all(lessThanEqual(q, end))) {
#if BORDER == BORDER_CONSTANT
      v = border_outside(q, n0) ? border_value() : imageLoad(u_levels, ivec2(q.x, row + q.y));
#else
      ivec2 m = border_texel(q, n0);
      v = imageLoad(u_levels, ivec2(m.x, row + m.y));
#endif
    }
    stage_bits(i, v);
  }
  barrier();
  ivec2 p = j * kT + ivec2(gl_LocalInvocationID.xy);
  if (all(lessThan(p, n1))) {
    ivec2 at = 2 * ivec2(gl_LocalInvocationID.xy) - DK_DOWN_LO;  // texel 2p in the footprint
    vec4 sum = vec4(0.0);
#define DTAP(dy, dx, w) sum += (w) * footprint_texel(at + ivec2(dx, dy));
    DK_DOWN_TAPS
#undef DTAP
    store_level(k, p, sum * (1.0 / 32.0));
  }
  memoryBarrierImage();
  barrier();
}
#endif

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  // No early return for the texels past the level's edge: barriers follow.
  if (all(lessThan(p, level_size(1)))) store_level(1, p, down_texel(p, 1.0 / vec2(source_size())));
#if DK_STORED > 1
  if (gl_LocalInvocationIndex == 0u) s_top = 0u;
  memoryBarrierImage();
  barrier();
  signal_parents(1, ivec2(gl_WorkGroupID.xy));
  // The tiles won, depth first. s_top is read after a barrier, so the loop is uniform.
  while (s_top > 0u) {
    uint item = s_stack[s_top - 1u];
    barrier();
    if (gl_LocalInvocationIndex == 0u) s_top -= 1u;
    int k = int(item >> 28);
    ivec2 j = ivec2((item >> 14) & 0x3fffu, item & 0x3fffu);
    compute_tile(k, j);
    if (k < DK_STORED) signal_parents(k, j);
  }
#endif
}

#elif DK_UP == 3
// The last upsampling pass on its own (knob last-pass stream), from level 1 stored: no shared memory
// and no barrier. Invocation (x, y) writes target column x, rows 2 (n.y + j) + by for j < K (K =
// DK_STREAM_ROWS, n.y = K y) and both phases by: level-1 column n.x = x >> 1, phase bx = x & 1. A
// warp's stores are then 32 consecutive texels, and each invocation holds half the sums: its first
// form, an invocation per level-1 column writing both of its target columns, measured slower
// (docs/EXPERIMENTS.md). Phase 1 is phase 0
// mirrored about the level-1 texel (texel n + d weighs for it what n - d weighs for phase 0), so an
// odd column reads its window mirrored and every invocation applies phase 0's taps. It walks the
// K + 4 rows of its windows down once, each row's texels (texelFetch, the border rule applied per
// texel) into the sums of the rows whose windows hold it, and stores a row's two phases once its
// window is done: five rows' sums are live at a time. Neighbouring invocations fetch the same
// texels, which the texture cache serves.
layout(local_size_x = 64, local_size_y = 4) in;
const int kRows = DK_STREAM_ROWS;  // 4, 8 or 16

// The invocation's level-1 texel (column, first row) and the direction its window runs (1 for phase
// 0, -1 mirrored for phase 1), the sums of its rows' two phases by (only five rows live at a time),
// and the row of texels being applied: t[dx + 2] the texel at n.x + dx * direction. Called with
// constant rows and j, so after inlining every condition below folds and every array index is a
// constant.
ivec2 n;
int direction;
vec4 acc0[2], acc1[2], acc2[2], acc3[2], acc4[2], acc5[2], acc6[2], acc7[2], acc8[2], acc9[2], acc10[2], acc11[2], acc12[2],
    acc13[2], acc14[2], acc15[2];
vec4 t[5];

// Row `row` (dy + 2) of phase bx = 0's window into the sums of its two phases by: DK_ROW_* with
// the taps of bx = 1 left out (they fold away).
#define TAP(by, bx, dx, w) \
  if ((bx) == 0) ACC[by] += (w) * t[(dx) + 2];
void apply_even_row(int row, inout vec4 acc[2]) {
#define ACC acc
  APPLY_ROW_TAPS(row)
#undef ACC
}

// Row r (relative to n.y) into the sums of level-1 row n.y + j, where it lies in j's window.
void row_into(int j, int r, inout vec4 acc[2]) {
  if (j < kRows && r - j >= -2 && r - j <= 2) apply_even_row(r - j + 2, acc);
}
void step(int r) {
  if (r > kRows + 1) return;
  int y = n.y + r;
  // A texel no tap of phase 0 weighs is never used, and the compiler drops its fetch.
  for (int dx = -2; dx <= 2; ++dx) t[dx + 2] = source_texel(ivec2(n.x + dx * direction, y));
  row_into(0, r, acc0), row_into(1, r, acc1), row_into(2, r, acc2), row_into(3, r, acc3);
  row_into(4, r, acc4), row_into(5, r, acc5), row_into(6, r, acc6), row_into(7, r, acc7);
  row_into(8, r, acc8), row_into(9, r, acc9), row_into(10, r, acc10), row_into(11, r, acc11);
  row_into(12, r, acc12), row_into(13, r, acc13), row_into(14, r, acc14), row_into(15, r, acc15);
}
// Row j's window is done after row j + 2: its two texels of this column, where inside the target.
void done(int j, vec4 acc[2]) {
  if (j >= kRows) return;
  ivec2 target = target_size();
  for (int by = 0; by < 2; ++by) {
    ivec2 q = ivec2(gl_GlobalInvocationID.x, 2 * (n.y + j) + by);
    if (q.y < target.y) store_target(q, acc[by] * kTapUnit);
  }
}

void main() {
  int x = int(gl_GlobalInvocationID.x);
  n = ivec2(x >> 1, int(gl_GlobalInvocationID.y) * kRows);
  direction = 1 - 2 * (x & 1);
  if (x >= target_size().x || n.y >= source_size().y) return;  // nothing to write (no barrier in this program)
  const vec4 zero[2] = vec4[2](vec4(0.0), vec4(0.0));
  acc0 = zero, acc1 = zero, acc2 = zero, acc3 = zero, acc4 = zero, acc5 = zero, acc6 = zero, acc7 = zero;
  acc8 = zero, acc9 = zero, acc10 = zero, acc11 = zero, acc12 = zero, acc13 = zero, acc14 = zero, acc15 = zero;
  step(-2), step(-1), step(0), step(1);
  step(2), done(0, acc0), step(3), done(1, acc1), step(4), done(2, acc2), step(5), done(3, acc3);
  step(6), done(4, acc4), step(7), done(5, acc5), step(8), done(6, acc6), step(9), done(7, acc7);
  step(10), done(8, acc8), step(11), done(9, acc9), step(12), done(10, acc10), step(13), done(11, acc11);
  step(14), done(12, acc12), step(15), done(13, acc13), step(16), done(14, acc14), step(17), done(15, acc15);
}

#else
// The upsampling chain.

// DK_UP_THREADS (knob up-threads): 256 invocations (32 x 8), each writing 16 texels of the tile in
// two halves one after the other, or 512 (32 x 16), each writing 8: twice the warps to hide
// latencies with, and one half's registers.
#define THREADS_X 32
#if DK_UP_THREADS == 512
#define THREADS_Y 16
#else
#define THREADS_Y 8
#endif
const int kTile = 64;  // target texels per side of a workgroup
layout(local_size_x = THREADS_X, local_size_y = THREADS_Y) in;

// Region of a level: the texels [start, start + extent) of each axis a tile needs. Level l + 1's
// is what the 2x2 blocks of level l's read: n - 2 .. n + 2 for every n = q >> 1. From the target's
// 64, the extents are 36, 22, 16, 12, 10, 9, 9, ...
struct Region {
  ivec2 start, extent;
};
// The extents do not depend on the tile: from a start that is a multiple of 64 every level's start
// has the same parity, so the rule above gives every tile the same extents, kExtent[level]. Constant
// extents make the staging and the loops over a level's blocks compile-time counts with constant
// divisors.
const int kExtent[13] = int[13](64, 36, 22, 16, 12, 10, 9, 9, 9, 9, 9, 9, 9);
Region source_region(Region r, int level) { return Region((r.start >> 1) - 2, ivec2(kExtent[level])); }
// Level 1 is staged in parts of the tile, one per round of the last pass (kRounds): the rows of
// level 1 that round reads, DK_UP_BLOCK THREADS_Y + 4 of them (20 of 36 at 256 invocations and
// blocks of 2; all 36 with blocks of 4). Shared memory per workgroup decides how many are resident
// (docs/PERFORMANCE.md), so a part, not the whole region, where a round covers less than the tile.
const int kPartStep = DK_UP_BLOCK * THREADS_Y, kPartRows = kPartStep + 4;
const int kRounds = 32 / kPartStep;  // the host refuses more rows than a tile's 32 (512 x 4)
// Two buffers, levels alternating between them: odd levels in A (a part of level 1: 36 x 20; levels
// 3 and up: 16 x 16 at most), even levels in B (level 2: 22 x 22; the source level when the chain
// is longer than 1 fits either). A chain of one pass stages level 1 alone: no B.
const int kCapacityA = 36 * kPartRows, kCapacityB = DK_CHAIN > 1 ? 22 * 22 : 0;
#if DK_UP_FP16
// fp16: a texel as two words of two halves each, rounded once where it is staged (the model
// rounds there too); half the bytes, so twice the workgroups fit in the same shared memory.
shared uvec2 s_level[kCapacityA + kCapacityB];
vec4 unstage(uvec2 v) { return vec4(unpackHalf2x16(v.x), unpackHalf2x16(v.y)); }
uvec2 to_stage(vec4 v) { return uvec2(packHalf2x16(v.xy), packHalf2x16(v.zw)); }
#else
shared vec4 s_level[kCapacityA + kCapacityB];
vec4 unstage(vec4 v) { return v; }
vec4 to_stage(vec4 v) { return v; }
#endif
int level_base(int level) { return (level & 1) == 1 ? 0 : kCapacityA; }

vec4 staged(int base, Region r, ivec2 p) { return unstage(s_level[base + (p.y - r.start.y) * r.extent.x + (p.x - r.start.x)]); }
void stage(int base, Region r, ivec2 p, vec4 v) { s_level[base + (p.y - r.start.y) * r.extent.x + (p.x - r.start.x)] = to_stage(v); }

// The five texels dx = -2..2 of row p.y around column p.x of a staged level, into t[0..4].
#define LOAD_ROW(t, base, r, p)                                                             \
  t[0] = staged(base, r, (p) + ivec2(-2, 0)), t[1] = staged(base, r, (p) + ivec2(-1, 0)), \
  t[2] = staged(base, r, p), t[3] = staged(base, r, (p) + ivec2(1, 0)), t[4] = staged(base, r, (p) + ivec2(2, 0))
// A row's taps into the sums ACC[by * 2 + bx] of the four phases.
#define TAP(by, bx, dx, w) ACC[(by) * 2 + (bx)] += (w) * t[(dx) + 2];
const vec4 kZero4[4] = vec4[4](vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0));
// Row `row` (dy + 2) of the window into the four phases' sums `acc`, from its five texels t; called
// with constant rows, so after inlining only that row's taps remain, at constant indices.
void apply_row(int row, inout vec4 acc[4], vec4 t[5]) {
#define ACC acc
  APPLY_ROW_TAPS(row)
#undef ACC
}

// The border rule at the edges of level `level`'s staged region: a texel outside the level's `size`
// becomes the one the rule maps it to, or the constant (see up_level).
// A region inside the level has nothing to fix up: its workgroup skips the loop and the barrier
// after it (r and size depend on the workgroup alone, so the branch is uniform). Most tiles are
// inside at every level but the smallest ones.
void border_fixup(int level, Region r, ivec2 size) {
  if (all(greaterThanEqual(r.start, ivec2(0))) && all(lessThanEqual(r.start + r.extent, size))) return;
  int base = level_base(level);
  for (int i = int(gl_LocalInvocationIndex); i < r.extent.x * r.extent.y; i += THREADS_X * THREADS_Y) {
    ivec2 q = r.start + ivec2(i % r.extent.x, i / r.extent.x);
    if (!border_outside(q, size)) continue;
#if BORDER == BORDER_CONSTANT
    stage(base, r, q, border_value());
#else
    ivec2 m = border_texel(q, size);
    if (all(greaterThanEqual(m, r.start)) && all(lessThan(m, r.start + r.extent))) stage(base, r, q, staged(base, r, m));
#endif
  }
  barrier();
}

// Level `level` of the region from level + 1's, both in shared memory, then the border rule at its
// own edges: a texel outside the level's `size` is the one the rule maps it to, or the constant.
// The next pass reads only the texels its inside texels' windows cover, at most two past an edge,
// whose images under clamp, reflect and reflect101 lie inside the region; entries further out are
// left alone (they feed only texels outside the image). Wrap maps across the image: its chains are
// one pass long (the host's choice), so this never runs for it.
// `blocks`: the blocks whose texels the region holds, from r.start >> 1 (the start is even): for a
// whole level the next level's region less its two-texel margins, for a part of level 1 its rows / 2.
void up_level(int level, Region r, Region from, ivec2 size, ivec2 blocks) {
  int base = level_base(level), from_base = level_base(level + 1);
  ivec2 first = r.start >> 1;
  for (int i = int(gl_LocalInvocationIndex); i < blocks.x * blocks.y; i += THREADS_X * THREADS_Y) {
    // Block n: the 2 x 2 texels 2n + b, its four phases, from the five rows of their window.
    ivec2 n = first + ivec2(i % blocks.x, i / blocks.x);
    vec4 sum[4] = kZero4;
    vec4 t[5];
#define ACC sum
    LOAD_ROW(t, from_base, from, n + ivec2(0, -2));
    DK_ROW_0
    LOAD_ROW(t, from_base, from, n + ivec2(0, -1));
    DK_ROW_1
    LOAD_ROW(t, from_base, from, n);
    DK_ROW_2
    LOAD_ROW(t, from_base, from, n + ivec2(0, 1));
    DK_ROW_3
    LOAD_ROW(t, from_base, from, n + ivec2(0, 2));
    DK_ROW_4
#undef ACC
#define STAGE_PHASE(b)                                                                                     \
  if (all(greaterThanEqual(2 * n + ivec2((b) & 1, (b) >> 1), r.start)) &&                                  \
      all(lessThan(2 * n + ivec2((b) & 1, (b) >> 1), r.start + r.extent)) && !border_outside(2 * n + ivec2((b) & 1, (b) >> 1), size)) \
    stage(base, r, 2 * n + ivec2((b) & 1, (b) >> 1), sum[b] * kTapUnit);
    STAGE_PHASE(0) STAGE_PHASE(1) STAGE_PHASE(2) STAGE_PHASE(3)
#undef STAGE_PHASE
  }
  barrier();
  border_fixup(level, r, size);
}

// Stage the chain's source level (region r of level `level`), with the border rule at its edges.
// Every invocation issues all its loads (at most three: 36 x 20 texels over 256 invocations) before
// its first store to shared memory, so they are in flight together rather than one memory latency
// after another (a loop whose count the compiler did not know waited for each in turn).
void stage_source(int level, Region r, ivec2 size) {
  int base = level_base(level);
  const int kThreads = THREADS_X * THREADS_Y;
  int texels = r.extent.x * r.extent.y, i = int(gl_LocalInvocationIndex);
#define STAGE_AT(k) (r.start + ivec2((i + (k) * kThreads) % r.extent.x, (i + (k) * kThreads) / r.extent.x))
#if DK_FOLD
  // The source level computed here from the level below (u_src): five bilinear fetches a texel,
  // all issued before the first store; its texels outside the level are fixed up below.
  vec2 inv_size = 1.0 / vec2(source_size());
#define STAGE_LOAD(k, v) if (i + (k) * kThreads < texels) v = down_texel(STAGE_AT(k), inv_size);
#else
#define STAGE_LOAD(k, v) if (i + (k) * kThreads < texels) v = source_texel(STAGE_AT(k));
#endif
#define STAGE_STORE(k, v) if (i + (k) * kThreads < texels) stage(base, r, STAGE_AT(k), v);
  vec4 v0 = vec4(0.0), v1 = vec4(0.0), v2 = vec4(0.0), v3 = vec4(0.0), v4 = vec4(0.0), v5 = vec4(0.0);
  STAGE_LOAD(0, v0) STAGE_LOAD(1, v1) STAGE_LOAD(2, v2) STAGE_LOAD(3, v3) STAGE_LOAD(4, v4) STAGE_LOAD(5, v5)
  STAGE_STORE(0, v0) STAGE_STORE(1, v1) STAGE_STORE(2, v2) STAGE_STORE(3, v3) STAGE_STORE(4, v4) STAGE_STORE(5, v5)
#undef STAGE_AT
#undef STAGE_LOAD
#undef STAGE_STORE
  barrier();
#if DK_FOLD
  border_fixup(level, r, size);
#endif
}

void main() {
  // The chain's levels: 0 the target, DK_CHAIN the source; sizes ceil(size / 2) per level.
  Region region[DK_CHAIN + 1];
  ivec2 size[DK_CHAIN + 1];
  region[0] = Region(ivec2(gl_WorkGroupID.xy) * kTile, ivec2(kTile));
  size[0] = target_size();
  for (int l = 1; l <= DK_CHAIN; ++l) {
    region[l] = source_region(region[l - 1], l);
    size[l] = (size[l - 1] + 1) >> 1;
  }

  // The levels above level 1, whole; then level 1 and the last pass part by part.
#if DK_CHAIN > 1
  stage_source(DK_CHAIN, region[DK_CHAIN], size[DK_CHAIN]);
  for (int l = DK_CHAIN - 1; l >= 2; --l) up_level(l, region[l], region[l + 1], size[l], ivec2(kExtent[l + 1] - 4));
#endif

  // The last pass, into the target: invocation (x, y) writes the 2 x (2 DK_UP_BLOCK) texels of
  // level-1 column n.x = first.x + x and rows n.y .. n.y + DK_UP_BLOCK - 1, n.y = first.y +
  // DK_UP_BLOCK y (and, where a round covers less than the tile, kPartStep rows further in the
  // next round, from the next part of level 1): the DK_UP_BLOCK + 4 rows of their windows read once,
  // a row at a time, each into the sums of the rows it serves (row r serves level-1 row j through
  // DK_ROW_<r - j + 2>). Blocks of 4 read 2 rows per level-1 row against 3 for blocks of 2.
  int from_base = level_base(1);
  ivec2 target = target_size();
  for (int round = 0; round < kRounds; ++round) {
    // The part of level 1 this round reads: rows kPartStep x round on, kPartRows of them.
    Region from = Region(region[1].start + ivec2(0, kPartStep * round), ivec2(kExtent[1], kPartRows));
#if DK_CHAIN > 1
    up_level(1, from, region[2], size[1], ivec2(kExtent[2] - 4, kPartRows / 2));
#else
    stage_source(1, from, size[1]);
#endif
    ivec2 n = (region[0].start >> 1) + ivec2(gl_LocalInvocationID.x, DK_UP_BLOCK * int(gl_LocalInvocationID.y) + kPartStep * round);
    vec4 acc0[4] = kZero4, acc1[4] = kZero4, acc2[4] = kZero4, acc3[4] = kZero4;  // level-1 rows n.y + j
    vec4 t[5];
    // Row r (relative to n.y) into the sums of level-1 row j, where it is in j's window; constant
    // conditions, folded by the compiler, so every array index stays a constant.
#define APPLY(j, r) \
  if ((j) < DK_UP_BLOCK && (r) - (j) >= -2 && (r) - (j) <= 2) apply_row((r) - (j) + 2, acc##j, t);
#define STEP(r)                                           \
  LOAD_ROW(t, from_base, from, n + ivec2(0, r));          \
  APPLY(0, r) APPLY(1, r) APPLY(2, r) APPLY(3, r)
    STEP(-2) STEP(-1) STEP(0) STEP(1) STEP(2) STEP(3)
#if DK_UP_BLOCK == 4
    STEP(4) STEP(5)
#endif
#undef STEP
#undef APPLY
#define STORE_PHASE(b, dy, sums) \
  if (all(lessThan(2 * n + ivec2((b) & 1, ((b) >> 1) + (dy)), target))) store_target(2 * n + ivec2((b) & 1, ((b) >> 1) + (dy)), sums[b] * kTapUnit);
#define STORE_ROW(j) \
  if ((j) < DK_UP_BLOCK) { STORE_PHASE(0, 2 * (j), acc##j) STORE_PHASE(1, 2 * (j), acc##j) STORE_PHASE(2, 2 * (j), acc##j) STORE_PHASE(3, 2 * (j), acc##j) }
    STORE_ROW(0) STORE_ROW(1) STORE_ROW(2) STORE_ROW(3)
#undef STORE_ROW
#undef STORE_PHASE
    barrier();  // the next part overwrites this one
  }
}
#endif
