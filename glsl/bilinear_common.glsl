// bilinear_common.glsl: fetches filtered by the texture units at any position, for variants whose
// taps are bilinear samples placed by the algorithm (kawase, dual-kawase). Include after
// source_sampler.glsl; the host binds u_src with the pipeline's linear sampler
// (Binding::sampled_linear: GL_LINEAR, GL_CLAMP_TO_EDGE, one level).
//
// Positions are in texel units of the source, texel centres at k + 1/2: a fetch at p blends the
// texels floor(p - 1/2) and the next along each axis, weighted by the fraction of p - 1/2. The
// variants place their samples so that fractions are multiples of 1/8, which the texture units'
// 8-bit weights hold exactly (their CPU models assume it).
//
// Borders. This is the one place where these variants apply the border rule, and they apply it
// through the sampler: GL_CLAMP_TO_EDGE clamps each of the two texels of an axis separately
// before weighting them (linear_common.glsl quotes the spec), which is clamp-to-edge for every
// tap. Another rule needs its own sampler here: reflect about the edge is GL_MIRRORED_REPEAT, wrap
// is GL_REPEAT, a constant colour GL_CLAMP_TO_BORDER; reflect-101 has no wrap mode and needs the
// four texels fetched with source_texel() and weighted in the shader (and the CPU models'
// model::bilinear the same rule).
vec4 bilinear_fetch(vec2 position, vec2 inv_size) { return textureLod(u_src, position * inv_size, 0.0); }
