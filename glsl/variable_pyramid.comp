#version 430 core
// variable-pyramid: a mip pyramid read between two levels by each pixel's radius, an
// approximation (its CPU model: src/variants/variable_pyramid.cpp). Two passes of this file:
//   PASS 0, down, level k = 1..K (u_pass.x = k): texel i of level k is the mean of the 2x2 texels
//     2i + {0,1} of level k - 1 (the source for k = 1), read with the border rule of level k - 1's
//     size (an odd edge's missing partner included). Levels 1..K lie side by side in one rgba32f
//     atlas (BINDING_ATLAS): level k of ceil(W / 2^k) x ceil(H / 2^k) texels at x = the widths of
//     levels 1..k-1 summed.
//   PASS 1, blend: pixel p of level r blends the two levels k, k + 1 whose blend has its kernel's
//     variance v (box: r (r + 1) / 3; Gaussian: sigma_r^2 with sigma_r = u_pass.y r): level k read
//     bilinearly at pixel centres has variance 4^(k - 1) (0 for k = 0, the source; the host's
//     level_variance() derives it), so t = (v - V(k)) / (V(k + 1) - V(k)), level K (u_pass.z)
//     alone past it. Each level is read bilinearly at p's centre, (p + 1/2) / 2^k in level k's
//     texels, with its border rule.
#include "blur_common.glsl"
#include "source_image.glsl"
#include "target_image.glsl"
#include "variable_common.glsl"

#ifndef PASS
#error PASS (0 down, 1 blend) is not defined
#endif

#if PASS == 0
layout(rgba32f, binding = BINDING_ATLAS) uniform restrict image2D u_atlas;
layout(local_size_x = 8, local_size_y = 8) in;
#else
layout(rgba32f, binding = BINDING_ATLAS) uniform restrict readonly image2D u_atlas;
layout(local_size_x = WG_X, local_size_y = WG_Y) in;
#endif

// Level k: its size, ceil(size / 2^k) (nested halvings rounded up are the same), and its x in the
// atlas (computed once per level and invocation: the loop is not repeated per texel read).
struct Level {
  int k;
  ivec2 size;
  int offset;
};
Level level(int k) {
  ivec2 size = source_size();
  int x = 0;
  for (int j = 1; j < k; ++j) x += (size.x + (1 << j) - 1) >> j;
  return Level(k, (size + (1 << k) - 1) >> k, x);
}

// Texel q of a level with the border rule of its size; level 0 is the source.
vec4 level_texel(Level l, ivec2 q) {
  if (l.k == 0) return source_texel(q);
#if BORDER == BORDER_CONSTANT
  if (border_outside(q, l.size)) return border_value();
#else
  q = border_texel(q, l.size);
#endif
  return imageLoad(u_atlas, ivec2(l.offset + q.x, q.y));
}

#if PASS == 1
// A level read bilinearly at pixel p's centre: (p + 1/2) / 2^k in its texels (exact in fp32).
vec4 level_sample(Level l, ivec2 p) {
  if (l.k == 0) return source_texel(p);
  vec2 u = (vec2(p) + 0.5) / float(1 << l.k) - 0.5;
  vec2 f = floor(u), t = u - f;
  ivec2 q = ivec2(f);
  vec4 top = mix(level_texel(l, q), level_texel(l, q + ivec2(1, 0)), t.x);
  vec4 bottom = mix(level_texel(l, q + ivec2(0, 1)), level_texel(l, q + ivec2(1, 1)), t.x);
  return mix(top, bottom, t.y);
}
// Level k's blur, read bilinearly at pixel centres: 4^(k - 1) texels^2, none for the source (exact
// integers: 1 << 2(k - 1)).
float level_variance(int k) { return k == 0 ? 0.0 : float(1 << (2 * (k - 1))); }
#endif

void main() {
#if PASS == 0
  Level to = level(int(u_pass.x)), from = level(to.k - 1);
  ivec2 i = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(i, to.size))) return;  // no barrier follows
  ivec2 q = 2 * i;
  vec4 sum = level_texel(from, q) + level_texel(from, q + ivec2(1, 0)) + level_texel(from, q + ivec2(0, 1)) +
             level_texel(from, q + ivec2(1, 1));
  imageStore(u_atlas, ivec2(to.offset + i.x, i.y), sum * 0.25);
#else
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, target_size()))) return;  // no barrier follows
  int r = pixel_level(p), levels = int(u_pass.z);
  float sigma_r = u_pass.y * float(r);
  float variance = u_pass.y > 0.0 ? sigma_r * sigma_r : float(r * (r + 1)) / 3.0;
  int k = 0;
  while (k < levels && level_variance(k + 1) <= variance) ++k;
  float t = k < levels ? (variance - level_variance(k)) / (level_variance(k + 1) - level_variance(k)) : 0.0;
  vec4 v = level_sample(level(k), p);
  if (t > 0.0) v = mix(v, level_sample(level(k + 1), p), t);
  store_target(p, v);
#endif
}
