// naive_2d.glsl: the direct 2D blur, all (2r+1)^2 taps of texel p, weight w(i) w(j): 2r+1
// weighted row sums, each weighted by its row's tap. Include after a source hook
// (source_image.glsl or source_sampler.glsl).
vec4 naive_2d(ivec2 p) {
  vec4 sum = vec4(0.0);
  for (int j = -RADIUS; j <= RADIUS; ++j) {
    vec4 row = vec4(0.0);
    for (int i = -RADIUS; i <= RADIUS; ++i) row += tap_weight(i) * source_texel(p + ivec2(i, j));
    sum += tap_weight(j) * row;
  }
  return sum;
}
