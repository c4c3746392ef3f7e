#pragma once
// Comparing a variant's output with the CPU reference, with tolerances that state their reason.
#include <array>
#include <string>

#include "blur/blur.h"
#include "blur/reference.h"
#include "image/image.h"

namespace blurlab {

struct Tolerance {
  bool lsb = true;       // rgba8 output: integer error in 8-bit steps against the rounded reference
  int lsb_limit = 1;
  // Float output: |gpu - ref| <= relative * |ref| + absolute at every texel.
  double relative = 0.0;
  double absolute = 0.0;
  std::string reason;
};

// The tolerance for a variant's output with these settings, for an input whose largest
// magnitude is `input_peak` (a constant border's value counts as input). An approximation states
// its own (ApproximationInfo::tolerance).
Tolerance tolerance_for(const VariantInfo& variant, const BlurSettings& resolved, glm::ivec2 size, double input_peak);

// What a variant's output must match: the CPU model of its algorithm for an approximation,
// otherwise the reference blur with reference_kernel().
ReferenceImage expected_output(const VariantInfo& variant, const BlurSettings& resolved, const Image& input);

// The bound of |GPU - model| an approximation states as its tolerance, built pass by pass in the
// order the GPU runs them: what each step adds where the GPU and the model may compute or round
// differently. The model rounds wherever the GPU stores (to the same format); what remains is
// rounding the model cannot know: fp32 arithmetic, GL's choice of rounding for float-to-half,
// texture units' filtering, and values that land next to a rounding boundary.
class ModelErrorBound {
 public:
  ModelErrorBound(gl::Format input_format, double input_peak);
  // A pass whose outputs are sums of its inputs with weights of absolute sum `l1` (1 for an
  // average): an error of the inputs grows by that factor (and so may the values).
  void gain(double l1);
  // fp32 arithmetic: `terms` roundings, each at most 2^-24 of the largest value.
  void fp32(double terms);
  // A pass averaging bilinear fetches (weights summing to 1) of a texture of `format` whose sides
  // are at most `extent` texels, at positions whose fractions are multiples of 1/8. The position's
  // fp32 error, three roundings of values up to the extent, moves the bilinear weight by at most
  // e = 3 x 2^-24 x extent: float textures filter with the moved weight (llvmpipe: each axis off
  // by e times the values' range); texture units that quantize weights to 8 bits (llvmpipe for
  // rgba8, NVIDIA for every format) keep the exact weight while e < 1/512, else are off by 1/256.
  // And rgba8 fetches may be filtered in 8-bit fixed point (llvmpipe: each of the two lerps of a 2D
  // fetch rounds to 8 bits, half up): half a step per lerp, one step per fetch (texels 1, 0, 1, 2
  // steps around a corner: the mean is 1, the lerps give 1 and 2, then 2). fp16 fetches may be
  // rounded to fp16 after filtering by a GPU's texture units: half a unit in the last place.
  void filtered_fetches(gl::Format format, double extent);
  // The pass stores its output in `format` (not the last pass: its store is the output).
  // rgba8: both round to the nearest step, so results differ by at most floor(d) + 1 steps, or
  // not at all when every exact value lies at least `tie_distance` steps from a rounding boundary
  // and d is below that; that case needs the shader to round to the step itself (GL may convert
  // a float to unorm8 as either neighbouring step; a whole step converts exactly). fp16: GL may
  // truncate (llvmpipe does) where the model rounds to nearest: 1.5 units in the last place. fp32:
  // 1.5 units in the last place.
  void store(gl::Format format, double tie_distance = 0.0);
  // The tolerance of the output (stored in the input format), with the reason `what` (the
  // algorithm) followed by the terms.
  Tolerance tolerance(const std::string& what) const;

 private:
  gl::Format input_;
  double peak_;
  double magnitude_;  // largest value a pass may hold
  double bound_ = 0.0;
  int rgba8_stores_ = 0, tie_free_stores_ = 0, fp16_stores_ = 0, fp32_stores_ = 0, filtered_passes_ = 0;
  double fp32_terms_ = 0.0, filtering_ = 0.0;
};

// How close an approximation comes to the exact Gaussian it stands in for, over every texel and
// channel, in 8-bit steps of the input's range (1/255 of the peak; for rgba8 input the peak is 1).
struct Fidelity {
  double sigma = 0.0;    // the sigma compared with: the one the variant declares
  double max_lsb = 0.0;
  double rms_lsb = 0.0;
  double psnr_db = 0.0;  // 20 log10(255 / rms_lsb); infinite when equal
};
// The PSNR against the exact kernel at or above which an approximation stands in for it: the
// report's conclusion picks only such, and --export warns below it.
inline constexpr double kFidelityBarDb = 50.0;
// The exact Gaussian of `sigma` as the exact variants blur it (r = ceil(3 sigma), the integrated
// weights), at any radius; sigma 0 is the identity.
Kernel fidelity_kernel(double sigma);
// What an approximation's fidelity is measured against: for a variable-radius one the exact
// per-pixel kernel (reference_variable_blur), else the exact Gaussian of the sigma it declares.
ReferenceImage fidelity_reference(const VariantInfo& variant, const BlurSettings& resolved, const Image& input);
// The output (in `format`, the input's) against `exact` as that format stores it: an rgba8
// output equal to the exact kernel's rounded to its step is 0 LSB off, not the up to half a step
// between the step and the unrounded value. Steps of the input's range: 1/255 for rgba8, 1/255 of
// `input_peak` for float input.
Fidelity measure_fidelity(const Image& output, const ReferenceImage& exact, gl::Format format, double input_peak, double sigma);

struct CheckResult {
  std::array<double, 4> max_error{};  // per channel: LSB for rgba8, absolute for float formats
  double worst_fraction = 0.0;        // largest error / allowed error over all texels (> 1 fails)
  int worst_x = 0, worst_y = 0, worst_channel = 0;
  // At the worst texel: the GPU's value, the reference's and the error allowed there (LSB steps
  // for rgba8: what the check compares; else the float values), so a failure says what it saw.
  double worst_gpu = 0.0, worst_reference = 0.0, worst_allowed = 0.0;
  bool ok = true;
  // Counts one compared value: its channel's largest error, and the worst texel if its error over
  // the error allowed there is the largest so far (none allowed: any error is infinitely over).
  void count(int x, int y, int channel, double seen, double expected, double error, double allowed);
  std::string text() const;        // "R 0 G 1 B 1 A 0 LSB"
  std::string worst_text() const;  // "worst at 3,2 G: GPU 131, reference 128, allowed 2 LSB (1.5x)"
  bool lsb = true;
};

CheckResult compare_to_reference(const Image& gpu, const ReferenceImage& reference, const Tolerance& tolerance);
// A float output against its reference where the error allowed differs from texel to texel:
// |gpu - reference| <= allowed at each texel and channel (a bound the caller computed with the
// reference, e.g. from the magnitudes a sum added up there).
CheckResult compare_within(const Image& gpu, const ReferenceImage& reference, const ReferenceImage& allowed);
double peak_magnitude(const Image& image);

}  // namespace blurlab
