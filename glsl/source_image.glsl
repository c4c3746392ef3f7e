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
