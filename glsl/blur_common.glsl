// blur_common.glsl: what every blur shader shares. The host (src/blur/pipeline.cpp) defines,
// right after #version:
//   RADIUS                  kernel radius r: taps at -r..r (0 = identity)
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
layout(location = 0) uniform vec4 u_pass;

// Weights computed once on the CPU (src/blur/kernel.cpp), in double, rounded to float.
#ifdef BAKED_TAPS
// Exported shaders (blurlab --export, src/export/export.cpp): the block's values as constants.
const vec4 u_taps[] = vec4[](BAKED_TAPS);
const vec4 u_linear[] = vec4[](BAKED_LINEAR);
#else
layout(std140, binding = 0) uniform KernelWeights {
  vec4 u_taps[TAP_VEC4S];       // w(i) for i = -r..r at flat index i + r, 4 per vec4
  vec4 u_linear[LINEAR_VEC4S];  // hardware-linear groups k = 0..LINEAR_COUNT-1: (offset, W), 2 per vec4
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

// The border rule: the texel read for p when p lies outside an image of `size` texels.
// Clamp-to-edge (the edge texel repeats) in every variant. Shaders read the source through the
// hooks of source_image.glsl or source_sampler.glsl, which apply it.
ivec2 border_texel(ivec2 p, ivec2 size) { return clamp(p, ivec2(0), size - 1); }
