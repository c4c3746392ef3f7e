#version 430 core
// recursive-gaussian-blocks: the recursive filter of recursive-gaussian along AXIS (0 = rows,
// 1 = columns), each line split into BLOCKS blocks of BLOCK texels, one invocation per block
// (Nehab et al. 2011; src/variants/recursive_gaussian_blocks.cpp). Per direction: each block
// filtered from a zero state (the first block from the line's true start state), a scan of the
// block-end states across the line (s_k = A s_k-1 + f_k, A the transition over one block), then
// each block filtered again from its true initial state. The block stays in registers throughout,
// as bits: the input (the source's format), then the causal output (the intermediate's format:
// it is rounded there, as recursive-gaussian's scratch texture rounds it), then the output (the
// destination's format). Each line is read once and written once.
//
// Memory access: a row's blocks are consecutive texels, so the rows pass loads and stores through
// shared memory (ROUND texels at a time, neighbouring invocations on neighbouring texels). The
// columns pass puts LINES neighbouring columns side by side in a workgroup (the line index
// fastest), so that each of a block's loads and stores covers LINES neighbouring texels of a row:
// a 32-byte sector.
//
// Defines:
//   RG_P, RG_G1           first-order section u = RG_G1 x + RG_P u[-1]
//   RG_C1, RG_C2, RG_G2   second-order section v = RG_G2 u + RG_C1 v[-1] + RG_C2 v[-2]
//   RG_M                  the right border's 3x3 matrix, row-major
//   BLOCK, BLOCKS, LINES  texels per block, blocks per line (ceil(length / BLOCK)), lines per workgroup
//   SCAN_STEPS, RG_CARRY  the scan's steps, ceil(log2(BLOCKS)), and A^(2^i), i < SCAN_STEPS, row-major
//   CAUSAL_BYTES          the intermediate's bytes per texel: the causal output's format
//   ROUND                 rows: texels staged through shared memory at a time
// The block must stay in registers: NVIDIA's compiler left the loops over the block rolled at
// BLOCK = 16 (in local memory, several times slower than unrolled). Other compilers
// ignore the pragma (GLSL 4.30, section 3.3).
#pragma optionNV(unroll all)
#include "blur_common.glsl"
#define SOURCE_RAW
#define TARGET_RAW
#include "source_image.glsl"
#include "target_image.glsl"

#if AXIS == 0
layout(local_size_x = BLOCKS) in;
#define BLOCK_ID int(gl_LocalInvocationID.x)
#define LINE_ID 0
#else
layout(local_size_x = LINES, local_size_y = BLOCKS) in;
#define BLOCK_ID int(gl_LocalInvocationID.y)
#define LINE_ID int(gl_LocalInvocationID.x)
#endif

const float P = RG_P, G1 = RG_G1, C1 = RG_C1, C2 = RG_C2, G2 = RG_G2;
const float M[9] = float[](RG_M);
const float CARRY[] = float[](RG_CARRY);  // 9 zeros when SCAN_STEPS is 0

// A texel as bits in `bytes / 4` words (rgba8: 1, rgba16f: 2, rgba32f: 4; texel_bits()).
const int SRC_WORDS = SRC_BYTES / 4, CAUSAL_WORDS = CAUSAL_BYTES / 4, DST_WORDS = DST_BYTES / 4;
const int WORDS = max(max(SRC_WORDS, CAUSAL_WORDS), DST_WORDS);  // a register slot's words

// The block: texel k's words at block[k * WORDS + w].
uint block[BLOCK * WORDS];
uvec4 bits(int k) {
  uvec4 w = uvec4(0u);
  for (int i = 0; i < WORDS; ++i) w[i] = block[k * WORDS + i];
  return w;
}
vec4 get(int k, int bytes) { return bits_texel(bits(k), bytes); }
void set(int k, vec4 v, int bytes) {
  uvec4 w = texel_bits(v, bytes);
  for (int i = 0; i < WORDS; ++i) block[k * WORDS + i] = w[i];
}

