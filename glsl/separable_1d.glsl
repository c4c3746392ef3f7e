// separable_1d.glsl: one pass of the separable blur, the 2r+1 taps of texel p along AXIS
// (0 = horizontal, 1 = vertical). Include after a source hook (source_image.glsl or
// source_sampler.glsl).
const ivec2 AXIS_STEP = AXIS == 0 ? ivec2(1, 0) : ivec2(0, 1);

vec4 separable_1d(ivec2 p) {
  vec4 sum = vec4(0.0);
  for (int i = -RADIUS; i <= RADIUS; ++i) sum += tap_weight(i) * source_texel(p + i * AXIS_STEP);
  return sum;
}
