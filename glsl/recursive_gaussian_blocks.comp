#version 430 core
// recursive-gaussian-blocks: the recursive filter of recursive-gaussian along AXIS (0 = rows,
// 1 = columns), each line split into BLOCKS blocks of BLOCK texels, one invocation per block
// (Nehab et al. 2011; src/variants/recursive_gaussian_blocks.cpp). Per direction: each block
// filtered from a zero state (the first block from the line's true start state), a scan of the
// block-end states across the line (s_k = A s_k-1 + f_k, A the transition over one block), then
// each block filtered again from its true initial state. The block stays in registers throughout:
// the input, then the causal output. Defines:
//   RG_P, RG_G1           first-order section u = RG_G1 x + RG_P u[-1]
//   RG_C1, RG_C2, RG_G2   second-order section v = RG_G2 u + RG_C1 v[-1] + RG_C2 v[-2]
//   RG_M                  the right border's 3x3 matrix, row-major
//   BLOCK                 texels per block (ceil(line length / BLOCKS), per axis)
//   SCAN_STEPS, RG_CARRY  the scan's steps, ceil(log2(BLOCKS)), and A^(2^i), i < SCAN_STEPS, row-major
//   WG_X, WG_Y            blocks per line (BLOCKS), lines per workgroup (LINES)
// The block must stay in registers: NVIDIA's compiler left the loops over x[BLOCK] rolled at
// BLOCK = 16 (x in local memory: 7.5 ms at 4096x4096 on the H200, 1.2 ms unrolled). Other
// compilers ignore the pragma (GLSL 4.30, section 3.3).
#pragma optionNV(unroll all)
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"

// Columns put a workgroup's lines along x, so the invocations of neighbouring lines (adjacent in
// a subgroup) load neighbouring texels of a row together.
#if AXIS == 0
layout(local_size_x = WG_X, local_size_y = WG_Y) in;
#define BLOCK_ID int(gl_LocalInvocationID.x)
#define LINE_ID int(gl_LocalInvocationID.y)
#else
layout(local_size_x = WG_Y, local_size_y = WG_X) in;
#define BLOCK_ID int(gl_LocalInvocationID.y)
#define LINE_ID int(gl_LocalInvocationID.x)
#endif
const int BLOCKS = WG_X, LINES = WG_Y;

const float P = RG_P, G1 = RG_G1, C1 = RG_C1, C2 = RG_C2, G2 = RG_G2;
const float M[9] = float[](RG_M);
const float CARRY[] = float[](RG_CARRY);  // 9 zeros when SCAN_STEPS is 0

// The block states (3 per block: u, v[n], v[n-1] causal; a, b[n], b[n+1] anticausal) of the scan.
shared vec4 s_state[3 * LINES * BLOCKS];

// One step of the sections (either direction): s = A s + (g1, g2 g1, 0) x.
void filter_step(vec4 x, inout vec4 s0, inout vec4 s1, inout vec4 s2) {
  s0 = G1 * x + P * s0;
  vec4 v = G2 * s0 + C1 * s1 + C2 * s2;
  s2 = s1;
  s1 = v;
}

// An inclusive scan of the states over the blocks of each line, towards higher blocks (step 1) or
// lower (step -1): after step i each block holds its own state plus A^(2^i) times that of the
// block 2^i away (Hillis-Steele), so in the end its state after every block before it. Blocks
// past the line's end hold 0 and add nothing. Uniform control flow: every invocation takes part.
void scan(int slot, int block, int step, inout vec4 s0, inout vec4 s1, inout vec4 s2) {
  s_state[slot] = s0;
  s_state[slot + 1] = s1;
  s_state[slot + 2] = s2;
  memoryBarrierShared();
  barrier();
  for (int i = 0; i < SCAN_STEPS; ++i) {
    int d = 1 << i, from = block - step * d;
    bool take = from >= 0 && from < BLOCKS;
    vec4 t0 = vec4(0.0), t1 = vec4(0.0), t2 = vec4(0.0);
    if (take) {
      int other = slot - 3 * step * d;
      t0 = s_state[other];
      t1 = s_state[other + 1];
      t2 = s_state[other + 2];
    }
    memoryBarrierShared();
    barrier();
    if (take) {
      int c = 9 * i;
      s0 += CARRY[c] * t0 + CARRY[c + 1] * t1 + CARRY[c + 2] * t2;
      s1 += CARRY[c + 3] * t0 + CARRY[c + 4] * t1 + CARRY[c + 5] * t2;
      s2 += CARRY[c + 6] * t0 + CARRY[c + 7] * t1 + CARRY[c + 8] * t2;
      s_state[slot] = s0;
      s_state[slot + 1] = s1;
      s_state[slot + 2] = s2;
    }
    memoryBarrierShared();
    barrier();
  }
}

