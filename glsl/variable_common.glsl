// variable_common.glsl: what variable-radius variants share (VARIABLE_RADIUS; blur/radius_map.h).
// The pipeline binds, made on the CPU from the settings' radius map:
//   BINDING_LEVELS: each pixel's level r (0..R), stored as r / 255 in red of an rgba8 texture
//   BINDING_LEVEL_WEIGHTS: the weights of every level, rgba32f (R + 1) x (R + 1): texel (i, r) holds in red
//                 the weight of taps i and -i of level r's kernel, for i = 0..r
// so one program serves every radius and every map: R is the weights texture's width - 1.
#ifndef VARIABLE_RADIUS
#error variable_common.glsl is for variable-radius variants (VARIABLE_RADIUS)
#endif
layout(rgba8, binding = BINDING_LEVELS) uniform restrict readonly image2D u_levels;
layout(rgba32f, binding = BINDING_LEVEL_WEIGHTS) uniform restrict readonly image2D u_level_weights;

// The largest level, R.
int max_level() { return imageSize(u_level_weights).x - 1; }
// Pixel p's level (p inside the image): the byte back from its unorm value, exactly.
int pixel_level(ivec2 p) { return int(round(imageLoad(u_levels, p).r * 255.0)); }
// The weight of tap i (-r..r) of level r's kernel.
float level_weight(int r, int i) { return imageLoad(u_level_weights, ivec2(abs(i), r)).r; }
