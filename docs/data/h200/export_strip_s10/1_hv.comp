#version 430 core
// Exported by blurlab --export: compute-strip-regblock, pass 1 of 1 ("hv")
// settings: gauss r=30 sigma=10 border=clamp in=rgba8 workgroup=256x1 strip=32 block=8 segment=1024 cache=fp16 fetch=image weights=uniform
// image:    4096x4096 (workgroup counts for other sizes: recipe.md)
// GPU:      NVIDIA H200/PCIe/SSE2
// measured: 0.7189 ms for the whole blur (median)
// check:    ok R 1 G 1 B 1 A 0 LSB against blurlab's CPU reference
// The kernel's weights are constants (BAKED_TAPS); no uniform
// needs setting. Bindings, barriers and dispatch: recipe.md.
#define RADIUS 30
#define BORDER BORDER_CLAMP
#define WG_X 256
#define WG_Y 1
#define STRIP 32
#define BLOCK 8
#define SEGMENT 1024
#define CACHE_BITS 16
#define FETCH 0
#define WEIGHTS_CONST 0
#define SRC_FORMAT rgba8
#define DST_FORMAT rgba8
#define SRC_RAW_FORMAT r32ui
#define DST_RAW_FORMAT r32ui
#define LDS_TEXELS 4092
#define RB_BOX 0
#define BAKED_TAPS vec4(0.00044568273, 0.000598461309, 0.000795622473, 0.00104722183), vec4(0.00136468036, 0.00176069397, 0.00224904157, 0.00284427591), vec4(0.00356128439, 0.00441471068, 0.00541824335, 0.00658378191), vec4(0.00792050734, 0.00943390001, 0.0111247478, 0.0129882237), vec4(0.0150130875, 0.0171811003, 0.0194667093, 0.0218370929), vec4(0.0242525693, 0.0266674422, 0.029031245, 0.0312903635), vec4(0.0333899856, 0.0352762602, 0.0368985683, 0.0382117704), vec4(0.0391782895, 0.0397698954, 0.0399690792, 0.0397698954), vec4(0.0391782895, 0.0382117704, 0.0368985683, 0.0352762602), vec4(0.0333899856, 0.0312903635, 0.029031245, 0.0266674422), vec4(0.0242525693, 0.0218370929, 0.0194667093, 0.0171811003), vec4(0.0150130875, 0.0129882237, 0.0111247478, 0.00943390001), vec4(0.00792050734, 0.00658378191, 0.00541824335, 0.00441471068), vec4(0.00356128439, 0.00284427591, 0.00224904157, 0.00176069397), vec4(0.00136468036, 0.00104722183, 0.000795622473, 0.000598461309), vec4(0.00044568273, 0.0, 0.0, 0.0)
#define BAKED_LINEAR vec4(1.49625325, 0.0789481848, 3.49125814, 0.0751103386), vec4(5.48626471, 0.0686662495, 7.4812746, 0.0603216067), vec4(9.47628784, 0.0509200133, 11.4713058, 0.0413038023), vec4(13.4663296, 0.032194186, 15.461359, 0.0241129715), vec4(17.456398, 0.0173544064, 19.4514446, 0.0120020248), vec4(21.4465008, 0.00797599554, 23.4415665, 0.00509331748), vec4(25.4366455, 0.00312537444, 27.431736, 0.0018428443), vec4(29.4268398, 0.00104414404, 0.0, 0.0)
#define BAKED_BORDER_VALUE vec4(0.0, 0.0, 0.0, 0.0)
// compute-strip-regblock: both passes in one dispatch, register blocked (regblock_common.glsl),
// each workgroup walking down a strip of STRIP columns (the FidelityFX walk with register blocks):
// every row of the strip is blurred horizontally once, into a ring of the last 2r + STEP rows in
// shared memory, and every output sums its column from the ring. Per step of STEP rows:
//  1. horizontal: invocation n blurs BLOCK consecutive columns of one new row (rows y0 + r ..
//     y0 + r + STEP - 1) from the BLOCK + 2r texels they need, each read once;
//  2. barrier;
//  3. vertical: invocation n sums BLOCK consecutive output rows of one column from the BLOCK + 2r
//     ring rows they need, each loaded once, and stores those inside the image;
//  4. barrier (the next step overwrites the ring rows that left the window).
// A segment of SEGMENT rows starts with a prologue: the 2r rows above its first output row. So
// each texel is blurred horizontally (1 + 2r / SEGMENT) times, never more, and the arithmetic
// is the minimal 2 (2r+1) FMAs per channel otherwise (no vertical apron recomputed).
// FETCH selects how the horizontal stage reads the source: 0 imageLoad, 1 texelFetch (texture
// units convert rgba8 and cache in 2D), 2 staged: the step's rows (plus the 2r apron columns) are
// first loaded into shared memory with consecutive invocations on consecutive texels (each texel
// converted once), then blurred from there, consecutive invocations on consecutive rows (odd row
// strides: no bank conflicts). WEIGHTS_CONST: the host passes the weights as CONST_TAPS.
// ---- glsl/blur_common.glsl
// blur_common.glsl: what every blur shader shares. The host (src/blur/pipeline.cpp) defines,
// right after #version:
//   RADIUS                  kernel radius r: taps at -r..r (0 = identity)
//   BORDER                  the border mode (src/blur/border.h): BORDER_CLAMP, BORDER_REFLECT,
//                           BORDER_REFLECT101, BORDER_WRAP or BORDER_CONSTANT
//   the variant's knobs     each knob's define (src/blur/knob.h), e.g. WG_X and WG_Y for the
//                           workgroup, SEGMENT, UNROLL, CACHE_BITS; only the variant's own
//   SRC_FORMAT, DST_FORMAT  image format qualifiers of image units 0 and 1 (compute)
//   SRC_RAW_FORMAT, ...     the same units bound raw (raw_images.glsl)

