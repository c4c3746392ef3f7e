#pragma once
// Shared by the hardware-linear variants (frag-separable-linear, compute-separable-linear,
// frag-linear-2d) and their shader include glsl/linear_common.glsl.
#include "blur/blur.h"

namespace blurlab::linear {

// Bilinear fetches per axis: the centre, then the groups of linear_taps() on both sides
// (LINEAR_SAMPLES in the shader): r+1 for even r, r+2 for odd r (the last group is one tap).
inline int samples_per_axis(int radius) { return 2 * ((radius + 1) / 2) + 1; }

// fp32 roundings one output accumulates, for the float bound: per pass one per fetch, plus the
// texture unit's own lerps (at most 2 roundings per axis, each of a value below the peak, and
// the fetches' weights sum to 1), plus the output's.
inline double separable_terms(const BlurSettings& s, glm::ivec2 /*size*/) {
  return 2.0 * (samples_per_axis(s.kernel.radius) + 2.0) + 2.0;
}
// One pass: a row sum of n fetches for each of n rows, then the sum of the rows.
inline double grid_2d_terms(const BlurSettings& s, glm::ivec2 /*size*/) {
  const double n = samples_per_axis(s.kernel.radius);
  return n * n + n + 4.0;
}

// Fragment or compute pass along one axis: the shader file takes AXIS 0/1.
inline gl::Defines axis(int a) { return {{"AXIS", a == 0 ? "0" : "1"}}; }

}  // namespace blurlab::linear
