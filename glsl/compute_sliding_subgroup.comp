#version 430 core
#if AXIS == 0 && SCAN_SUBGROUP
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
// compute-sliding-subgroup: compute-sliding's two passes of running box sums (rows into the
// intermediate, then columns), with the row pass walked by groups of 32 invocations instead of one
// invocation per row segment, and no shared-memory tiles (compute-sliding-tiles stages tiles in
// shared memory, glsl/box_walk.glsl, and stays at about one workgroup per SM).
//  - AXIS 0 (rows): a group of 32 lanes (one NVIDIA warp) walks ROW_WALK texels of one row, 32 per
//    step, each lane on its own texel, so every load and store of the group is 32 consecutive
//    texels. Per step each lane loads the texel entering its window (x + r) and the one leaving
//    (x - r - 1, loaded 2r + 1 texels earlier by the same group: a cache hit), the 32 changes are
//    prefix-summed across the group, and lane l's window sum is the carry (the window just
//    before the step) plus its prefix; the carry then grows by the step's total. UNROLL steps'
//    loads are issued before their scans. The warm-up (the window centred on start - 1) is summed
//    by the 32 lanes together, 2r + 1 texels in ceil((2r + 1) / 32) loads each, then reduced.
//    The scan: subgroupInclusiveAdd / subgroupAdd (SCAN_SUBGROUP, 32-lane subgroups, the host
//    checks) or its portable twin, a Hillis-Steele scan in shared memory (barriers in uniform
//    control flow: every invocation runs every step; walkers past the image only skip loads and
//    stores). Both give the same sums: exact integers for rgba8, fp32 otherwise.
//  - AXIS 1 (columns): compute-sliding's column pass (line_pass of sliding_common.glsl), one
//    invocation per COLUMN_WALK texels of a column, adjacent invocations on adjacent columns.
// rgba8 input (EXACT): the row sums are integers packed two channels per uint (r | b << 16,
// g | a << 16): a window of 2r + 1 <= 257 texels sums to at most 65535 a channel, so the packed
// window is exact modulo 2^32 whatever borrows its differences and prefixes carried between fields.
#include "blur_common.glsl"
#if AXIS == 0 && EXACT
// rgba8 rows read the source as its bits (one uint a texel): two masks make the packed fields,
// where a converted read costs four conversions and roundings (the walk is instruction-heavy).
#define SOURCE_RAW
#endif
#include "source_image.glsl"
#include "target_image.glsl"
#ifdef SOURCE_RAW
// sliding_common.glsl's own loads (unused by this pass) read the texel converted.
vec4 source_texel(ivec2 p) { return unpackUnorm4x8(source_bits(p).x); }
#endif

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

#if AXIS == 1

#define SEGMENT COLUMN_WALK
// The warm-up's 2r + 1 reads, 16 in flight at a time whatever UNROLL: at r = 128 they are 17
// round trips to L2, not 65 (the segment above read those rows: cache hits, but a serial chain).
#define WARMUP_UNROLL 16
#include "sliding_common.glsl"

void main() { line_pass(); }

#else

#define SLIDE_EMIT_CUSTOM
#include "sliding_common.glsl"
void emit(ivec2 p, int k, ACC sum) { store_target(p, from_acc(sum)); }

const int LANES = 32;                         // invocations walking one row segment
const int WALKERS = WG_X * WG_Y / LANES;      // the host checks it divides

#if EXACT
#define WSUM uvec2
WSUM pack_acc(ACC a) { return uvec2(a.x | (a.z << 16), a.y | (a.w << 16)); }
ACC unpack_sum(WSUM s) { return uvec4(s.x & 0xFFFFu, s.y & 0xFFFFu, s.x >> 16, s.y >> 16); }
#else
#define WSUM vec4
WSUM pack_acc(ACC a) { return a; }
ACC unpack_sum(WSUM s) { return s; }
#endif

#ifdef SOURCE_RAW
// The texel's bits r | g << 8 | b << 16 | a << 24 as the packed fields (r | b << 16, g | a << 16).
WSUM load_walk(ivec2 p) {
  uint t = source_bits(p).x;
  return uvec2(t & 0x00FF00FFu, (t >> 8) & 0x00FF00FFu);
}
#else
WSUM load_walk(ivec2 p) { return pack_acc(to_acc(source_texel(p))); }
#endif