const int MAX_RADIUS = 128;
const int TAP_VEC4S = (2 * MAX_RADIUS + 1 + 3) / 4;
const int MAX_LINEAR_TAPS = (MAX_RADIUS + 1) / 2;
const int LINEAR_VEC4S = (MAX_LINEAR_TAPS + 1) / 2;

// Values of one pass that change from dispatch to dispatch of a program (BlurPasses::dispatch's
// `pass`), e.g. a Kawase pass's offset; only the variants that set them read them.
#ifdef BAKED_PASS
const vec4 u_pass = BAKED_PASS;  // an exported pass (blurlab --export): its values baked in
#else
layout(location = 0) uniform vec4 u_pass;
#endif

// Weights computed once on the CPU (src/blur/kernel.cpp), in double, rounded to float.
#ifdef BAKED_TAPS
// Exported shaders (blurlab --export, src/export/export.cpp): the block's values as constants.
const vec4 u_taps[] = vec4[](BAKED_TAPS);
const vec4 u_linear[] = vec4[](BAKED_LINEAR);
const vec4 u_border_value = BAKED_BORDER_VALUE;
#else
layout(std140, binding = 0) uniform KernelWeights {
  vec4 u_taps[TAP_VEC4S];       // w(i) for i = -r..r at flat index i + r, 4 per vec4
  vec4 u_linear[LINEAR_VEC4S];  // hardware-linear groups k = 0..LINEAR_COUNT-1: (offset, W), 2 per vec4
  vec4 u_border_value;          // BORDER_CONSTANT: the value outside the image, a texel of the input format
};
#endif

#ifdef CONST_TAPS
// The same weights as compile-time constants (constant_weight_defines() in src/blur/blur.h).
const float CONST_TAP_ARRAY[2 * RADIUS + 1] = float[](CONST_TAPS);
float tap_weight(int i) { return CONST_TAP_ARRAY[i + RADIUS]; }
#else
float tap_weight(int i) {
  int k = i + RADIUS;
  return u_taps[k >> 2][k & 3];
}
#endif

// Hardware-linear sampling (see linear_taps() in src/blur/kernel.h): the centre tap alone, then
// on each side ceil(r/2) bilinear fetches at +-offset, each weighted W.
const int LINEAR_COUNT = (RADIUS + 1) / 2;
vec2 linear_tap(int k) {
  vec4 v = u_linear[k >> 1];
  return (k & 1) == 0 ? v.xy : v.zw;
}

