// sliding_common.glsl: running box sums along a line (a sliding window: add the entering texel,
// subtract the leaving one), shared by compute-sliding, compute-sliding-inline and compute-scan.
// Include it after blur_common.glsl, source_image.glsl and target_image.glsl.
// Defines from the host (src/variants/sliding.h):
//   EXACT        1: rgba8 input, every texel read becomes an integer and sums are uint (exact;
//                   a modular wrap of a difference cancels); 0: fp32 sums
//   IN_SCALE     EXACT: the texel read times IN_SCALE is an integer (255 for unorm8)
//   OUT_WEIGHTS  factors of the box weight 1/(2r+1) a stored sum takes (0: raw sums)
//   OUT_UNIT     the value of one integer step of the sum (1.0 for fp32 sums and raw sums)
//   SLIDE_RADIUS the window's radius (default RADIUS), with SLIDE_BOX_WEIGHT its box weight
//                1/(2 SLIDE_RADIUS + 1) (default tap_weight(0) of the weights block): box-iterated
//                slides boxes of other radii than the request's, given per pass (u_pass)
//   BORDER_VALUE_SCALE  (blur_common.glsl) where the source holds raw sums: the constant border
//                as such a sum holds it, 2r+1 constant texels (times 255 when EXACT)
//   SLIDE_EMIT_CUSTOM  defined by a shader that defines emit() itself (else: store_target)
//   SLIDE_TRANSPOSE    (optional) line_pass() stores the output of texel (x, y) at (y, x)
//   SLIDE_PACKED       (optional, EXACT, with SOURCE_RAW and TARGET_RAW, rgba8 source and target)
//                      texels read as their bits, summed two channels a word, outputs rounded here
//   STORE_STEPS  (optional) the destination's steps per unit (255.0 for rgba8): from_acc rounds to
//                them itself. GL converts a float to unorm as either of the two nearest steps (it
//                only "should" round to nearest, GL 4.6 section 2.3.5.1), so a pass whose CPU model
//                predicts each stored step (box-iterated's rgba8 intermediates) stores whole steps,
//                which every conversion keeps.

#ifndef SLIDE_RADIUS
#define SLIDE_RADIUS RADIUS
#endif
#ifdef SLIDE_BOX_WEIGHT
float box_weight() { return SLIDE_BOX_WEIGHT; }
#else
float box_weight() { return tap_weight(0); }
#endif

#ifdef SLIDE_PACKED
// rgba8 texels moved as their bits (the source and the target bound raw): a texel is two 16-bit
// fields a word, (r | b << 16, g | a << 16), the sums too. A window of 2r + 1 <= 257 bytes sums to
// at most 65535, so each field holds its true sum; a borrow between the fields while a difference
// is negative cancels modulo 2^32, as the sum is exact again once added.
#define ACC uvec2
ACC to_acc_bits(uint t) { return uvec2(t & 0x00FF00FFu, (t >> 8) & 0x00FF00FFu); }
#elif EXACT
#define ACC uvec4
ACC to_acc(vec4 v) { return uvec4(round(v * IN_SCALE)); }
#else
#define ACC vec4
ACC to_acc(vec4 v) { return v; }
#endif

#ifdef SLIDE_PACKED
// A window sum as the rgba8 bits of its average, rounded to the nearest step exactly: s / (2r + 1)
// is never a half step (the divisor is odd), and is at least 1 / (2 (2r + 1)) >= 2^-9 from one,
// far more than fp32's error on s * box_weight() (s < 2^16: under 2^-15).
uint average_bits(ACC sum) {
  uvec4 s = uvec4(sum.x & 0xFFFFu, sum.y & 0xFFFFu, sum.x >> 16, sum.y >> 16);  // r, g, b, a
  uvec4 q = uvec4(vec4(s) * box_weight() + 0.5);
  return q.x | q.y << 8 | q.z << 16 | q.w << 24;
}
#else
// A sum as a texel value: times the box weight (from the weights block) OUT_WEIGHTS times.
vec4 from_acc(ACC sum) {
  float w = box_weight();
  float scale = (OUT_WEIGHTS == 0 ? 1.0 : OUT_WEIGHTS == 1 ? w : w * w) * OUT_UNIT;
#ifdef STORE_STEPS
  return floor(vec4(sum) * scale * STORE_STEPS + 0.5) / STORE_STEPS;
#else
  return vec4(sum) * scale;
#endif
}
#endif

