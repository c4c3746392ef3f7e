#pragma once
// What the register-blocked variants (compute-inline-regblock, compute-separable-regblock) share
// about glsl/regblock_common.glsl: how many loop iterations one line segment of K outputs runs,
// and how many fp32 roundings a box output accumulates through its running sums.
#include <algorithm>
#include <cmath>
#include <vector>

#include "blur/blur.h"

namespace blurlab::regblock {

// The register block along a row (BLOCK_X): consecutive outputs one invocation computes.
inline Knob block_x_knob(std::vector<int> candidates) {
  return {.name = "block-x",
          .help = "Register block: consecutive outputs per invocation along a row (the horizontal stage; both transposing passes)",
          .define = "BLOCK_X",
          .min = 1,
          .max = 64,
          .candidates = integer_values(candidates)};
}

// How the weighted taps of a line segment are summed (STREAM_TAPS in glsl/regblock_common.glsl):
// every loop with compile-time bounds, which compilers unroll whole where they can (immediate
// weights, no loop), or the middle of the window streamed through a loop that stays one, its
// weights read by vec4 from the uniform block (no cliff at large r: docs/PERFORMANCE.md).
inline Knob taps_knob(std::vector<int> candidates) {
  return {.name = "taps",
          .help = "Weighted taps: unrolled (all loops compile-time) or streamed (a run-time loop over blocks of 8 inputs: large r)",
          .define = "STREAM_TAPS",
          .type = KnobType::Choice,
          .choices = {{"unrolled", 0}, {"streamed", 1}},
          .candidates = integer_values(candidates)};
}
// The variant's taps knob (its own default_by_radius) streams this setting's weighted taps.
inline bool streamed_taps(const BlurSettings& s, const Knob& taps) { return s.kernel.type != KernelType::Box && s.integer(taps) == 1; }

// Inputs per iteration of the streamed loop (RB_STREAM_INPUTS in the shader).
inline constexpr int kStreamInputs = 8;

// One line segment of `outputs` consecutive outputs, every iteration of every loop as written:
// an upper bound, as compilers unroll the short constant loops.
inline double line_iterations(const BlurSettings& s, int outputs, bool streamed) {
  const double r = s.kernel.radius, k = outputs, taps = 2 * r + 1, inputs = k + 2 * r;
  if (s.kernel.type == KernelType::Box) return taps + (k - 1) + k;  // first sum, slide, scale
  if (streamed) {
    const double blocks = std::floor(std::max(taps - (k - 1), 0.0) / kStreamInputs);
    const double rest = inputs - (k - 1) - blocks * kStreamInputs, weight_vec4s = std::ceil((k + kStreamInputs - 1) / 4);
    return k + (k - 1) * (1 + k)                                    // zero, head inputs x outputs
           + blocks * (1 + weight_vec4s + kStreamInputs * (1 + k))  // streamed blocks: weights, inputs x outputs
           + rest * (1 + k);                                        // the rest, inputs x outputs
  }
  const double full = std::floor(taps / k), tail_start = std::max(k, full * k);
  return k + k * (1 + k)                                // zero, head inputs x outputs
         + std::max(full - 1, 0.0) * (1 + k * (1 + k))  // full blocks of k inputs x outputs
         + (inputs - tail_start) * (1 + k);             // tail inputs x outputs
}

// fp32 roundings per output: weighted, 2r+1 FMAs per stage (2(2r+1) + 2 with the output). Box:
// per stage the first sum (2r+1 adds), two per slide step (kx - 1 and ky - 1), the scale and the
// weight's own rounding; plus the output.
inline double accumulated_terms(const BlurSettings& s, int kx, int ky) {
  const double taps = 2.0 * s.kernel.radius + 1.0;
  if (s.kernel.type != KernelType::Box) return 2.0 * taps + 2.0;
  return 2.0 * (taps + 2.0) + 2.0 * (kx - 1) + 2.0 * (ky - 1) + 2.0;
}

}  // namespace blurlab::regblock
