// regblock_common.glsl: register-blocked line sums (compute-inline-regblock,
// compute-strip-regblock). Include after
// blur_common.glsl and lds_common.glsl, once per line-sum function, with
//   RB_K         outputs per line segment (a compile-time constant)
//   RB_LINE_SUM  the name of the function this inclusion defines
//   RB_BOX       1: box kernel, running sums; 0: weighted taps
// The helpers shared by all inclusions are declared by the first one.
//
// A line segment is K consecutive outputs of one line (a row of the source image, or a column of
// the shared-memory cache): out[k] = sum over j = 0..2r of w(j - r) * in[k + j], k = 0..K-1, from
// its K + 2r inputs in[0 .. K+2r-1]. Each input is read ONCE and used for every output whose
// window holds it, so a segment costs (K + 2r) / K reads per output instead of 2r + 1. All loop
// bounds are compile-time (RADIUS, RB_K), so compilers unroll the short loops and keep out[] in
// registers.
//
// With STREAM_TAPS = 1 (the knob `taps`, streamed) the weighted taps of the middle of the window
// go through a loop that stays a loop, a block of RB_STREAM_INPUTS inputs per iteration, instead
// of being unrolled whole: at r = 90 the unrolled sums are thousands of instructions, which the
// compiler then leaves as loops that index the weights (and a constant weight array lands in
// local memory, many times slower). Streamed, each iteration reads its inputs and the
// vec4s of weights its taps need from the uniform block by a run-time index, and everything
// indexed inside it is a compile-time constant.

#ifndef RB_SHARED_DECLARED
#define RB_SHARED_DECLARED

const int RB_TAPS = 2 * RADIUS + 1;
#ifndef STREAM_TAPS
#define STREAM_TAPS 0
#endif
// Inputs per iteration of the streamed loop: a multiple of 4, so that each iteration's first tap,
// b * RB_STREAM_INPUTS, starts a vec4 of the uniform block's weights.
const int RB_STREAM_INPUTS = 8;

// Where a segment's inputs are: row start.y of the source from column start.x (the border rule
// applied wherever they lie outside), or the cache (lds_common.glsl) at
// base + i * stride, wrapping around at `wrap` elements when it is above 0 (a ring of rows).
// `from_image` is a constant at every call, so the branch folds away.
struct RbLine {
  bool from_image;
  ivec2 start;
  int base;
  int stride;
  int wrap;
};

vec4 rb_input(RbLine line, int i) {
  if (!line.from_image) {
    int at = line.base + i * line.stride;
    if (line.wrap > 0 && at >= line.wrap) at -= line.wrap;
    return lds_load(at);
  }
  return source_texel(line.start + ivec2(i, 0));
}

// Reads input i of `line` (a compile-time constant once the loops are unrolled) and adds it to
// every output k of `acc` whose window holds it (0 <= i - k <= 2r), at tap i - k; the conditions
// fold away.
#define RB_SCATTER(acc, line, i)                                                         \
  {                                                                                      \
    vec4 x = rb_input(line, i);                                                          \
    for (int k = 0; k < RB_K; ++k)                                                       \
      if ((i) - k >= 0 && (i) - k < RB_TAPS) acc[k] += tap_weight((i) - k - RADIUS) * x; \
  }

#endif  // RB_SHARED_DECLARED

