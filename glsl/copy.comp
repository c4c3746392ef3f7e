#version 430 core
// copy: reads each texel once and writes it once, no blur: the memory floor every blur is
// measured against.
layout(local_size_x = WG_X, local_size_y = WG_Y) in;
layout(SRC_FORMAT, binding = 0) uniform restrict readonly image2D u_src;
layout(DST_FORMAT, binding = 1) uniform restrict writeonly image2D u_dst;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(u_src)))) return;  // partial workgroup; no barrier follows
  imageStore(u_dst, p, imageLoad(u_src, p));
}
