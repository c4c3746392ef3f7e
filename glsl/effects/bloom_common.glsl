// bloom_common.glsl: what bloom's passes share (src/effects/bloom.h has the formulas):
// u_pass = (intensity k, threshold, knee, 0) in the passes that prefilter or composite.
#include "pass_values.glsl"
#include "effects/tonemap.glsl"

// The fraction of a pixel's radiance that blooms: the brightest channel b against the threshold
// with a soft knee (a quadratic from threshold - knee to threshold + knee); 0 where b is 0
// (bloom::prefilter_fraction).
float prefilter_fraction(vec3 c) {
  float b = max(max(c.r, c.g), c.b);
  if (b <= 0.0) return 0.0;
  float threshold = u_pass.y, knee = u_pass.z;
  float q = 0.0;
  if (knee > 0.0) {
    q = clamp(b - threshold + knee, 0.0, 2.0 * knee);
    q = q * q / (4.0 * knee);
  }
  return max(q, b - threshold) / b;
}

// The light of a pixel of radiance h that blooms: all of it without a threshold (PREFILTER 0).
vec3 blooming_light(vec3 h) {
#if PREFILTER
  return h * prefilter_fraction(h);
#else
  return h;
#endif
}

// The picture: display(H + k (L - P)), energy-conserving.
vec4 bloom_picture(vec3 h, vec3 layer) { return display_value(h + u_pass.x * (layer - blooming_light(h))); }
