#version 430 core
// dof.comp: the depth of field effect's own passes around a variable-radius variant's blur
// (src/effects/dof.h has the lens's formulas):
//   DOF_PASS 0, the levels: each pixel's circle of confusion from its depth, coc = a + b d for the
//     window depth d (u_pass.xy = a, b: affine in d, dof::coc_from_window_depth), as the level of the
//     box of the disk's second moment, r = (sqrt(1 + 3 coc^2) - 1) / 2 rounded (halves up), at most
//     MAX_LEVEL: stored as its byte in red of the rgba8 levels texture, bound raw (r32ui: the low
//     byte is red), exactly what the variants read back (glsl/variable_common.glsl);
//   DOF_PASS 1, the composite: the blurred HDR frame shown (tonemap, sRGB), as every effect ships it.
#include "pass_values.glsl"
#include "effects/tonemap.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

#if DOF_PASS == 0
layout(binding = BINDING_SOURCE) uniform sampler2D u_depth;
layout(r32ui, binding = BINDING_TARGET) uniform restrict writeonly uimage2D u_levels;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(u_levels)))) return;
  float coc = u_pass.x + u_pass.y * texelFetch(u_depth, p, 0).r;
  float r = 0.5 * (sqrt(1.0 + 3.0 * coc * coc) - 1.0);
  imageStore(u_levels, p, uvec4(uint(min(floor(r + 0.5), float(MAX_LEVEL)))));
}

#else
layout(rgba16f, binding = BINDING_SOURCE) uniform restrict readonly image2D u_blurred;
layout(rgba8, binding = BINDING_TARGET) uniform restrict writeonly image2D u_picture;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(u_picture)))) return;
  imageStore(u_picture, p, display_value(imageLoad(u_blurred, p).rgb));
}
#endif
