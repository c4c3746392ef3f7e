// source_image.glsl: the source as an image (image unit BINDING_SOURCE), for compute shaders. One of the two
// source hooks (source_sampler.glsl is the other): an entry shader includes one, and the algorithm
// includes (naive_2d.glsl, separable_1d.glsl, lds_common.glsl, sliding_common.glsl,
// regblock_common.glsl, box_walk.glsl) read the source only through
//   ivec2 source_size()         the source's size in texels
//   vec4  source_texel(ivec2 p) texel p, where p may lie anywhere: the border rule applies
// A shader that moves texels as their bits defines SOURCE_RAW before including it: the source is
// then bound raw (format SRC_RAW_FORMAT, Binding::read_raw), and instead of source_texel() it reads
//   uvec4 source_bits(ivec2 p)  texel p's bits (rgba8: .x; rgba16f: .xy, each two halves), where p
//                               may lie anywhere: the same border rule, the constant as its bits
// Entry shaders declare nothing of their own for the source; target_image.glsl declares the
// destination the same way.
#ifdef SOURCE_RAW
layout(SRC_RAW_FORMAT, binding = BINDING_SOURCE) uniform restrict readonly uimage2D u_src;
#else
layout(SRC_FORMAT, binding = BINDING_SOURCE) uniform restrict readonly image2D u_src;
#endif

ivec2 source_size() { return imageSize(u_src); }

#ifdef SOURCE_RAW
#if BORDER == BORDER_CONSTANT
// The constant as a texel's bits (it is a texel of the source's format: its bits are exact).
uvec4 border_bits() { return texel_bits(border_value(), SRC_BYTES); }
#endif
uvec4 source_bits(ivec2 p) {
#if BORDER == BORDER_CONSTANT
  return border_outside(p, imageSize(u_src)) ? border_bits() : imageLoad(u_src, p);
#else
  return imageLoad(u_src, border_texel(p, imageSize(u_src)));
#endif
}
#else
vec4 source_texel(ivec2 p) {
#if BORDER == BORDER_CONSTANT
  return border_outside(p, imageSize(u_src)) ? border_value() : imageLoad(u_src, p);
#else
  return imageLoad(u_src, border_texel(p, imageSize(u_src)));
#endif
}
#endif
