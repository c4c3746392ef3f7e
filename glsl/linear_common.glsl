// linear_common.glsl: hardware-linear sampling, shared by frag-separable-linear,
// compute-separable-linear and frag-linear-2d. Include after blur_common.glsl and
// source_sampler.glsl; the source u_src is bound with the pipeline's linear sampler
// (Binding::sampled_linear: GL_LINEAR, one level, the wrap mode of the border; see Borders).
//
// One bilinear fetch between texels o and o+1 at o + t returns (1-t) P[o] + t P[o+1]. Per axis
// the 2r+1 taps become LINEAR_SAMPLES samples (linear_taps() in src/blur/kernel.h): the centre
// alone (offset 0, weight w(0)), then for each group k = 0..LINEAR_COUNT-1 of taps (i, i+1),
// i = 2k+1, one sample at +offset_k and one at -offset_k, both weighted W_k = w(i) + w(i+1),
// offset_k = i + w(i+1)/W_k. For odd r the last group is the single tap r (t = 0, a texel centre).
//
// Positions. Texel centres are at integer + 0.5 in texel space, and GL filters between
// floor(u - 0.5) and floor(u - 0.5) + 1 with weight frac(u - 0.5). So the sample for texel p
// shifted by `offset` texels is at u = p + 0.5 + offset: u - 0.5 = p + offset blends texels
// p + floor(offset) and p + floor(offset) + 1 with weight frac(offset). Sampling at p + offset
// (without the 0.5) would land half a texel off; stepping on texel centres (whole offsets) only
// subsamples: it fetches one texel where it should blend two.
// On the negative side, u - 0.5 = p - i - t blends texels p - i - 1 (weight t) and p - i
// (weight 1 - t): w(i+1) and w(i) at -(i+1) and -i, the mirror image of the positive side.
//
// Borders. With GL_CLAMP_TO_EDGE, GL computes the two texel indices i0 = floor(u - 0.5) and
// i1 = i0 + 1 first, and clamps EACH index to [0, size-1] before weighting (OpenGL 4.6 core,
// 8.14.2: i0 = wrap(floor(u' - 1/2)), i1 = wrap(floor(u' - 1/2) + 1), with the weights from
// frac(u' - 1/2) of the unclamped coordinate). So a sample that straddles or leaves the edge
// returns (1-t) P[clamp(p+o)] + t P[clamp(p+o+1)]: each tap keeps its own weight and reads its
// own clamped texel, exactly the clamp-to-edge kernel sum w(i) P[clamp(p+i)]. (Clamping the
// coordinate to [0.5, size-0.5] instead would move the weights, not the texels: wrong.) In 2D
// the x and y indices are clamped independently, so the same holds per axis.
// Every wrap mode applies to the two indices the same way, so the pipeline (BlurPipeline::
// set_linear_wrap) sets the one whose index rule is the border's: REPEAT for wrap,
// MIRRORED_REPEAT ((size-1) - mirror(mod(i, 2 size) - size): cba|abc|cba) for reflect,
// CLAMP_TO_BORDER (index -1 or size reads the border colour, the constant) for constant. No wrap
// mode mirrors about the edge texel's centre (reflect101): for it the sample position is folded
// before a CLAMP_TO_EDGE fetch (reflect101_position, blur_common.glsl).
//
// Precision. Texture units quantize the weight t (8 fractional bits on NVIDIA and llvmpipe),
// hence the 2 LSB tolerance of these variants. Measured on llvmpipe: for rgba8 textures the
// position is rounded to 1/256 texel and the filtered value is itself rounded to 8 bits (half up)
// per fetch; float textures filter with exact fp32 weights. So one pass over rgba8 errs by at
// most sum_k W_k max_dP |round(dP w_k/256) - dP t_k| (w_k: the quantized t_k): under 0.5 LSB for
// the box (t = 1/2 is exact), up to 0.86 LSB for Gaussians (sigma 8); an rgba8 intermediate adds
// its own 0.5 LSB between two such passes.
const int LINEAR_SAMPLES = 2 * LINEAR_COUNT + 1;

// Sample j = 0..LINEAR_SAMPLES-1 of one axis: (offset in texels, weight). j = 0 is the centre,
// j = 2k+1 and 2k+2 are group k at +offset and -offset.
vec2 linear_sample(int j) {
  if (j == 0) return vec2(0.0, tap_weight(0));
  // max(): after unrolling, NVIDIA's compiler folds the dead j = 0 branch into u_linear[-1] and
  // refuses to link (r = 0); Mesa does not.
  vec2 g = linear_tap(max(j - 1, 0) >> 1);
  return (j & 1) == 1 ? g : vec2(-g.x, g.y);
}


// The bilinear fetch for texel p shifted by `offset` texels, at level 0 (no derivatives needed),
// in an image of `size` texels. inv_size = 1 / size: the position's fp32 error is about
// (p + offset) 2^-23 texels, below 2^-11 texel up to 4096 texels, far under the 1/256 step of the
// filter weight.
vec4 linear_fetch(vec2 size, vec2 inv_size, ivec2 p, vec2 offset) {
  vec2 u = vec2(p) + 0.5 + offset;
#if BORDER == BORDER_REFLECT101
  u = vec2(reflect101_position(u.x, size.x), reflect101_position(u.y, size.y));
#endif
  return textureLod(u_src, u * inv_size, 0.0);
}

// The 1D blur along `axis` ((1,0) or (0,1)) at texel p: LINEAR_SAMPLES fetches.
vec4 linear_blur_1d(ivec2 p, vec2 axis) {
  vec2 size = vec2(source_size()), inv_size = 1.0 / size;
  vec4 sum = vec4(0.0);
  for (int j = 0; j < LINEAR_SAMPLES; ++j) {
    vec2 s = linear_sample(j);
    sum += s.y * linear_fetch(size, inv_size, p, s.x * axis);
  }
  return sum;
}

// The 2D blur at texel p: LINEAR_SAMPLES^2 fetches, each blending 2x2 texels. Bilinear weights
// factor, (1-tx)(1-ty), tx(1-ty), ..., so the sample at (ox, oy) weighted Wx Wy covers the
// products w(i) w(j) of its 2x2 taps; the centre row and column (offset 0, weight w(0)) and the
// single-tap groups of odd r (t = 0) take their taps exactly, no neighbour mixed in.
vec4 linear_blur_2d(ivec2 p) {
  vec2 size = vec2(source_size()), inv_size = 1.0 / size;
  vec4 sum = vec4(0.0);
  for (int jy = 0; jy < LINEAR_SAMPLES; ++jy) {
    vec2 sy = linear_sample(jy);
    vec4 row = vec4(0.0);
    for (int jx = 0; jx < LINEAR_SAMPLES; ++jx) {
      vec2 sx = linear_sample(jx);
      row += sx.y * linear_fetch(size, inv_size, p, vec2(sx.x, sy.x));
    }
    sum += sy.y * row;
  }
  return sum;
}
