// target_image.glsl: the destination as an image (image unit 1, format DST_FORMAT), for compute
// shaders: store_target(p, v) writes texel p (inside the image; callers skip the rest).
// Fragment shaders write their one output, o_color, instead.
layout(DST_FORMAT, binding = 1) uniform restrict writeonly image2D u_dst;

void store_target(ivec2 p, vec4 v) { imageStore(u_dst, p, v); }