// The border rule (src/blur/border.h): what a tap at p reads where p lies outside the image.
// The source hooks (source_image.glsl, source_sampler.glsl) apply it; algorithms pass them the
// unmapped position, also for a whole row outside the image (never a mapped row: constant has no
// texel to map to, and border_texel does not exist in that mode). Hardware-linear reads set the
// sampler's wrap mode instead (linear_common.glsl).
#define BORDER_CLAMP 0       // aaa|abc|ccc
#define BORDER_REFLECT 1     // cba|abc|cba
#define BORDER_REFLECT101 2  //  cb|abc|ba
#define BORDER_WRAP 3        // abc|abc|abc
#define BORDER_CONSTANT 4    // vvv|abc|vvv
#ifndef BORDER
#error BORDER (the border mode) is not defined
#elif BORDER < BORDER_CLAMP || BORDER > BORDER_CONSTANT
#error BORDER is not a border mode
#endif

// True where p lies outside an image of `size` texels (negative p wraps to large unsigned).
bool border_outside(ivec2 p, ivec2 size) { return any(greaterThanEqual(uvec2(p), uvec2(size))); }

#if BORDER == BORDER_CONSTANT
// The value outside, as this pass's source holds it: a texel (or an average of texels) by
// default; a pass whose source holds sums of texels (raw running sums) defines
// BORDER_VALUE_SCALE, the value of one texel in those units times the texels summed.
#ifndef BORDER_VALUE_SCALE
#define BORDER_VALUE_SCALE 1.0
#endif
vec4 border_value() { return u_border_value * BORDER_VALUE_SCALE; }
#else
// p modulo period (> 0), in [0, period). GLSL leaves % undefined for negative operands.
int border_mod(int p, int period) { return p >= 0 ? p % period : period - 1 - (-p - 1) % period; }

// The index p reads along an axis of n texels, repeated reflections included (as OpenCV's
// borderInterpolate): reflect has period 2n, reflect101 2n - 2, wrap n.
int border_index(int p, int n) {
#if BORDER == BORDER_CLAMP
  return clamp(p, 0, n - 1);
#else
  if (uint(p) < uint(n)) return p;  // inside: one compare
#if BORDER == BORDER_WRAP
  return border_mod(p, n);
#elif BORDER == BORDER_REFLECT
  int m = border_mod(p, 2 * n);
  return m < n ? m : 2 * n - 1 - m;
#else  // BORDER_REFLECT101; a 1-texel axis is that texel
  if (n == 1) return 0;
  int m = border_mod(p, 2 * n - 2);
  return m < n ? m : 2 * n - 2 - m;
#endif
#endif
}

// The texel p reads in an image of `size` texels: each axis mapped on its own.
ivec2 border_texel(ivec2 p, ivec2 size) { return ivec2(border_index(p.x, size.x), border_index(p.y, size.y)); }
#endif

#if BORDER == BORDER_REFLECT101
// For bilinear fetches (linear_common.glsl, bilinear_common.glsl): no GL wrap mode is reflect101.
// Reflect101 for a sample at u (texel space, one axis of n texels). With texel centres at
// integers, v = u - 1/2, the border maps v by a triangle wave of period 2(n - 1) into [0, n - 1],
// folding at integers only (the texel centres 0 and n - 1 and their copies). So the two texels
// one fetch blends, floor(v) and floor(v) + 1, lie on one straight piece of the wave and fold to
// the two texels reflect101 reads for them, each keeping its weight (where the wave runs
// backwards, the fetch at c - v blends c - floor(v) with weight 1 - frac(v) and c - floor(v) - 1
// with frac(v)). Positions inside are returned as they are. The fold's own fp32 error moves the
// position by about 2^-23 of it, far below the 1/256 step of the filter weight, and the wave is
// continuous, so an error at a fold point moves it no further.
float reflect101_position(float u, float n) {
  float v = u - 0.5;
  if (v >= 0.0 && v <= n - 1.0) return u;
  if (n == 1.0) return 0.5;
  float period = 2.0 * (n - 1.0);
  v -= period * floor(v / period);
  return (v <= n - 1.0 ? v : period - v) + 0.5;
}
#endif
#if FETCH == 1
// ---- glsl/source_sampler.glsl
// source_sampler.glsl: the source as a texture on texture unit 0, read with texelFetch (the
// host binds a nearest or linear sampler, Binding::Kind). The same hooks as source_image.glsl:
//   ivec2 source_size()         the source's size in texels
//   vec4  source_texel(ivec2 p) texel p, where p may lie anywhere: the border rule applies
// and u_src itself for the hardware-linear reads of linear_common.glsl.
layout(binding = 0) uniform sampler2D u_src;

