#version 430 core
// kawase: one pass of the Kawase blur at offset o = u_pass.x (a whole number). The textbook pass
// averages four bilinear fetches at the diagonal offsets (+-(o + 1/2), +-(o + 1/2)), each the mean
// of a 2x2 block: together the 16 texels at -o-1, -o, o and o+1 along each axis, 1/16 each. Four
// fetches per texel make that pass bound by the texture units' fetch rate; here each texel is
// fetched once into shared memory and the weights are applied there, so it is bound by its bytes.
//
// A workgroup of TILE_W x TILE_H_THREADS invocations blurs a TILE_W x TILE_H tile. Along each axis its outputs need two runs of TILE + 1
// texels, starting o + 1 before the tile and o after its start: one run of TILE + 2o + 2 texels when
// they overlap (gap 2o + 1 between their starts), two separate bands when they do not (gap TILE + 1),
// so the staged region is TILE + 1 + gap texels long and at most REGION_W x REGION_H (the blur's
// largest offset, set by the host). Each invocation then sums ROWS outputs down one column: the
// output of row y adds the row sums of staged rows y, y + 1, y + gap and y + gap + 1, each row sum
// four texels (x, x + 1, x + gap, x + gap + 1); the next output shares two of them.
//
// KAWASE_PACKED 1 (rgba8 source and target): texels move as raw bits and are summed as integers, the
// channels (r, b) and (g, a) in the 16-bit lanes of two words (16 x 255 fits), and the average is
// rounded half up: exact. Otherwise fp32 vec4 sums of the texels as the images convert them.
#include "blur_common.glsl"
#if KAWASE_PACKED
#include "raw_images.glsl"
#else
#include "source_image.glsl"
#include "target_image.glsl"
#endif

layout(local_size_x = TILE_W, local_size_y = TILE_H_THREADS) in;
const int TILE_H = TILE_H_THREADS * ROWS;

#if KAWASE_PACKED
#define SUM uvec2
shared uvec2 s_texel[REGION_H][REGION_W];
ivec2 source_size() { return imageSize(u_src_raw); }
ivec2 target_size() { return imageSize(u_dst_raw); }
// Texel p with the border rule, its channels in the 16-bit lanes of two words.
uvec2 load_texel(ivec2 p) {
#if BORDER == BORDER_CONSTANT
  uint bits = border_outside(p, source_size()) ? packUnorm4x8(border_value()) : imageLoad(u_src_raw, p).x;
#else
  uint bits = imageLoad(u_src_raw, border_texel(p, source_size())).x;
#endif
  return uvec2(bits & 0x00ff00ffu, (bits >> 8) & 0x00ff00ffu);
}
// The average of 16 texels, rounded half up, as rgba8 bits.
void store_average(ivec2 p, uvec2 sum) {
  uvec2 lanes = ((sum + 0x00080008u) >> 4) & 0x00ff00ffu;
  imageStore(u_dst_raw, p, uvec4(lanes.x | (lanes.y << 8), 0u, 0u, 0u));
}
#else
#define SUM vec4
shared vec4 s_texel[REGION_H][REGION_W];
vec4 load_texel(ivec2 p) { return source_texel(p); }
void store_average(ivec2 p, vec4 sum) { store_target(p, sum * (1.0 / 16.0)); }
#endif

// The gap between the two runs an axis of `tile` outputs needs (see above).
int run_gap(int offset, int tile) { return min(2 * offset + 1, tile + 1); }
// The source index of staged index i along an axis: the first run starts at origin - o - 1, the
// second at origin + o.
int staged_source(int i, int origin, int offset, int gap) { return i < gap ? origin - offset - 1 + i : origin + offset + (i - gap); }

SUM row_sum(int row, int x, int gap_x) {
  return s_texel[row][x] + s_texel[row][x + 1] + s_texel[row][x + gap_x] + s_texel[row][x + gap_x + 1];
}

void main() {
  int offset = int(u_pass.x);
  ivec2 origin = ivec2(gl_WorkGroupID.xy) * ivec2(TILE_W, TILE_H);
  ivec2 gap = ivec2(run_gap(offset, TILE_W), run_gap(offset, TILE_H));
  ivec2 region = ivec2(TILE_W, TILE_H) + 1 + gap;

  // Stage the region, a batch of loads in flight before their stores. Invocation n stages the
  // region's texels n, n + N, n + 2N, ... (N invocations), in row order: consecutive invocations
  // read consecutive texels; the position steps by N without a division per texel.
  const int invocations = TILE_W * TILE_H_THREADS, batch = 4;
  ivec2 step = ivec2(invocations % region.x, invocations / region.x);
  int n = int(gl_LocalInvocationIndex);
  ivec2 r = ivec2(n % region.x, n / region.x);
  while (r.y < region.y) {
    ivec2 at[batch];
    SUM texel[batch];
    for (int k = 0; k < batch; ++k) {
      at[k] = r;
      if (r.y < region.y)
        texel[k] = load_texel(ivec2(staged_source(r.x, origin.x, offset, gap.x), staged_source(r.y, origin.y, offset, gap.y)));
      r += step;
      if (r.x >= region.x) r += ivec2(-region.x, 1);
    }
    for (int k = 0; k < batch; ++k)
      if (at[k].y < region.y) s_texel[at[k].y][at[k].x] = texel[k];
  }
  barrier();

  int x = int(gl_LocalInvocationID.x), y = int(gl_LocalInvocationID.y) * ROWS;
  ivec2 size = target_size();
  SUM top = row_sum(y, x, gap.x), bottom = row_sum(y + gap.y, x, gap.x);
  for (int j = 0; j < ROWS; ++j) {
    SUM next_top = row_sum(y + j + 1, x, gap.x), next_bottom = row_sum(y + j + 1 + gap.y, x, gap.x);
    ivec2 p = origin + ivec2(x, y + j);
    if (all(lessThan(p, size))) store_average(p, top + next_top + bottom + next_bottom);
    top = next_top;
    bottom = next_bottom;
  }
}
