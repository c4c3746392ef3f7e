// target_image.glsl: the destination as an image (image unit BINDING_TARGET, format DST_FORMAT), for compute
// shaders: store_target(p, v) writes texel p (inside the image; callers skip the rest), and
// target_size() is its size (the source's, except for the levels of a pyramid). A shader that
// moves texels as their bits defines TARGET_RAW before including it: the destination is then bound
// raw (format DST_RAW_FORMAT, Binding::write_raw), written by store_target_bits(p, bits).
// Fragment shaders write their one output, o_color, instead.
#ifdef TARGET_RAW
layout(DST_RAW_FORMAT, binding = BINDING_TARGET) uniform restrict writeonly uimage2D u_dst;
void store_target_bits(ivec2 p, uvec4 bits) { imageStore(u_dst, p, bits); }
#else
layout(DST_FORMAT, binding = BINDING_TARGET) uniform restrict writeonly image2D u_dst;
void store_target(ivec2 p, vec4 v) { imageStore(u_dst, p, v); }
#endif

ivec2 target_size() { return imageSize(u_dst); }