ivec2 source_size() { return textureSize(u_src, 0); }
// texelFetch ignores the sampler's wrap modes (and is undefined outside): the rule applies here.
vec4 source_texel(ivec2 p) {
#if BORDER == BORDER_CONSTANT
  return border_outside(p, textureSize(u_src, 0)) ? border_value() : texelFetch(u_src, p, 0);
#else
  return texelFetch(u_src, border_texel(p, textureSize(u_src, 0)), 0);
#endif
}
#else
// ---- glsl/source_image.glsl
// source_image.glsl: the source as an image (image unit 0, format SRC_FORMAT), for compute
// shaders. One of the two source hooks (source_sampler.glsl is the other): an entry shader
// includes one, and the algorithm includes (naive_2d.glsl, separable_1d.glsl, lds_common.glsl,
// sliding_common.glsl, regblock_common.glsl) read the source only through
//   ivec2 source_size()         the source's size in texels
//   vec4  source_texel(ivec2 p) texel p, where p may lie anywhere: the border rule applies
// Entry shaders declare nothing of their own for the source; target_image.glsl declares the
// destination the same way.
layout(SRC_FORMAT, binding = 0) uniform restrict readonly image2D u_src;

ivec2 source_size() { return imageSize(u_src); }
vec4 source_texel(ivec2 p) {
#if BORDER == BORDER_CONSTANT
  return border_outside(p, imageSize(u_src)) ? border_value() : imageLoad(u_src, p);
#else
  return imageLoad(u_src, border_texel(p, imageSize(u_src)));
#endif
}
#endif
// ---- glsl/target_image.glsl
// target_image.glsl: the destination as an image (image unit 1, format DST_FORMAT), for compute
// shaders: store_target(p, v) writes texel p (inside the image; callers skip the rest), and
// target_size() is its size (the source's, except for the levels of a pyramid).
// Fragment shaders write their one output, o_color, instead.
layout(DST_FORMAT, binding = 1) uniform restrict writeonly image2D u_dst;

void store_target(ivec2 p, vec4 v) { imageStore(u_dst, p, v); }
ivec2 target_size() { return imageSize(u_dst); }

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

const int N = WG_X * WG_Y;
const int STEP = N * BLOCK / STRIP;        // rows per step: N blocks each way (the host checks)
const int RING = 2 * RADIUS + STEP;        // ring rows
const int RING_STRIDE = STRIP | 1;         // odd: the horizontal stage's stores hit distinct banks
#if FETCH == 2
const int STAGE_WIDTH = STRIP + 2 * RADIUS;
const int STAGE_STRIDE = STAGE_WIDTH | 1;
const int STAGE_BASE = RING * RING_STRIDE;  // the staging rows follow the ring
#if LDS_TEXELS != (STRIP | 1) * (2 * RADIUS + WG_X * WG_Y * BLOCK / STRIP) + (WG_X * WG_Y * BLOCK / STRIP) * ((STRIP + 2 * RADIUS) | 1)
#error LDS_TEXELS does not match the ring (STRIP | 1) x (2r + STEP) plus the staging STEP x ((STRIP + 2r) | 1)
#endif
#else
#if LDS_TEXELS != (STRIP | 1) * (2 * RADIUS + WG_X * WG_Y * BLOCK / STRIP)
#error LDS_TEXELS does not match the ring (STRIP | 1) x (2r + STEP)
#endif
#endif
// ---- glsl/lds_common.glsl
// lds_common.glsl: the shared-memory (LDS) cache of compute-naive-lds, compute-separable-lds,
// compute-inline-lds, compute-inline-persistent and compute-inline-regblock. Include after
// blur_common.glsl, a source hook (source_image.glsl) and the local_size layout (WG_X * WG_Y
// invocations), with LDS_TEXELS defined by the host (src/variants/lds.h): the texels of the one
// shared array s_lds that each shader lays out.
//
// CACHE_BITS = 32: a texel is a vec4 (16 bytes). CACHE_BITS = 16: a uvec2 holding the four channels
// as two packHalf2x16 (8 bytes): half the shared memory, fp16 rounding of what is cached.