void main() {
  ivec2 size = source_size();
  int lines = AXIS == 0 ? size.y : size.x, len = AXIS == 0 ? size.x : size.y;
  // The workgroup grid is flattened (sliding::flat_groups).
  int group = int(gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x);
  int block = BLOCK_ID, l = group * LINES + LINE_ID, first = block * BLOCK;
  // Texels of this block in the line: BLOCK, fewer in the last block, none past the line's end or
  // in a line past the image (such invocations still reach every barrier).
  int count = l < lines ? clamp(len - first, 0, BLOCK) : 0;
  bool holds_end = count > 0 && first + count == len;
  ivec2 origin = AXIS == 0 ? ivec2(0, l) : ivec2(l, 0), dir = AXIS == 0 ? ivec2(1, 0) : ivec2(0, 1);
  int slot = 3 * (LINE_ID * BLOCKS + block);

  vec4 x[BLOCK];
  for (int k = 0; k < BLOCK; ++k) x[k] = k < count ? source_texel(origin + (first + k) * dir) : vec4(0.0);

  // Causal. The first block starts from the line's true state: to the left the line repeats its
  // first texel, on which the filter (unit gain at DC) has settled; the others from 0.
  vec4 left = x[0];
  vec4 u = vec4(0.0), v1 = vec4(0.0), v2 = vec4(0.0);
  if (block == 0) u = v1 = v2 = left;
  for (int k = 0; k < BLOCK; ++k)
    if (k < count) filter_step(x[k], u, v1, v2);
  scan(slot, block, 1, u, v1, v2);
  // The true state before this block: the previous block's end after the scan.
  if (block == 0) {
    u = v1 = v2 = left;
  } else {
    u = s_state[slot - 3];
    v1 = s_state[slot - 2];
    v2 = s_state[slot - 1];
  }
  memoryBarrierShared();  // the anticausal scan overwrites s_state
  barrier();
  vec4 last = vec4(0.0);
  for (int k = 0; k < BLOCK; ++k)
    if (k < count) {
      last = x[k];
      filter_step(x[k], u, v1, v2);
      x[k] = v1;  // the causal output replaces the input
    }

  // Anticausal. The block holding the line's end starts from the border state: to the right the
  // line repeats its last texel c, and the causal state's deviation from c decides the anticausal
  // state there (M); the others from 0.
  vec4 a = vec4(0.0), b1 = vec4(0.0), b2 = vec4(0.0);
  vec4 end_a = a, end_b1 = b1, end_b2 = b2;
  if (holds_end) {
    vec4 d0 = u - last, d1 = v1 - last, d2 = v2 - last;
    end_a = last + M[0] * d0 + M[1] * d1 + M[2] * d2;
    end_b1 = last + M[3] * d0 + M[4] * d1 + M[5] * d2;
    end_b2 = last + M[6] * d0 + M[7] * d1 + M[8] * d2;
    a = end_a;
    b1 = end_b1;
    b2 = end_b2;
  }
  for (int k = BLOCK - 1; k >= 0; --k)
    if (k < count) filter_step(x[k], a, b1, b2);
  scan(slot, block, -1, a, b1, b2);
  if (holds_end) {
    a = end_a;
    b1 = end_b1;
    b2 = end_b2;
  } else if (block + 1 < BLOCKS) {
    a = s_state[slot + 3];
    b1 = s_state[slot + 4];
    b2 = s_state[slot + 5];
  }
  for (int k = BLOCK - 1; k >= 0; --k)
    if (k < count) {
      filter_step(x[k], a, b1, b2);
      store_target(origin + (first + k) * dir, b1);
    }
}
