// box_walk.glsl: a cascade of box blurs along lines (rows, AXIS 0, or columns, AXIS 1) in one pass,
// from tiles in shared memory; shared by compute-sliding-tiles (one box per axis) and
// box-iterated (three). Include it after blur_common.glsl, source_image.glsl and
// target_image.glsl with TARGET_RAW (outputs are stored as their bits); main() calls box_walk().
// (The host side: src/variants/box_walk.h.)
//
// A workgroup owns a tile: LINES lines by a segment of CHUNKS x CHAINS x CHUNK outputs along them. It loads
// the segment and its apron (REACH + ORDER texels before it, REACH after) through the border rule
// into shared memory once (as their bits where it can), LOADS texels per invocation in flight, with
// neighbouring invocations on neighbouring texels (columns: LINES neighbouring columns fill a
// 32-byte sector). Then each invocation walks CHAINS chunks of one line side by side (chunks c,
// c + CHUNKS, ...: independent recursions interleaved step by step, so one invocation has CHAINS
// dependency chains in flight and the start's weights are read once for all of them): it computes
// each chunk's cascade state just before the chunk directly from the tile (no walk from the
// segment's start), then runs the cascade's recursion over the chunks, two loads per box from
// shared memory per output. Every chunk walks all CHUNK steps (the tile holds the border rule's
// texels past the line's end), only the outputs inside the image are stored. Columns
// store their outputs directly (the LINES lines of a tile are neighbours); rows pass them through
// shared memory first, so that neighbouring invocations store neighbouring texels.
//
// The cascade of ORDER boxes of radii r_k is the kernel K = B_1 * ... * B_ORDER of reach
// REACH = sum r_k and sum W = prod (2 r_k + 1). Its ORDER-th difference is sparse:
//   (1 - z^-1)^ORDER K = prod (z^r_k - z^(-r_k - 1)),
// TAPS taps x[i + TAP_OFFSET] times TAP_COEF (2 for one box, 8 or fewer for three). So the output
// y = K * x and its differences D1 y = y[i] - y[i-1], D2 y = D1 y[i] - D1 y[i-1] follow
//   D2 y[i] = D2 y[i-1] + (taps at i),  D1 y[i] = D1 y[i-1] + D2 y[i],  y[i] = y[i-1] + D1 y[i],
// a running sum of a running sum of a running sum (one running sum for one box). The state before
// a chunk, (y, D1 y, D2 y) at c0 - 1, are dot products of the texels with K and its differences
// (BW_WEIGHTS, from the host: 2 REACH + ORDER integers each); one box's, its window sum, is made
// of the tile's block sums (block_sums()). Each value keeps its own magnitude
// (y up to W, D1 y up to W / (2r + 1), D2 y a few box heights), so fp32 sums round relative to
// those: the recursion stays as accurate as a running sum.
//
// EXACT (rgba8 input): every value is an integer and every sum is modulo 2^32, which is exact
// while the true result fits: y <= 255 W (times the fixed-point scale below) < 2^32 (the host
// checks). rgba8 texels are read as two 16-bit fields per word, (r | b << 16, g | a << 16): one
// box's sums fit 16 bits (255 (2r + 1) <= 65535 for r <= 128), and a borrow between the fields
// cancels modulo 2^32; three boxes' sums take a word per channel. An rgba8 output is rounded here,
// exactly: (y + W/2) / W in integers. Float texels of an rgba8 input's intermediate are read as
// fixed point, round(v F) with F = BW_FIXED (at most 2^15, so two 16-bit fields a word in the tile).
// Float input (EXACT 0): fp32 sums.
//
// Defines from the host (src/variants/box_walk.h):
//   AXIS                  0: rows, 1: columns
//   BW_LINES, BW_CHUNKS   the tile's lines and chunks per line: one invocation per chunk
//   BW_INVOCATIONS        their product
//   BW_CHUNK              outputs per chunk (odd: the chunks of a warp read distinct banks)
//   BW_CHAINS             chunks one invocation walks side by side
//   BW_ORDER, BW_REACH    boxes in the cascade and the sum of their radii
//   BW_TAPS, BW_TAP_OFFSETS, BW_TAP_COEFS   the ORDER-th difference's taps
//   BW_WEIGHTS            ORDER 3: K, D1 K and D2 K at offsets -REACH - 2 .. REACH, one after another
//   BW_DIVISOR            W, the kernel's sum
//   BW_SOURCE             the tile's texels: 0 rgba8 bits, 1 fixed point (EXACT, a float source),
//                         2 fp16 bits, 3 fp32 bits; all but 1 with SOURCE_RAW (source_image.glsl)
//   BW_FIXED              BW_SOURCE 1: the fixed-point scale F
//   BW_UNIT               EXACT into a float destination: 1 / (W x the source's scale), a float
//   BW_STEP_UNIT          EXACT from fixed point into rgba8: 255 / (W F), a float
//   BW_STAGE_OUT          1: outputs pass through shared memory (rows)