const int LDS_INVOCATIONS = WG_X * WG_Y;

#if CACHE_BITS == 16
shared uvec2 s_lds[LDS_TEXELS];
void lds_store(int i, vec4 v) { s_lds[i] = uvec2(packHalf2x16(v.xy), packHalf2x16(v.zw)); }
vec4 lds_load(int i) { return vec4(unpackHalf2x16(s_lds[i].x), unpackHalf2x16(s_lds[i].y)); }
#else
shared vec4 s_lds[LDS_TEXELS];
void lds_store(int i, vec4 v) { s_lds[i] = v; }
vec4 lds_load(int i) { return s_lds[i]; }
#endif

// Cooperative load of the source rectangle at `origin`, extent.x by extent.y texels (the border
// rule applied where it reaches outside), into s_lds[base + y * extent.x + x]. Balanced: invocation k loads texels k, k + N,
// k + 2N, ... (N invocations), so each loads ceil or floor of area / N, and consecutive
// invocations read consecutive texels of a row. No barrier inside: call it in uniform control
// flow and put memoryBarrierShared(); barrier(); between it and the reads.
void lds_fill_rect(int base, ivec2 origin, ivec2 extent) {
  int area = extent.x * extent.y;
  for (int i = int(gl_LocalInvocationIndex); i < area; i += LDS_INVOCATIONS)
    lds_store(base + i, source_texel(origin + ivec2(i % extent.x, i / extent.x)));
}

// The 2r+1 taps of a cached line: sum over i = -r..r of w(i) * s_lds[centre + i * stride].
vec4 lds_tap_sum(int centre, int stride) {
  vec4 sum = vec4(0.0);
  for (int i = -RADIUS; i <= RADIUS; ++i) sum += tap_weight(i) * lds_load(centre + i * stride);
  return sum;
}

#define RB_K BLOCK
#define RB_LINE_SUM block_sums
// ---- glsl/regblock_common.glsl
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

#ifndef RB_SHARED_DECLARED
#define RB_SHARED_DECLARED

const int RB_TAPS = 2 * RADIUS + 1;

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
  const int full = RB_TAPS / RB_K;
  const int tail = max(RB_K, full * RB_K);
  for (int k = 0; k < RB_K; ++k) acc[k] = vec4(0.0);
  for (int i = 0; i < RB_K; ++i) RB_SCATTER(acc, line, i)
  for (int b = 1; b < full; ++b)
    for (int ii = 0; ii < RB_K; ++ii) {
      int i = b * RB_K + ii;
      vec4 x = rb_input(line, i);
      for (int k = 0; k < RB_K; ++k) acc[k] += tap_weight(i - k - RADIUS) * x;
    }
  for (int i = tail; i < inputs; ++i) RB_SCATTER(acc, line, i)
#endif
}

int g_segment_top;  // image row of ring row 0 of this segment's walk: its first output row - r
int ring_row(int y) { return (y - g_segment_top) % RING; }

#if FETCH == 2
// Loads image rows first .. first + STEP - 1, columns x0 - r .. x0 + STRIP + r - 1, into the
// staging rows. No barrier inside: call in uniform control flow, with barriers around.
void stage_rows(int x0, int first) {
  for (int i = int(gl_LocalInvocationIndex); i < STEP * STAGE_WIDTH; i += N) {
    int row = i / STAGE_WIDTH, column = i % STAGE_WIDTH;
    lds_store(STAGE_BASE + row * STAGE_STRIDE + column, source_texel(ivec2(x0 - RADIUS + column, first + row)));
  }
}