// The block states (3 per block: u, v[n], v[n-1] causal; a, b[n], b[n+1] anticausal) of the scan.
shared vec4 s_state[3 * LINES * BLOCKS];
#if AXIS == 0
shared uint s_stage[ROUND * WORDS];  // [w * ROUND + i]: texel i of a round
const int LOADS = 8;                 // texels each invocation loads before storing them (in flight)
#endif

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
void scan(int slot, int block_id, int step, inout vec4 s0, inout vec4 s1, inout vec4 s2) {
  s_state[slot] = s0;
  s_state[slot + 1] = s1;
  s_state[slot + 2] = s2;
  memoryBarrierShared();
  barrier();
  for (int i = 0; i < SCAN_STEPS; ++i) {
    int d = 1 << i, from = block_id - step * d;
    bool take = from >= 0 && from < BLOCKS;
    vec4 t0 = vec4(0.0), t1 = vec4(0.0), t2 = vec4(0.0);
    if (take) {
      int other = slot - 3 * step * d * LINES;
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
  // Rows: a workgroup per row. Columns: LINES neighbouring columns per workgroup.
  int group = int(gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x);
  int block_id = BLOCK_ID, l = group * LINES + LINE_ID, first = block_id * BLOCK;
  // Texels of this block in the line: BLOCK, fewer in the last block, none past the line's end or
  // in a line past the image (such invocations still reach every barrier).
  int count = l < lines ? clamp(len - first, 0, BLOCK) : 0;
  bool holds_end = count > 0 && first + count == len;
  ivec2 origin = AXIS == 0 ? ivec2(0, l) : ivec2(l, 0), dir = AXIS == 0 ? ivec2(1, 0) : ivec2(0, 1);
  int slot = 3 * (block_id * LINES + LINE_ID);
  int lane = int(gl_LocalInvocationIndex);

  for (int k = 0; k < BLOCK * WORDS; ++k) block[k] = 0u;
#if AXIS == 0
  // The row through shared memory, a round at a time: loads of neighbouring texels, then each
  // block takes its own (BLOCK is odd: a warp's blocks read distinct banks).
  for (int r0 = 0; r0 < len; r0 += ROUND) {
    for (int base = lane; base < ROUND; base += BLOCKS * LOADS) {
      uint bits[LOADS * SRC_WORDS];  // loads in flight before their stores
      for (int u = 0; u < LOADS; ++u) {
        uvec4 t = source_bits(origin + (r0 + base + u * BLOCKS) * dir);  // past the end: a valid read, unused
        for (int w = 0; w < SRC_WORDS; ++w) bits[u * SRC_WORDS + w] = t[w];
      }
      for (int u = 0; u < LOADS; ++u)
        if (base + u * BLOCKS < ROUND)
          for (int w = 0; w < SRC_WORDS; ++w) s_stage[w * ROUND + base + u * BLOCKS] = bits[u * SRC_WORDS + w];
    }
    memoryBarrierShared();
    barrier();
    for (int k = 0; k < BLOCK; ++k) {
      int i = first + k - r0;
      if (k < count && i >= 0 && i < ROUND)
        for (int w = 0; w < SRC_WORDS; ++w) block[k * WORDS + w] = s_stage[w * ROUND + i];
    }
    memoryBarrierShared();  // the next round overwrites s_stage
    barrier();
  }
#else
  for (int k = 0; k < BLOCK; ++k)
    if (k < count) {
      uvec4 bits = source_bits(origin + (first + k) * dir);
      for (int w = 0; w < SRC_WORDS; ++w) block[k * WORDS + w] = bits[w];
    }
#endif

  // Causal. The first block starts from the line's true state: to the left the line repeats its
  // first texel, on which the filter (unit gain at DC) has settled; the others from 0.
  vec4 left = get(0, SRC_BYTES);
  vec4 u = vec4(0.0), v1 = vec4(0.0), v2 = vec4(0.0);
  if (block_id == 0) u = v1 = v2 = left;
  for (int k = 0; k < BLOCK; ++k)
    if (k < count) filter_step(get(k, SRC_BYTES), u, v1, v2);
  scan(slot, block_id, 1, u, v1, v2);
  // The true state before this block: the previous block's end after the scan.
  if (block_id == 0) {
    u = v1 = v2 = left;
  } else {
    u = s_state[slot - 3 * LINES];
    v1 = s_state[slot - 3 * LINES + 1];
    v2 = s_state[slot - 3 * LINES + 2];
  }
  memoryBarrierShared();  // the anticausal scan overwrites s_state
  barrier();
  vec4 last = vec4(0.0);
  for (int k = 0; k < BLOCK; ++k)
    if (k < count) {
      last = get(k, SRC_BYTES);
      filter_step(last, u, v1, v2);
      set(k, v1, CAUSAL_BYTES);  // the causal output replaces the input, rounded to the intermediate's format
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
    if (k < count) filter_step(get(k, CAUSAL_BYTES), a, b1, b2);
  scan(slot, block_id, -1, a, b1, b2);
  if (holds_end) {
    a = end_a;
    b1 = end_b1;
    b2 = end_b2;
  } else if (block_id + 1 < BLOCKS) {
    a = s_state[slot + 3 * LINES];
    b1 = s_state[slot + 3 * LINES + 1];
    b2 = s_state[slot + 3 * LINES + 2];
  }
  for (int k = BLOCK - 1; k >= 0; --k)
    if (k < count) {
      filter_step(get(k, CAUSAL_BYTES), a, b1, b2);
      set(k, b1, DST_BYTES);
#if AXIS == 1
      store_target_bits(origin + (first + k) * dir, bits(k));
#endif
    }

#if AXIS == 0
  // The output row through shared memory, a round at a time.
  for (int r0 = 0; r0 < len; r0 += ROUND) {
    memoryBarrierShared();  // the previous round's stores have read s_stage
    barrier();
    for (int k = 0; k < BLOCK; ++k) {
      int i = first + k - r0;
      if (k < count && i >= 0 && i < ROUND)
        for (int w = 0; w < DST_WORDS; ++w) s_stage[w * ROUND + i] = block[k * WORDS + w];
    }
    memoryBarrierShared();
    barrier();
    if (l < lines)
      for (int i = lane; i < ROUND && r0 + i < len; i += BLOCKS) {
        uvec4 w = uvec4(0u);
        for (int j = 0; j < DST_WORDS; ++j) w[j] = s_stage[j * ROUND + i];
        store_target_bits(origin + (r0 + i) * dir, w);
      }
  }
#endif
}