const int LINES = BW_LINES, CHUNKS = BW_CHUNKS, CHUNK = BW_CHUNK, ORDER = BW_ORDER, REACH = BW_REACH;
const int CHAINS = BW_CHAINS;
const int N = LINES * CHUNKS;
const int SEGMENT_LEN = CHUNKS * CHAINS * CHUNK;
const int EXTENT = SEGMENT_LEN + 2 * REACH + ORDER;  // tile positions per line
const int TAP_OFFSET[BW_TAPS] = int[](BW_TAP_OFFSETS);
const int TAP_COEF[BW_TAPS] = int[](BW_TAP_COEFS);
const int LOADS = 16;  // texels each invocation loads before storing them in the tile (in flight)

layout(local_size_x = BW_INVOCATIONS) in;  // LINES x CHUNKS, as a literal (GLSL 4.30)

// The tile: position t (from the segment's origin, REACH + ORDER before its first output) of line
// ln in plane w at [w * PLANE + t * LINES + ln].
#if BW_SOURCE == 0
const int WORDS = 1;
#elif BW_SOURCE == 3
const int WORDS = 4;
#else
const int WORDS = 2;
#endif
const int PLANE = LINES * EXTENT;
shared uint s_tile[WORDS * PLANE];

#ifdef SOURCE_RAW
// rgba8, fp16 and fp32 texels are held as their bits (BW_SOURCE 0, 2, 3; the source bound raw).
#define LOADED uvec4
LOADED load_texel(ivec2 p) { return source_bits(p); }
void put_texel(int index, uvec4 bits) {
  for (int w = 0; w < WORDS; ++w) s_tile[w * PLANE + index] = bits[w];
}
#else
// Fixed point (BW_SOURCE 1): v in [0, 1], round(v F) at most 2^15, two channels a word.
#define LOADED vec4
LOADED load_texel(ivec2 p) { return source_texel(p); }
void put_texel(int index, vec4 v) {
  uvec4 f = uvec4(roundEven(v * BW_FIXED));
  s_tile[index] = f.x | f.y << 16;
  s_tile[PLANE + index] = f.z | f.w << 16;
}
#endif

// FIELD: a texel, or a sum of texels, as the sums take it. ACC: the cascade's state.
#if BW_SOURCE == 0
#define FIELD uvec2
FIELD tap_at(int index) {
  uint t = s_tile[index];
  return uvec2(t & 0x00FF00FFu, (t >> 8) & 0x00FF00FFu);
}
// Fields holding non-negative values below 2^16, or (signed) values of magnitude below 2^15.
uvec4 widen(FIELD f) { return uvec4(f & 0xFFFFu, f >> 16); }  // (r, g), (b, a)
uvec4 widen_signed(FIELD f) {
  ivec2 low = ivec2(f << 16) >> 16, high = (ivec2(f) - low) >> 16;
  return uvec4(ivec4(low, high));
}
#elif BW_SOURCE == 1
#define FIELD uvec4
FIELD tap_at(int index) {
  uint a = s_tile[index], b = s_tile[PLANE + index];
  return uvec4(a & 0xFFFFu, a >> 16, b & 0xFFFFu, b >> 16);
}
uvec4 widen(FIELD f) { return f; }
uvec4 widen_signed(FIELD f) { return f; }
#elif BW_SOURCE == 2
#define FIELD vec4
FIELD tap_at(int index) { return vec4(unpackHalf2x16(s_tile[index]), unpackHalf2x16(s_tile[PLANE + index])); }
#else
#define FIELD vec4
FIELD tap_at(int index) {
  vec4 v;
  for (int w = 0; w < 4; ++w) v[w] = uintBitsToFloat(s_tile[w * PLANE + index]);
  return v;
}
#endif
#if EXACT
#define ACC uvec4
#else
#define ACC vec4
vec4 widen(vec4 f) { return f; }
vec4 widen_signed(vec4 f) { return f; }
#endif
#if EXACT
#define COEF(c) uint(c)  // modulo 2^32
#else
#define COEF(c) float(c)
#endif

