#version 430 core
// kawase: one pass of the Kawase blur at offset o = u_pass.x (a whole number): the average of four
// bilinear fetches at the diagonal offsets (+-(o + 1/2), +-(o + 1/2)), each the mean of a 2x2
// block: together the 16 texels at -o-1, -o, o and o+1 along each axis, 1/16 each.
//
// SHARED 0 (textbook): the texture units blend (bilinear_common.glsl); fetches bound such a pass.
// An invocation writes SHARE_X x SHARE_Y outputs s = 2o + 1 apart along each axis: the fetch at +d of
// one output is the fetch at -d of the output s further on (both on corner p + o + 1), so n outputs
// along an axis take n + 1 fetch positions, not 2n: (n + 1)(m + 1) fetches for n x m outputs (4 for
// one). Along each axis invocation i writes texels (i / s) n s + i % s + k s, k < n: neighbouring
// invocations write neighbouring texels.
//
// SHARED 1: each texel is fetched once into shared memory and the weights are applied there, so the
// pass is bound by its bytes. A workgroup of TILE_W x THREADS_Y invocations blurs a TILE_W x
// (THREADS_Y x ROWS) tile. Along each axis its outputs need two runs of TILE + 1 texels, starting
// o + 1 before the tile and o after its start: one run of TILE + 2o + 2 texels when they overlap
// (gap 2o + 1 between their starts), two separate bands when they do not (gap TILE + 1); the staged
// region is TILE + 1 + gap texels long, REGION_TEXELS in all (the host sizes it for the pass's
// offset). Each invocation then sums ROWS outputs down one column: the output of row y adds the row
// sums of staged rows y, y + 1, y + gap and y + gap + 1, each four texels (x, x + 1, x + gap,
// x + gap + 1); the next output shares two of them.
// PACKED 1 (rgba8 source and target): texels move as raw bits and are summed as integers, the
// channels (r, b) and (g, a) in the 16-bit lanes of two words (16 x 255 fits), and the average is
// rounded half up: exact. Otherwise fp32 vec4 sums of the texels as the images convert them.
#include "blur_common.glsl"
#if !SHARED
#include "source_sampler.glsl"
#include "target_image.glsl"
#include "bilinear_common.glsl"

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

void main() {
  int offset = int(u_pass.x), s = 2 * offset + 1;
  ivec2 i = ivec2(gl_GlobalInvocationID.xy);
  ivec2 first = (i / s) * (ivec2(SHARE_X, SHARE_Y) * s) + i % s;
  ivec2 size = target_size();
  // Partial workgroups and runs at the edge: nothing to store (no barrier follows).
  if (any(greaterThanEqual(first, size))) return;
  vec2 inv_size = 1.0 / vec2(source_size());
  // The fetch positions: the corners first - o + k s, k = 0..n, along each axis (the centre
  // first + 1/2 minus d = o + 1/2, then steps of 2d).
  vec2 corner = vec2(first - offset);
  vec4 above[SHARE_X + 1];
  for (int ky = 0; ky <= SHARE_Y; ++ky) {
    vec4 below[SHARE_X + 1];
    for (int kx = 0; kx <= SHARE_X; ++kx) below[kx] = bilinear_fetch(corner + vec2(kx * s, ky * s), inv_size);
    // Output (kx, ky - 1) of the block: its fetches at (-d, -d), (d, -d), (-d, d), (d, d), summed in that order.
    for (int kx = 0; ky > 0 && kx < SHARE_X; ++kx) {
      ivec2 p = first + ivec2(kx, ky - 1) * s;
      if (all(lessThan(p, size))) store_target(p, 0.25 * (above[kx] + above[kx + 1] + below[kx] + below[kx + 1]));
    }
    above = below;
  }
}

#else
#if PACKED
#define SOURCE_RAW
#define TARGET_RAW
#endif
#include "source_image.glsl"
#include "target_image.glsl"

layout(local_size_x = TILE_W, local_size_y = THREADS_Y) in;
const int TILE_H = THREADS_Y * ROWS;

#if PACKED
#define SUM uvec2
shared uvec2 s_texel[REGION_TEXELS];
// Texel p with the border rule (source_bits applies it), its channels in the 16-bit lanes of two words.
uvec2 load_texel(ivec2 p, ivec2 size) {
  uint bits = source_bits(p).x;
  return uvec2(bits & 0x00ff00ffu, (bits >> 8) & 0x00ff00ffu);
}
// The average of 16 texels, rounded half up, as rgba8 bits.
void store_average(ivec2 p, uvec2 sum) {
  uvec2 lanes = ((sum + 0x00080008u) >> 4) & 0x00ff00ffu;
  store_target_bits(p, uvec4(lanes.x | (lanes.y << 8), 0u, 0u, 0u));
}
#else
#define SUM vec4
shared vec4 s_texel[REGION_TEXELS];
vec4 load_texel(ivec2 p, ivec2 size) { return source_texel(p); }  // source_texel applies the rule
void store_average(ivec2 p, vec4 sum) { store_target(p, sum * (1.0 / 16.0)); }
#endif

// The gap between the two runs an axis of `tile` outputs needs (see above).
int run_gap(int offset, int tile) { return min(2 * offset + 1, tile + 1); }
// The source index of staged index i along an axis: the first run starts at origin - o - 1, the
// second at origin + o.
int staged_source(int i, int origin, int offset, int gap) { return i < gap ? origin - offset - 1 + i : origin + offset + (i - gap); }

void main() {
  int offset = int(u_pass.x);
  ivec2 origin = ivec2(gl_WorkGroupID.xy) * ivec2(TILE_W, TILE_H);
  ivec2 gap = ivec2(run_gap(offset, TILE_W), run_gap(offset, TILE_H));
  ivec2 region = ivec2(TILE_W, TILE_H) + 1 + gap;
  ivec2 size = source_size();
  int x = int(gl_LocalInvocationID.x), y = int(gl_LocalInvocationID.y);

  // Stage the region: invocation (x, y) takes columns x, x + TILE_W, x + 2 TILE_W of rows y,
  // y + THREADS_Y, ... (region.x <= 2 TILE_W + 2): up to three independent loads per row.
  for (int ry = y; ry < region.y; ry += THREADS_Y) {
    int sy = staged_source(ry, origin.y, offset, gap.y);
    for (int rx = x; rx < region.x; rx += TILE_W)
      s_texel[ry * region.x + rx] = load_texel(ivec2(staged_source(rx, origin.x, offset, gap.x), sy), size);
  }
  barrier();

  // The row sum of staged row `row` for this invocation's column.
#define ROW_SUM(row)                                                                          \
  (s_texel[(row) * region.x + x] + s_texel[(row) * region.x + x + 1] + s_texel[(row) * region.x + x + gap.x] + \
   s_texel[(row) * region.x + x + gap.x + 1])
  ivec2 target = target_size();
  int first = y * ROWS;
  SUM top = ROW_SUM(first), bottom = ROW_SUM(first + gap.y);
  for (int j = 0; j < ROWS; ++j) {
    SUM next_top = ROW_SUM(first + j + 1), next_bottom = ROW_SUM(first + j + 1 + gap.y);
    ivec2 p = origin + ivec2(x, first + j);
    if (all(lessThan(p, target))) store_average(p, top + next_top + bottom + next_bottom);
    top = next_top;
    bottom = next_bottom;
  }
#undef ROW_SUM
}
#endif