#if SCAN_SUBGROUP
// Lanes by subgroup, whatever the mapping of local invocations to subgroups (GL promises none).
int walker_id() { return int(gl_SubgroupID); }
int lane_id() { return int(gl_SubgroupInvocationID); }
// Inclusive prefix sums of v[u] across the 32 lanes, and their totals.
void scan(inout WSUM v[UNROLL], out WSUM total[UNROLL]) {
  for (int u = 0; u < UNROLL; ++u) {
    total[u] = subgroupAdd(v[u]);
    v[u] = subgroupInclusiveAdd(v[u]);
  }
}
// The sum of v across the 32 lanes, in every lane.
WSUM lanes_total(WSUM v) { return subgroupAdd(v); }
#else
int walker_id() { return int(gl_LocalInvocationIndex) / LANES; }
int lane_id() { return int(gl_LocalInvocationIndex) % LANES; }
shared WSUM s_scan[UNROLL * WG_X * WG_Y];  // [step][invocation]
// The same scan in shared memory (Hillis-Steele, log2(32) rounds). Every invocation of the
// workgroup calls it the same number of times, so each barrier is in uniform control flow.
void scan(inout WSUM v[UNROLL], out WSUM total[UNROLL]) {
  const int n = WG_X * WG_Y;
  int i = int(gl_LocalInvocationIndex), lane = i % LANES;
  memoryBarrierShared();
  barrier();  // the previous scan's totals are read
  for (int u = 0; u < UNROLL; ++u) s_scan[u * n + i] = v[u];
  memoryBarrierShared();
  barrier();
  for (int d = 1; d < LANES; d *= 2) {
    WSUM t[UNROLL];
    for (int u = 0; u < UNROLL; ++u) t[u] = lane >= d ? s_scan[u * n + i - d] : WSUM(0);
    memoryBarrierShared();
    barrier();
    for (int u = 0; u < UNROLL; ++u) {
      v[u] += t[u];
      s_scan[u * n + i] = v[u];
    }
    memoryBarrierShared();
    barrier();
  }
  for (int u = 0; u < UNROLL; ++u) total[u] = s_scan[u * n + i - lane + LANES - 1];
}
WSUM lanes_total(WSUM v) {
  WSUM a[UNROLL], total[UNROLL];
  for (int u = 0; u < UNROLL; ++u) a[u] = WSUM(0);
  a[0] = v;
  scan(a, total);
  return total[0];
}
#endif

void main() {
  ivec2 size = source_size();
  int group = int(gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x);
  int lane = lane_id();
  int walker = group * WALKERS + walker_id();
  int segments = (size.x + ROW_WALK - 1) / ROW_WALK;
  // Adjacent walkers on adjacent rows, like compute-sliding's invocations.
  int y = walker % size.y, start = (walker / size.y) * ROW_WALK;
  bool walking = walker < size.y * segments;  // the same for the 32 lanes of a walker
#if SCAN_SUBGROUP
  if (!walking) return;  // a whole subgroup; no barrier in this form
#endif
  int end = walking ? min(start + ROW_WALK, size.x) : start;

  // Warm-up: the window centred on start - 1 (texels start - 1 - r .. start - 1 + r), each lane
  // summing every 32nd of them, then one reduction across the lanes.
  WSUM part = WSUM(0);
  // A constant trip count (the lanes' shares differ by at most one texel), so all its loads can be in flight.
  const int taps = 2 * SLIDE_RADIUS + 1;
  if (walking)
    for (int k = 0; k < (taps + LANES - 1) / LANES; ++k) {
      int t = lane + k * LANES;
      if (t < taps) part += load_walk(ivec2(start - 1 - SLIDE_RADIUS + t, y));
    }
  WSUM sum = lanes_total(part);  // the running window sum just before the step

  // The walk: every walker takes the same number of steps (the longest segment's), so the shared
  // form's barriers stay in uniform control flow; lanes past the segment load and store nothing.
  int steps = (min(ROW_WALK, size.x) + LANES - 1) / LANES;
  for (int base = 0; base < steps; base += UNROLL) {
    WSUM change[UNROLL], total[UNROLL];
    for (int u = 0; u < UNROLL; ++u) {
      int x = start + (base + u) * LANES + lane;
      change[u] = x < end ? load_walk(ivec2(x + SLIDE_RADIUS, y)) : WSUM(0);
    }
    for (int u = 0; u < UNROLL; ++u) {
      int x = start + (base + u) * LANES + lane;
      if (x < end) change[u] -= load_walk(ivec2(x - SLIDE_RADIUS - 1, y));
    }
    scan(change, total);
    for (int u = 0; u < UNROLL; ++u) {
      int x = start + (base + u) * LANES + lane;
      if (x < end) store_target(ivec2(x, y), from_acc(unpack_sum(sum + change[u])));
      sum += total[u];
    }
  }
}

#endif