// The bits an output of sum y stores (the destination is bound raw, TARGET_RAW).
uvec4 output_bits(ACC y) {
#if EXACT && DST_BYTES == 4
#if BW_SOURCE == 0
  uvec4 q = (y + uint(BW_DIVISOR / 2)) / uint(BW_DIVISOR);  // the nearest step, exactly (W is odd: no ties)
#else
  uvec4 q = uvec4(floor(vec4(y) * BW_STEP_UNIT + 0.5));
#endif
  return uvec4(q.x | q.y << 8 | q.z << 16 | q.w << 24, 0u, 0u, 0u);
#else
#if EXACT
  return texel_bits(vec4(y) * BW_UNIT, DST_BYTES);
#else
  return texel_bits(y * (1.0 / float(BW_DIVISOR)), DST_BYTES);
#endif
#endif
}

int g_origin;  // the tile's position 0 along the line
int g_line;    // this invocation's line in the tile
int tile_index(int p) { return (p - g_origin) * LINES + g_line; }
ivec2 position(int line, int p) { return AXIS == 0 ? ivec2(p, line) : ivec2(line, p); }

// The taps of the ORDER-th difference at output i.
FIELD taps(int i) {
  int base = tile_index(i);
  FIELD d = FIELD(0);
  for (int t = 0; t < BW_TAPS; ++t) d += COEF(TAP_COEF[t]) * tap_at(base + TAP_OFFSET[t] * LINES);
  return d;
}

#if BW_STAGE_OUT
const int OUT_WORDS = DST_BYTES / 4;
const int OUT_PLANE = LINES * SEGMENT_LEN;
shared uint s_out[OUT_WORDS * OUT_PLANE];  // [w * OUT_PLANE + line * SEGMENT_LEN + k]
#endif

int g_segment_start;  // the first output of the tile along the line
int g_line0;          // the tile's first line
bool g_inside;        // this invocation's line is inside the image
int g_len;            // the line's length
void emit(int i, ACC y) {
  uvec4 bits = output_bits(y);
#if BW_STAGE_OUT
  for (int w = 0; w < OUT_WORDS; ++w) s_out[w * OUT_PLANE + g_line * SEGMENT_LEN + i - g_segment_start] = bits[w];
#else
  if (g_inside && i < g_len) store_target_bits(position(g_line0 + g_line, i), bits);
#endif
}

#if BW_ORDER == 3
// The start's weights: K, D1 K, D2 K at offsets -REACH - 2 .. REACH (global: a constant table).
// Whole numbers, held as uint (modulo 2^32) on every path; the float path reads each back as a
// signed whole number, exact in fp32 (below 2^24).
const int SPAN = 2 * REACH + ORDER;
const uint WEIGHT[3 * SPAN] = uint[](BW_WEIGHTS);
#if EXACT
#define STATE_WEIGHT(k) ACC(WEIGHT[k])
#else
#define STATE_WEIGHT(k) ACC(float(int(WEIGHT[k])))
#endif
#endif

#if BW_ORDER == 1
// One box: the tile cut into blocks of CHUNK positions (block b: tile positions b CHUNK .. b CHUNK +
// CHUNK - 1), each summed once (every invocation of a line a few), so that the window sum before a
// chunk is Q whole blocks and a partial one: Q + PARTIAL < (2 REACH + 1) / CHUNK + CHUNK loads from
// shared memory, not 2 REACH + 1. Chunk m's window, tile positions m CHUNK .. m CHUNK + 2 REACH,
// starts at block m. Sums of at most 2 REACH + 1 texels fit the 16-bit fields (REACH <= 128).
const int BLOCKS = (EXTENT + CHUNK - 1) / CHUNK;
const int Q = (2 * REACH + 1) / CHUNK, PARTIAL = 2 * REACH + 1 - Q * CHUNK;
shared FIELD s_block[LINES * BLOCKS];
void block_sums(int lane) {
  int line = lane % LINES;
  for (int b = lane / LINES; b < BLOCKS; b += CHUNKS) {
    FIELD sum = FIELD(0);
    int p0 = b * CHUNK;
    for (int k = 0; k < CHUNK; ++k)
      if (p0 + k < EXTENT) sum += tap_at((p0 + k) * LINES + line);
    s_block[b * LINES + line] = sum;
  }
}
#endif

