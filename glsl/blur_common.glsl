// blur_common.glsl: what every blur shader shares. The host (src/blur/pipeline.cpp) defines,
// right after #version:
//   BINDING_<NAME>          every generic binding unit's number (src/gl/bindings.h; every shader gets them)
//                           and each of the variant's own slots' (VariantInfo::slots)
//   RADIUS                  kernel radius r: taps at -r..r (0 = identity); a variable-radius
//                           variant gets VARIABLE_RADIUS instead and reads its radii as data
//                           (variable_common.glsl)
//   BORDER                  the border mode (src/blur/border.h): BORDER_CLAMP, BORDER_REFLECT,
//                           BORDER_REFLECT101, BORDER_WRAP or BORDER_CONSTANT
//   the variant's knobs     each knob's define (src/blur/knob.h), e.g. WG_X and WG_Y for the
//                           workgroup, SEGMENT, UNROLL, CACHE_BITS; only the variant's own
//   SRC_FORMAT, DST_FORMAT  image format qualifiers of BINDING_SOURCE and BINDING_TARGET (compute)
//   SRC_RAW_FORMAT, ...     the same units bound raw (SOURCE_RAW, TARGET_RAW: source_image.glsl,
//                           target_image.glsl)
//   SRC_BYTES, DST_BYTES    their texels' sizes in bytes (4 rgba8, 8 rgba16f, 16 rgba32f)

const int MAX_RADIUS = 512;  // kMaxRadius (src/blur/kernel.h)
const int TAP_VEC4S = (2 * MAX_RADIUS + 1 + 3) / 4;
const int MAX_LINEAR_TAPS = (MAX_RADIUS + 1) / 2;
const int LINEAR_VEC4S = (MAX_LINEAR_TAPS + 1) / 2;

// A texel's value as the bits of a texel of `bytes` bytes (4 rgba8, 8 rgba16f: two halves a word,
// 16 rgba32f), as shaders that move texels raw (SOURCE_RAW, TARGET_RAW) hold them, and back.
uvec4 texel_bits(vec4 v, int bytes) {
  if (bytes == 4) return uvec4(packUnorm4x8(v), 0u, 0u, 0u);
  if (bytes == 8) return uvec4(packHalf2x16(v.xy), packHalf2x16(v.zw), 0u, 0u);
  return floatBitsToUint(v);
}
vec4 bits_texel(uvec4 bits, int bytes) {
  if (bytes == 4) return unpackUnorm4x8(bits.x);
  if (bytes == 8) return vec4(unpackHalf2x16(bits.x), unpackHalf2x16(bits.y));
  return uintBitsToFloat(bits);
}

#include "pass_values.glsl"

// Weights computed once on the CPU (src/blur/kernel.cpp), in double, rounded to float.
#ifdef BAKED_BORDER_VALUE
// Exported shaders (blurlab --export, src/export/export.cpp): the block's values as constants;
// the weights only for shaders that blur with them (not an approximation's: NO_KERNEL_WEIGHTS).
#ifdef BAKED_TAPS
const vec4 u_taps[] = vec4[](BAKED_TAPS);
const vec4 u_linear[] = vec4[](BAKED_LINEAR);
#else
#define NO_KERNEL_WEIGHTS
#endif
const vec4 u_border_value = BAKED_BORDER_VALUE;
#else
layout(std140, binding = BINDING_KERNEL_WEIGHTS) uniform KernelWeights {
  vec4 u_taps[TAP_VEC4S];       // w(i) for i = -r..r at flat index i + r, 4 per vec4
  vec4 u_linear[LINEAR_VEC4S];  // hardware-linear groups k = 0..LINEAR_COUNT-1: (offset, W), 2 per vec4
  vec4 u_border_value;          // BORDER_CONSTANT: the value outside the image, a texel of the input format
};
#endif

#ifndef VARIABLE_RADIUS
#ifdef CONST_TAPS
// The same weights as compile-time constants (constant_weight_defines() in src/blur/blur.h).
const float CONST_TAP_ARRAY[2 * RADIUS + 1] = float[](CONST_TAPS);
float tap_weight(int i) { return CONST_TAP_ARRAY[i + RADIUS]; }
#elif !defined(NO_KERNEL_WEIGHTS)
float tap_weight(int i) {
  int k = i + RADIUS;
  return u_taps[k >> 2][k & 3];
}
#endif

// Hardware-linear sampling (see linear_taps() in src/blur/kernel.h): the centre tap alone, then
// on each side ceil(r/2) bilinear fetches at +-offset, each weighted W.
const int LINEAR_COUNT = (RADIUS + 1) / 2;
#ifndef NO_KERNEL_WEIGHTS
vec2 linear_tap(int k) {
  vec4 v = u_linear[k >> 1];
  return (k & 1) == 0 ? v.xy : v.zw;
}
#endif
#endif  // !VARIABLE_RADIUS

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
