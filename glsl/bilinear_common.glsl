// bilinear_common.glsl: fetches filtered by the texture units at any position, for variants whose
// taps are bilinear samples placed by the algorithm (kawase, dual-kawase). Include after
// source_sampler.glsl; the host binds u_src with the pipeline's linear sampler
// (Binding::sampled_linear: GL_LINEAR, one level, the wrap mode of the border).
//
// Positions are in texel units of the source, texel centres at k + 1/2: a fetch at p blends the
// texels floor(p - 1/2) and the next along each axis, weighted by the fraction of p - 1/2. The
// variants place their samples so that fractions are multiples of 1/8, which the texture units'
// 8-bit weights hold exactly (their CPU models assume it).
//
// Borders. This is the one place where these variants apply the border rule, and they apply it
// through the sampler, whose wrap mode the pipeline sets from the border (BlurPipeline::
// set_linear_wrap: CLAMP_TO_EDGE, MIRRORED_REPEAT, REPEAT, CLAMP_TO_BORDER with the constant): GL
// applies it to each of the two texels of an axis before weighting them (linear_common.glsl
// quotes the spec), which is the border's index rule for every texel a fetch blends. Reflect101
// has no wrap mode: the position is folded first (reflect101_position, blur_common.glsl), which
// keeps both texels of a fetch and their weights. The CPU models' model::bilinear applies the
// same rule per texel (src/blur/model.h). Each pass applies it to the texture it reads: a level of
// the pyramid or an intermediate reflects, wraps or meets the constant at its own edges.
vec4 bilinear_fetch(vec2 position, vec2 inv_size) {
#if BORDER == BORDER_REFLECT101
  vec2 size = vec2(source_size());
  position = vec2(reflect101_position(position.x, size.x), reflect101_position(position.y, size.y));
#endif
  return textureLod(u_src, position * inv_size, 0.0);
}
