#version 430 core
// copy: reads each texel once and writes it once, no blur: the memory floor every blur is
// measured against. Invocation (x, y) of workgroup (gx, gy) copies TEXELS texels of row
// gy * WG_Y + y, at columns gx * WG_X * TEXELS + x + k * WG_X (k < TEXELS): at each k a warp's
// loads are consecutive texels. All loads are issued before the stores (faster than
// interleaving them: more loads in flight). RAW = 1 moves the texels' bits through uint images (no conversion).
#include "blur_common.glsl"
#if RAW
#define SOURCE_RAW
#define TARGET_RAW
#define TEXEL uvec4
#define STORE(p, v) store_target_bits(p, v)
#else
#define TEXEL vec4
#define STORE(p, v) store_target(p, v)
#endif
#include "source_image.glsl"
#include "target_image.glsl"
#define LOAD(p) imageLoad(u_src, p)  // inside the image: no border rule to apply

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

void main() {
  ivec2 size = source_size();
  int y = int(gl_GlobalInvocationID.y);
  int x0 = int(gl_WorkGroupID.x) * (WG_X * TEXELS) + int(gl_LocalInvocationID.x);
  if (y >= size.y) return;  // partial workgroup; no barrier follows
  TEXEL texel[TEXELS];
  for (int k = 0; k < TEXELS; ++k)
    if (x0 + k * WG_X < size.x) texel[k] = LOAD(ivec2(x0 + k * WG_X, y));
  for (int k = 0; k < TEXELS; ++k)
    if (x0 + k * WG_X < size.x) STORE(ivec2(x0 + k * WG_X, y), texel[k]);
}