// A line of texels origin + i * dir, i in [0, len); the origin may lie outside the image (a row
// above it). Every read follows the border rule (source_texel), so the running sums slide over
// the extended line, whatever the mode.
struct Line {
  ivec2 origin;
  ivec2 dir;
  int len;
};

#ifdef SLIDE_PACKED
ACC load_line(Line line, int i) { return to_acc_bits(source_bits(line.origin + i * line.dir).x); }
#else
ACC load_line(Line line, int i) { return to_acc(source_texel(line.origin + i * line.dir)); }
#endif

// The window sum just before `start`, i.e. centred on start - 1: texels start-1-r .. start-1+r,
// WARMUP_UNROLL loads at a time (default UNROLL; a shader may group more: the warm-up's loads
// are independent, only their adds chain).
#ifndef WARMUP_UNROLL
#define WARMUP_UNROLL UNROLL
#endif
ACC window_before(Line line, int start) {
  int taps = 2 * SLIDE_RADIUS + 1;
  ACC sum = ACC(0);
  for (int base = 0; base < taps; base += WARMUP_UNROLL) {
    ACC texel[WARMUP_UNROLL];
    for (int u = 0; u < WARMUP_UNROLL; ++u) texel[u] = load_line(line, start - SLIDE_RADIUS - 1 + base + u);
    for (int u = 0; u < WARMUP_UNROLL; ++u)
      if (base + u < taps) sum += texel[u];
  }
  return sum;
}

// Output k of a slide, the window sum centred on texel p of the line.
void emit(ivec2 p, int k, ACC sum);

// Slides the window over texels start .. start+count-1 of the line, from `sum`, the window
// centred on start - 1. Each step adds the texel entering at +r and subtracts the one leaving at
// -r-1, UNROLL steps per iteration with their loads grouped (reads past the stretch follow the
// border rule and are unused). With `outputs`, emits every window sum; returns the last one. From sum = 0 and without
// outputs it returns the change of the window over the stretch.
ACC slide(Line line, int start, int count, ACC sum, bool outputs) {
  for (int base = 0; base < count; base += UNROLL) {
    ACC change[UNROLL];
    for (int u = 0; u < UNROLL; ++u) change[u] = load_line(line, start + base + u + SLIDE_RADIUS);
    for (int u = 0; u < UNROLL; ++u) change[u] -= load_line(line, start + base + u - SLIDE_RADIUS - 1);
    for (int u = 0; u < UNROLL; ++u) {
      int k = base + u;
      if (k < count) {
        sum += change[u];
        if (outputs) emit(line.origin + (start + k) * line.dir, k, sum);
      }
    }
  }
  return sum;
}

#ifndef SLIDE_EMIT_CUSTOM
// SLIDE_TRANSPOSE: the output of texel p goes to p.yx of a transposed target.
#ifdef SLIDE_TRANSPOSE
ivec2 stored_at(ivec2 p) { return p.yx; }
#else
ivec2 stored_at(ivec2 p) { return p; }
#endif
#ifdef SLIDE_PACKED
void emit(ivec2 p, int k, ACC sum) { store_target_bits(stored_at(p), uvec4(average_bits(sum), 0u, 0u, 0u)); }
#else
void emit(ivec2 p, int k, ACC sum) { store_target(stored_at(p), from_acc(sum)); }
#endif

// A whole pass of running sums along lines: rows (AXIS 0) or columns (AXIS 1). One invocation
// per segment of SEGMENT texels of a line; it warms its window up at the segment start (2r+1
// reads), then slides. Adjacent invocations take adjacent lines, so their reads and writes at
// each step are neighbours. The workgroup grid is flattened (see sliding::flat_groups).
void line_pass() {
  ivec2 size = source_size();
  Line line;
  line.dir = AXIS == 0 ? ivec2(1, 0) : ivec2(0, 1);
  line.len = AXIS == 0 ? size.x : size.y;
  int lines = AXIS == 0 ? size.y : size.x;
  int group = int(gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x);
  int index = group * (WG_X * WG_Y) + int(gl_LocalInvocationIndex);
  int l = index % lines, start = (index / lines) * SEGMENT;
  if (start >= line.len) return;  // past the last segment; no barrier in this pass
  line.origin = AXIS == 0 ? ivec2(0, l) : ivec2(l, 0);
  slide(line, start, min(SEGMENT, line.len - start), window_before(line, start), true);
}
#endif
