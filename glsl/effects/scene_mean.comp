#version 430 core
// scene_mean.comp: the accumulation buffer of src/effects/scene_mean.h.
//   MEAN_PASS 0: sum += view (the view's rgba16f radiance added into the rgba32f sum);
//   MEAN_PASS 1: the picture of the mean: display(sum u_pass.x), u_pass.x = 1 / the views added.
layout(local_size_x = 16, local_size_y = 16) in;

#if MEAN_PASS == 0
layout(rgba16f, binding = BINDING_SOURCE) uniform restrict readonly image2D u_view;
layout(rgba32f, binding = BINDING_TARGET) uniform restrict image2D u_sum;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(u_sum)))) return;
  imageStore(u_sum, p, imageLoad(u_sum, p) + vec4(imageLoad(u_view, p).rgb, 0.0));
}

#else
#include "pass_values.glsl"
#include "effects/tonemap.glsl"
layout(rgba32f, binding = BINDING_SOURCE) uniform restrict readonly image2D u_sum;
layout(rgba8, binding = BINDING_TARGET) uniform restrict writeonly image2D u_picture;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(u_sum)))) return;
  imageStore(u_picture, p, display_value(imageLoad(u_sum, p).rgb * u_pass.x));
}
#endif
