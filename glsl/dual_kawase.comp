#version 430 core
// dual-kawase: Bjorge's dual filter (src/variants/dual_kawase.cpp). DK_OFFSET: the offset o (steps
// of 1/2).
//
// DK_UP 0: one downsampling pass into a level of half the size, one invocation per target texel:
// five bilinear fetches, the centre (on the corner of its 2x2 source texels) and four at (+-h, +-h),
// h = o source texels. Five fetches per texel written are 1.25 per texel read: fetches and bytes
// bound it alike.
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

#if DK_UP == 0
layout(local_size_x = WG_X, local_size_y = WG_Y) in;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  // Partial workgroups at the edge: nothing to store (no barrier follows).
  if (any(greaterThanEqual(p, target_size()))) return;
  store_target(p, down_texel(p, 1.0 / vec2(source_size())));
}

#else
// The upsampling pass. Target texel q = 2n + b (b its phase, per axis) sits at (q + 1/2) / 2 in the
// level it reads, n + 1/4 or n + 3/4; its fetches at (+-2h, 0) and (0, +-2h) weighted 1/12 and at
// (+-h, +-h) weighted 2/12, h = o / 4 <= 3/4, blend texels n - 2 .. n + 2 only. The host lists them
// by row: DK_ROW_<dy + 2> holds TAP(by, bx, dx, w) for each texel (dy, dx) relative to n that phase
// (by, bx) blends, w its summed weight in units of 1/768 (exact). The code below is written out row
// by row, so every array index is a constant and no loop needs unrolling to stay in registers.
const float kTapUnit = 1.0 / 768.0;

// DK_UP_THREADS (knob up-threads): 256 invocations (32 x 8), each writing 16 texels of the tile in
// two halves one after the other, or 512 (32 x 16), each writing 8: twice the warps to hide
// latencies with, and one half's registers.
#define THREADS_X 32
#if DK_UP_THREADS == 512
#define THREADS_Y 16
#else
#define THREADS_Y 8
#endif
const int kHalves = 16 / THREADS_Y;
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
// Level 1 is staged in parts of the tile, one per half the last pass writes (kHalves): the rows of
// level 1 that half reads, 2 THREADS_Y + 4 of them (20 of 36 at 256 invocations). Shared memory per
// workgroup decides how many are resident (docs/PERFORMANCE.md), so a part, not the whole region.
const int kPartStep = 2 * THREADS_Y, kPartRows = kPartStep + 4;
// Two buffers, levels alternating between them: odd levels in A (a part of level 1: 36 x 20; levels
// 3 and up: 16 x 16 at most), even levels in B (level 2: 22 x 22; the source level when the chain
// is longer than 1 fits either). A chain of one pass stages level 1 alone: no B.
const int kCapacityA = 36 * kPartRows, kCapacityB = DK_CHAIN > 1 ? 22 * 22 : 0;
shared vec4 s_level[kCapacityA + kCapacityB];
int level_base(int level) { return (level & 1) == 1 ? 0 : kCapacityA; }

vec4 staged(int base, Region r, ivec2 p) { return s_level[base + (p.y - r.start.y) * r.extent.x + (p.x - r.start.x)]; }
void stage(int base, Region r, ivec2 p, vec4 v) { s_level[base + (p.y - r.start.y) * r.extent.x + (p.x - r.start.x)] = v; }

// The five texels dx = -2..2 of row p.y around column p.x of a staged level, into t[0..4].
#define LOAD_ROW(t, base, r, p)                                                             \
  t[0] = staged(base, r, (p) + ivec2(-2, 0)), t[1] = staged(base, r, (p) + ivec2(-1, 0)), \
  t[2] = staged(base, r, p), t[3] = staged(base, r, (p) + ivec2(1, 0)), t[4] = staged(base, r, (p) + ivec2(2, 0))
// A row's taps into the sums ACC[by * 2 + bx] of the four phases.
#define TAP(by, bx, dx, w) ACC[(by) * 2 + (bx)] += (w) * t[(dx) + 2];
const vec4 kZero4[4] = vec4[4](vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0));

// The border rule at the edges of level `level`'s staged region: a texel outside the level's `size`
// becomes the one the rule maps it to, or the constant (see up_level).
void border_fixup(int level, Region r, ivec2 size) {
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

  // The last pass, into the target: invocation (x, y) writes the 2 x 4 texels of level-1 column
  // n.x = first.x + x and rows n.y, n.y + 1, n.y = first.y + 2y (and, at 256 invocations, 16 rows
  // further, from the second part of level 1): the six rows of their windows read once, a row at a
  // time, each into the sums of the rows it serves.
  int from_base = level_base(1);
  ivec2 target = target_size();
  for (int half_tile = 0; half_tile < kHalves; ++half_tile) {
    // The part of level 1 this half reads: rows kPartStep x half_tile on, kPartRows of them.
    Region from = Region(region[1].start + ivec2(0, kPartStep * half_tile), ivec2(kExtent[1], kPartRows));
#if DK_CHAIN > 1
    up_level(1, from, region[2], size[1], ivec2(kExtent[2] - 4, kPartRows / 2));
#else
    stage_source(1, from, size[1]);
#endif
    ivec2 n = (region[0].start >> 1) + ivec2(gl_LocalInvocationID.x, 2 * int(gl_LocalInvocationID.y) + kPartStep * half_tile);
    vec4 upper[4] = kZero4, lower[4] = kZero4;  // level-1 rows n.y and n.y + 1
    vec4 t[5];
    LOAD_ROW(t, from_base, from, n + ivec2(0, -2));
#define ACC upper
    DK_ROW_0
#undef ACC
    LOAD_ROW(t, from_base, from, n + ivec2(0, -1));
#define ACC upper
    DK_ROW_1
#undef ACC
#define ACC lower
    DK_ROW_0
#undef ACC
    LOAD_ROW(t, from_base, from, n);
#define ACC upper
    DK_ROW_2
#undef ACC
#define ACC lower
    DK_ROW_1
#undef ACC
    LOAD_ROW(t, from_base, from, n + ivec2(0, 1));
#define ACC upper
    DK_ROW_3
#undef ACC
#define ACC lower
    DK_ROW_2
#undef ACC
    LOAD_ROW(t, from_base, from, n + ivec2(0, 2));
#define ACC upper
    DK_ROW_4
#undef ACC
#define ACC lower
    DK_ROW_3
#undef ACC
    LOAD_ROW(t, from_base, from, n + ivec2(0, 3));
#define ACC lower
    DK_ROW_4
#undef ACC
#define STORE_PHASE(b, dy, sums) \
  if (all(lessThan(2 * n + ivec2((b) & 1, ((b) >> 1) + (dy)), target))) store_target(2 * n + ivec2((b) & 1, ((b) >> 1) + (dy)), sums[b] * kTapUnit);
    STORE_PHASE(0, 0, upper) STORE_PHASE(1, 0, upper) STORE_PHASE(2, 0, upper) STORE_PHASE(3, 0, upper)
    STORE_PHASE(0, 2, lower) STORE_PHASE(1, 2, lower) STORE_PHASE(2, 2, lower) STORE_PHASE(3, 2, lower)
#undef STORE_PHASE
    barrier();  // the next part overwrites this one
  }
}
#endif
