#version 430 core
// bloom.comp: the bloom effect's own passes (src/effects/bloom.h has the formulas), around the
// blur stage that spreads the light:
//   BLOOM_PASS 0, the prefilter: P = the soft-knee threshold of H (bloom::prefilter_fraction), stored
//     rgba16f (only with a threshold; without one the blur stage reads H itself);
//   BLOOM_PASS 1, the composite: out = display(H + k (L - P)), L = sum of TERMS blurred terms (units
//     STAGE1.. STAGEn) weighted WEIGHT1.. WEIGHTn, P recomputed from H (PREFILTER 1) or H itself.
// u_pass = (intensity k, threshold, knee, 0) (bloom_common.glsl): sliders change them without a
// new program.
#include "effects/bloom_common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(rgba16f, binding = BINDING_SOURCE) uniform restrict readonly image2D u_frame;

#if BLOOM_PASS == 0
layout(rgba16f, binding = BINDING_TARGET) uniform restrict writeonly image2D u_prefiltered;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(u_frame)))) return;
  vec4 h = imageLoad(u_frame, p);
  imageStore(u_prefiltered, p, vec4(h.rgb * prefilter_fraction(h.rgb), 1.0));  // PREFILTER is 1 here
}

#else
layout(rgba8, binding = BINDING_TARGET) uniform restrict writeonly image2D u_picture;
layout(binding = BINDING_STAGE1) uniform sampler2D u_term1;
#if TERMS > 1
layout(binding = BINDING_STAGE2) uniform sampler2D u_term2;
#endif
#if TERMS > 2
layout(binding = BINDING_STAGE3) uniform sampler2D u_term3;
#endif
#if TERMS > 3
layout(binding = BINDING_STAGE4) uniform sampler2D u_term4;
#endif
#if TERMS > 4
layout(binding = BINDING_STAGE5) uniform sampler2D u_term5;
#endif
#if TERMS > 5
layout(binding = BINDING_STAGE6) uniform sampler2D u_term6;
#endif

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(u_frame)))) return;
  vec3 h = imageLoad(u_frame, p).rgb;
  vec3 layer = WEIGHT1 * texelFetch(u_term1, p, 0).rgb;
#if TERMS > 1
  layer += WEIGHT2 * texelFetch(u_term2, p, 0).rgb;
#endif
#if TERMS > 2
  layer += WEIGHT3 * texelFetch(u_term3, p, 0).rgb;
#endif
#if TERMS > 3
  layer += WEIGHT4 * texelFetch(u_term4, p, 0).rgb;
#endif
#if TERMS > 4
  layer += WEIGHT5 * texelFetch(u_term5, p, 0).rgb;
#endif
#if TERMS > 5
  layer += WEIGHT6 * texelFetch(u_term6, p, 0).rgb;
#endif
  imageStore(u_picture, p, bloom_picture(h, layer));
}
#endif
