#version 430 core
// variable-layers: the image blurred uniformly at a few radii (layers), then each pixel blends the
// two layers around its own level (src/variants/variable_layers.cpp). Three passes of this file:
//   PASS 0, rows, and PASS 1, columns: one layer's exact separable blur at radius u_pass.x, the
//     weights of that level read from the level weights (BINDING_LEVEL_WEIGHTS): rows from the source into
//     the scratch image (BINDING_SCRATCH), columns from it into the layer (BINDING_LAYER); each reads with the
//     border rule, as the uniform separable variants do;
//   PASS 2, blend: layer j has radius rho_j = round(j R / LAYERS) (R = u_pass.x; layer 0 is the
//     source); pixel p of level r blends the layers j and j + 1 with rho_j <= r < rho_j+1 linearly
//     in r (layers 1..4 fetched from texture units BINDING_LAYER1..4: with the source, target, levels
//     and weights, six images would not fit in the 8 image units GL guarantees).
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"
#include "variable_common.glsl"

#ifndef PASS
#error PASS (0 rows, 1 columns, 2 blend) is not defined
#endif
const int LAYERS = 4;

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

#if PASS == 0
layout(rgba32f, binding = BINDING_SCRATCH) uniform restrict writeonly image2D u_scratch;
#elif PASS == 1
layout(rgba32f, binding = BINDING_SCRATCH) uniform restrict readonly image2D u_scratch;
layout(rgba32f, binding = BINDING_LAYER) uniform restrict writeonly image2D u_layer;
// Texel p of the row-blurred scratch image with the border rule (a row outside, of the constant,
// blurred along x, is the constant).
vec4 scratch_texel(ivec2 p) {
#if BORDER == BORDER_CONSTANT
  return border_outside(p, imageSize(u_scratch)) ? border_value() : imageLoad(u_scratch, p);
#else
  return imageLoad(u_scratch, border_texel(p, imageSize(u_scratch)));
#endif
}
#else
layout(binding = BINDING_LAYER1) uniform sampler2D u_layer1;
layout(binding = BINDING_LAYER2) uniform sampler2D u_layer2;
layout(binding = BINDING_LAYER3) uniform sampler2D u_layer3;
layout(binding = BINDING_LAYER4) uniform sampler2D u_layer4;
vec4 layer(int j, ivec2 p) {
  if (j == 0) return source_texel(p);
  if (j == 1) return texelFetch(u_layer1, p, 0);
  if (j == 2) return texelFetch(u_layer2, p, 0);
  if (j == 3) return texelFetch(u_layer3, p, 0);
  return texelFetch(u_layer4, p, 0);
}
// Layer j's radius, round(j R / LAYERS), halves up (as the host computes it).
int layer_radius(int j, int R) { return (2 * j * R + LAYERS) / (2 * LAYERS); }
#endif

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, source_size()))) return;  // no barrier follows
#if PASS == 0
  int r = int(u_pass.x);
  vec4 sum = vec4(0.0);
  for (int i = -r; i <= r; ++i) sum += level_weight(r, i) * source_texel(p + ivec2(i, 0));
  imageStore(u_scratch, p, sum);
#elif PASS == 1
  int r = int(u_pass.x);
  vec4 sum = vec4(0.0);
  for (int j = -r; j <= r; ++j) sum += level_weight(r, j) * scratch_texel(p + ivec2(0, j));
  imageStore(u_layer, p, sum);
#else
  int R = int(u_pass.x), r = pixel_level(p);
  int j = LAYERS;
  while (j > 0 && layer_radius(j, R) > r) --j;
  vec4 v = layer(j, p);
  if (j < LAYERS) {
    int lo = layer_radius(j, R), hi = layer_radius(j + 1, R);
    v = mix(v, layer(j + 1, p), float(r - lo) / float(hi - lo));
  }
  store_target(p, v);
#endif
}
