#pragma once
// Shared by the hardware-linear variants (frag-separable-linear, compute-separable-linear,
// frag-linear-2d) and their shader include glsl/linear_common.glsl.
#include "blur/blur.h"

namespace blurlab::linear {

// Bilinear fetches per axis: the centre, then the groups of linear_taps() on both sides
// (LINEAR_SAMPLES in the shader): r+1 for even r, r+2 for odd r (the last group is one tap).
inline int samples_per_axis(int radius) { return 2 * ((radius + 1) / 2) + 1; }

// fp32 roundings one output accumulates, for the float bound (in units of 2^-24 of the peak).
// Each fetch adds one rounding to the sum, and the filter's own lerp a + t (b - a) rounds twice
// per filtered axis; the fetches' weights sum to 1, so the lerps count once per pass, not per fetch.
// Two passes of n fetches and one lerp axis each, plus the output's rounding (as the default).
inline double separable_terms(const BlurSettings& s, glm::ivec2 /*size*/) {
  return 2.0 * (samples_per_axis(s.kernel.radius) + 2.0) + 2.0;
}
// One pass of n x n fetches: n row sums of n terms, the sum of the rows, and a 2D lerp (4).
inline double grid_2d_terms(const BlurSettings& s, glm::ivec2 /*size*/) {
  const double n = samples_per_axis(s.kernel.radius);
  return n * n + n + 4.0;
}
// Loop iterations of one invocation of the 2D variant: n rows of n fetches.
inline double grid_2d_iterations(const BlurSettings& s, glm::ivec2 /*size*/) {
  const double n = samples_per_axis(s.kernel.radius);
  return n * n + n;
}

// Own bounds (VariantInfo::own_bound): n bilinear fetches per axis, each weighted (4 FMAs); two
// passes through the intermediate format, or one pass of n x n fetches.
inline WorkBound separable_bound(const BlurSettings& s, glm::ivec2 size) {
  const double pixels = static_cast<double>(size.x) * size.y, fetches = 2.0 * samples_per_axis(s.kernel.radius) * pixels;
  const gl::Format in = s.input_format, mid = s.intermediate_format();
  return {.bytes = pass_bytes(size, in, size, mid) + pass_bytes(size, mid, size, in), .bilinear_fetches = fetches, .fmas = 4.0 * fetches};
}
inline WorkBound grid_2d_bound(const BlurSettings& s, glm::ivec2 size) {
  const double n = samples_per_axis(s.kernel.radius), fetches = n * n * size.x * size.y;
  return {.bytes = pass_bytes(size, s.input_format, size, s.input_format), .bilinear_fetches = fetches, .fmas = 4.0 * fetches};
}

}  // namespace blurlab::linear