// Walks the CHAINS chunks of this invocation's line that start at c0, c0 + CHUNKS x CHUNK, ...,
// side by side (the loops over the chains have constant bounds: unrolled, their state in registers).
void walk(int c0) {
  const int STRIDE = CHUNKS * CHUNK;
#if BW_ORDER == 1
  // The window sums before the chunks (K = 1 at every offset): Q blocks and PARTIAL texels; then
  // the running sums.
  FIELD y[CHAINS];
  for (int j = 0; j < CHAINS; ++j) y[j] = FIELD(0);
  int m0 = (c0 - g_segment_start) / CHUNK;  // the first chunk's block
  for (int q = 0; q < Q; ++q)
    for (int j = 0; j < CHAINS; ++j) y[j] += s_block[(m0 + j * CHUNKS + q) * LINES + g_line];
  int first = tile_index(c0 - 1 - REACH) + Q * CHUNK * LINES;
  for (int q = 0; q < PARTIAL; ++q)
    for (int j = 0; j < CHAINS; ++j) y[j] += tap_at(first + (j * STRIDE + q) * LINES);
  for (int k = 0; k < CHUNK; ++k)
    for (int j = 0; j < CHAINS; ++j) {
      int i = c0 + j * STRIDE + k;
      y[j] += taps(i);
      emit(i, ACC(widen(y[j])));
    }
#else
  // (y, D1 y, D2 y) at c0 - 1: weights at offsets -REACH - 2 .. REACH, i.e. texels c0 - REACH - 3 ..
  ACC y[CHAINS], d1[CHAINS], d2[CHAINS];
  for (int j = 0; j < CHAINS; ++j) {
    y[j] = ACC(0);
    d1[j] = ACC(0);
    d2[j] = ACC(0);
  }
  int first = tile_index(c0 - REACH - 3);
  for (int q = 0; q < SPAN; ++q) {
    ACC w0 = STATE_WEIGHT(q), w1 = STATE_WEIGHT(SPAN + q), w2 = STATE_WEIGHT(2 * SPAN + q);
    for (int j = 0; j < CHAINS; ++j) {
      ACC t = ACC(widen(tap_at(first + (j * STRIDE + q) * LINES)));
      y[j] += w0 * t;
      d1[j] += w1 * t;
      d2[j] += w2 * t;
    }
  }
  for (int k = 0; k < CHUNK; ++k)
    for (int j = 0; j < CHAINS; ++j) {
      int i = c0 + j * STRIDE + k;
      d2[j] += ACC(widen_signed(taps(i)));
      d1[j] += d2[j];
      y[j] += d1[j];
      emit(i, y[j]);
    }
#endif
}

void box_walk() {
  ivec2 size = source_size();
  int len = AXIS == 0 ? size.x : size.y, lines = AXIS == 0 ? size.y : size.x;
  int lane = int(gl_LocalInvocationIndex);
  g_segment_start = int(gl_WorkGroupID.x) * SEGMENT_LEN;
  g_line0 = int(gl_WorkGroupID.y) * LINES;
  g_origin = g_segment_start - REACH - ORDER;

  // The tile, LOADS texels in flight per invocation; lines past the image read valid texels
  // (the border rule), unused.
  for (int base = 0; base < PLANE; base += N * LOADS) {
    LOADED v[LOADS];
    for (int u = 0; u < LOADS; ++u) {
      int f = base + u * N + lane;
      v[u] = load_texel(position(g_line0 + f % LINES, g_origin + f / LINES));
    }
    for (int u = 0; u < LOADS; ++u)
      if (base + u * N + lane < PLANE) put_texel(base + u * N + lane, v[u]);
  }
  memoryBarrierShared();
  barrier();

#if BW_ORDER == 1
  block_sums(lane);
  memoryBarrierShared();
  barrier();
#endif

  g_line = lane % LINES;
  g_inside = g_line0 + g_line < lines;
  g_len = len;
  walk(g_segment_start + lane / LINES * CHUNK);  // no barrier inside: invocations may leave it apart

#if BW_STAGE_OUT
  memoryBarrierShared();
  barrier();
  for (int u = 0; u < (OUT_PLANE + N - 1) / N; ++u) {  // a constant count: the loads may go ahead
    int f = u * N + lane;
    int line = g_line0 + f / SEGMENT_LEN, p = g_segment_start + f % SEGMENT_LEN;
    if (f < OUT_PLANE && line < lines && p < len) {
      uvec4 bits = uvec4(0u);
      for (int w = 0; w < OUT_WORDS; ++w) bits[w] = s_out[w * OUT_PLANE + f];
      store_target_bits(position(line, p), bits);
    }
  }
#endif
}
