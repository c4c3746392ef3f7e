// tonemap.glsl: how an effect's HDR result becomes the picture it ships, the CPU's
// src/effects/tonemap.cpp in fp32: Narkowicz's fit of the ACES filmic curve, per channel, of 0.6 x,
// then the sRGB encoding (srgb.glsl). Its output is what an rgba8 target stores.
#include "srgb.glsl"

vec3 tonemap_aces(vec3 radiance) {
  vec3 x = max(radiance, vec3(0.0)) * 0.6;
  return clamp(x * (2.51 * x + 0.03) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
}

// Linear radiance to the displayed picture, in [0, 1]; alpha is opaque.
vec4 display_value(vec3 radiance) { return vec4(linear_to_srgb(tonemap_aces(radiance)), 1.0); }