// The K outputs of one line segment.
void RB_LINE_SUM(RbLine line, out vec4 acc[RB_K]) {
  const int inputs = RB_K + 2 * RADIUS;
#if RB_BOX
  // A running sum: out[0] sums in[0 .. 2r]; out[k] = out[k-1] + in[k+2r] - in[k-1]. The inputs
  // that leave the window, in[0 .. K-2], are kept in registers when they are read (in the first
  // sum, or for small r during the slide). The sums are scaled once by w(0) = 1/(2r+1).
  const int kept = min(RB_K - 1, RB_TAPS);
  vec4 keep[RB_K];
  vec4 sum = vec4(0.0);
  for (int i = 0; i < kept; ++i) {
    keep[i] = rb_input(line, i);
    sum += keep[i];
  }
  for (int i = kept; i < RB_TAPS; ++i) sum += rb_input(line, i);
  acc[0] = sum;
  for (int k = 1; k < RB_K; ++k) {
    vec4 x = rb_input(line, k + 2 * RADIUS);
    if (k + 2 * RADIUS < RB_K - 1) keep[k + 2 * RADIUS] = x;
    sum += x - keep[k - 1];
    acc[k] = sum;
  }
  float scale = tap_weight(0);
  for (int k = 0; k < RB_K; ++k) acc[k] *= scale;
#else
  // Weighted taps, each output adding its 2r+1 products in tap order, one FMA each. Input i
  // meets output k at tap i - k. Inputs come in blocks of K: block b = 1 .. full-1 (inputs
  // i = bK .. bK+K-1) lies inside the window of every output (1 <= i - k and i <= 2r), so it
  // takes all K x K products without conditions; of its K x K weights only 2K-1 differ (one per
  // ii - k), which compilers load once when they unroll the block. The inputs before (block 0)
  // and after the full blocks go one by one with compile-time conditions. Only k needs to be
  // unrolled to keep acc[] in registers.
  for (int k = 0; k < RB_K; ++k) acc[k] = vec4(0.0);
#if STREAM_TAPS
  // Streamed: inputs K-1 .. 2r lie in every output's window. They go RB_STREAM_INPUTS at a time
  // through a run-time loop; the inputs before and after them one by one, unrolled. Iteration b
  // reads inputs i0 = K-1 + bS .. i0 + S - 1 (S = RB_STREAM_INPUTS), whose taps t = i - k run
  // from bS to bS + K + S - 2: the vec4s of weights from flat index bS on (u_taps holds w(t - r)
  // at t, 4 a vec4, so vec4 bS/4 + q holds taps bS + 4q .. bS + 4q + 3).
  const int middle_start = RB_K - 1;
  const int middle_blocks = max(RB_TAPS - middle_start, 0) / RB_STREAM_INPUTS;
  const int rest_start = middle_start + middle_blocks * RB_STREAM_INPUTS;
  const int weight_vec4s = (RB_K + RB_STREAM_INPUTS - 1 + 3) / 4;
  for (int i = 0; i < middle_start; ++i) RB_SCATTER(acc, line, i)
  // The trip count times gl_NumWorkGroups.z (1 for every dispatch of these variants) is unknown to
  // the compiler, so no compiler unrolls this loop whole.
  for (int b = 0; b < middle_blocks * int(gl_NumWorkGroups.z); ++b) {
    vec4 w[weight_vec4s];
    for (int q = 0; q < weight_vec4s; ++q) w[q] = u_taps[b * (RB_STREAM_INPUTS / 4) + q];
    int i0 = middle_start + b * RB_STREAM_INPUTS;
    for (int ii = 0; ii < RB_STREAM_INPUTS; ++ii) {
      vec4 x = rb_input(line, i0 + ii);
      for (int k = 0; k < RB_K; ++k) {
        int e = RB_K - 1 + ii - k;  // tap i0 + ii - k, counted from this iteration's first (a constant once unrolled)
        acc[k] += w[e >> 2][e & 3] * x;
      }
    }
  }
  for (int i = rest_start; i < inputs; ++i) RB_SCATTER(acc, line, i)
#else
  // Unrolled: every loop has compile-time bounds.
  const int full = RB_TAPS / RB_K;
  const int tail = max(RB_K, full * RB_K);
  for (int i = 0; i < RB_K; ++i) RB_SCATTER(acc, line, i)
  for (int b = 1; b < full; ++b)
    for (int ii = 0; ii < RB_K; ++ii) {
      int i = b * RB_K + ii;
      vec4 x = rb_input(line, i);
      for (int k = 0; k < RB_K; ++k) acc[k] += tap_weight(i - k - RADIUS) * x;
    }
  for (int i = tail; i < inputs; ++i) RB_SCATTER(acc, line, i)
#endif
#endif
}