// Blurs staging row `row` (image row y), columns x .. x + BLOCK - 1 of the strip, into the ring.
void blur_staged_block(int row, int y, int column) {
  vec4 sums[BLOCK];
  block_sums(RbLine(false, ivec2(0), STAGE_BASE + row * STAGE_STRIDE + column, 1, 0), sums);
  int base = ring_row(y) * RING_STRIDE + column;
  for (int k = 0; k < BLOCK; ++k) lds_store(base + k, sums[k]);
}
#else
// Blurs horizontally image row y, strip columns x .. x + BLOCK - 1 (image column x0 + x), into
// the ring. Rows outside the image are read through the border rule like any tap (the border's
// row, or the constant).
void blur_row_block(int x0, int x, int y) {
  vec4 sums[BLOCK];
  block_sums(RbLine(true, ivec2(x0 + x - RADIUS, y), 0, 0, 0), sums);
  int base = ring_row(y) * RING_STRIDE + x;
  for (int k = 0; k < BLOCK; ++k) lds_store(base + k, sums[k]);
}
#endif

// Sums column v_column of the strip for output rows y .. y + BLOCK - 1 from the ring rows
// y - r .. y + BLOCK - 1 + r, and stores those inside the image and the segment.
void sum_columns(int x0, int v_column, int y, int end) {
  vec4 outputs[BLOCK];
  block_sums(RbLine(false, ivec2(0), ring_row(y - RADIUS) * RING_STRIDE + v_column, RING_STRIDE, RING * RING_STRIDE), outputs);
  if (x0 + v_column < source_size().x)
    for (int k = 0; k < BLOCK; ++k)
      if (y + k < end) store_target(ivec2(x0 + v_column, y + k), outputs[k]);
}

void main() {
  ivec2 size = source_size();
  int n = int(gl_LocalInvocationIndex);
  int x0 = int(gl_WorkGroupID.x) * STRIP;
  int start = int(gl_WorkGroupID.y) * SEGMENT, end = min(start + SEGMENT, size.y);
  g_segment_top = start - RADIUS;
  // The vertical task: a block of rows of one column (consecutive invocations take consecutive
  // columns: no bank conflicts).
  int v_column = n % STRIP, v_row = (n / STRIP) * BLOCK;
#if FETCH == 2
  // The horizontal task: one staging row, a block of columns; consecutive invocations take
  // consecutive rows.
  int h_row = n % STEP, h_x = (n / STEP) * BLOCK;
  // Prologue: rows start - r .. start + r - 1, STEP at a time (uniform bounds, barriers inside).
  for (int first = start - RADIUS; first < start + RADIUS; first += STEP) {
    stage_rows(x0, first);
    memoryBarrierShared();
    barrier();
    if (first + h_row < start + RADIUS) blur_staged_block(h_row, first + h_row, h_x);
    memoryBarrierShared();
    barrier();  // the next stage_rows overwrites the staging rows
  }
  stage_rows(x0, start + RADIUS);
  memoryBarrierShared();
  barrier();
  for (int y0 = start; y0 < end; y0 += STEP) {
    blur_staged_block(h_row, y0 + RADIUS + h_row, h_x);
    memoryBarrierShared();
    barrier();
    sum_columns(x0, v_column, y0 + v_row, end);
    if (y0 + STEP < end) stage_rows(x0, y0 + STEP + RADIUS);  // uniform: every invocation agrees
    memoryBarrierShared();
    barrier();
  }
#else
  // The horizontal task: a block of columns of one of the step's rows.
  int h_row = n / (STRIP / BLOCK), h_x = (n % (STRIP / BLOCK)) * BLOCK;
  // Prologue: rows start - r .. start + r - 1, STEP at a time (no barrier: the first step's
  // barrier orders these stores before any read, and no two invocations store the same row).
  for (int first = start - RADIUS; first < start + RADIUS; first += STEP)
    if (first + h_row < start + RADIUS) blur_row_block(x0, h_x, first + h_row);

  // Uniform bounds: every invocation reaches both barriers of every step.
  for (int y0 = start; y0 < end; y0 += STEP) {
    blur_row_block(x0, h_x, y0 + RADIUS + h_row);
    memoryBarrierShared();
    barrier();
    sum_columns(x0, v_column, y0 + v_row, end);
    memoryBarrierShared();
    barrier();
  }
#endif
}
