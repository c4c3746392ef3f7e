// source_sampler.glsl: the source as a texture on texture unit BINDING_SOURCE, read with texelFetch (the
// host binds a nearest or linear sampler, Binding::Kind). The same hooks as source_image.glsl:
//   ivec2 source_size()         the source's size in texels
//   vec4  source_texel(ivec2 p) texel p, where p may lie anywhere: the border rule applies
// and u_src itself for the hardware-linear reads of linear_common.glsl.
layout(binding = BINDING_SOURCE) uniform sampler2D u_src;

ivec2 source_size() { return textureSize(u_src, 0); }
// texelFetch ignores the sampler's wrap modes (and is undefined outside): the rule applies here.
vec4 source_texel(ivec2 p) {
#if BORDER == BORDER_CONSTANT
  return border_outside(p, textureSize(u_src, 0)) ? border_value() : texelFetch(u_src, p, 0);
#else
  return texelFetch(u_src, border_texel(p, textureSize(u_src, 0)), 0);
#endif
}
