#include "blur/check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "blur/model.h"
#include "util/error.h"
#include "util/strings.h"

namespace blurlab {

namespace {

// Relative error of storing a shader's fp32 result in the format. GL leaves the rounding mode of
// float-to-half conversion to the implementation (llvmpipe truncates), so fp16 allows one whole
// unit in the last place: 2^-10 of the value. rgba32f stores the fp32 value itself.
double storage_error(gl::Format format) {
  switch (format) {
    case gl::Format::rgba16f: return std::ldexp(1.0, -10);
    case gl::Format::rgba32f:
    case gl::Format::depth32f: return 0.0;
    case gl::Format::rgba8: return 0.5 / 255.0;  // absolute, in [0, 1]
  }
  return 0.0;
}

}  // namespace

Tolerance tolerance_for(const VariantInfo& variant, const BlurSettings& s, glm::ivec2 size, double input_peak) {
  // A constant border is a texel of the window too: its value counts as input.
  if (s.border.mode == BorderMode::Constant)
    for (float v : s.border.value) input_peak = std::max(input_peak, static_cast<double>(std::abs(v)));
  if (variant.approximation.tolerance) return variant.approximation.tolerance(s, size, input_peak);
  if (variant.own_tolerance) return variant.own_tolerance(s, size, input_peak);
  Tolerance t;
  if (s.input_format == gl::Format::rgba8) {
    t.lsb = true;
    t.lsb_limit = variant.tolerance_lsb;
    t.reason = !is_blur(variant)              ? "exact: a copy"
               : variant.hardware_filtering ? "2 LSB: texture units filter with 8-bit weights"
                                            : "1 LSB: rgba8 rounding (of the intermediate, then of the output)";
    return t;
  }
  // Float output: rounding of the output value, plus errors that scale with the input's peak
  // (any texel of the window can contribute them): rounding of a float intermediate, fp32
  // accumulation (at most one rounding of 2^-24 per term), and 8-bit filter weights of texture
  // units.
  const double peak = std::max(input_peak, 1e-30);
  t.lsb = false;
  t.relative = storage_error(s.input_format);
  const int taps = 2 * s.kernel.radius + 1;
  const double terms = variant.accumulated_terms ? variant.accumulated_terms(s, size) : 2.0 * taps + 2.0;
  double absolute = terms * std::ldexp(1.0, -24);
  std::string reason = std::string("float: ") + (t.relative > 0 ? "1 ulp of the fp16 output" : "fp32 output") + " + " +
                       format_double(terms, 4) + " fp32 roundings";
  if (variant.uses_intermediate) {
    absolute += storage_error(s.intermediate_format());
    reason += " + intermediate rounding";
  }
  // Knob values that store at a lower precision (an fp16 shared-memory cache) round once more.
  for (const Knob& k : variant.knobs)
    for (const KnobChoice& c : k.choices)
      if (c.rounding > 0.0 && s.knob(k.name).x == c.value) {
        absolute += c.rounding;
        reason += " + " + std::string(k.name) + " " + std::string(c.label) + " rounding";
      }
  if (variant.hardware_filtering) {
    absolute += 2.0 * std::ldexp(1.0, -9);  // per pass: 8 fractional bits of the weight, half a step
    reason += " + 8-bit filter weights";
  }
  t.absolute = absolute * peak + std::ldexp(1.0, -24);  // last term: float subnormal floor
  t.reason = reason + ", all times the input peak " + format_double(peak, 4);
  return t;
}

ReferenceImage expected_output(const VariantInfo& variant, const BlurSettings& resolved, const Image& input) {
  if (variant.approximation.model) return variant.approximation.model(input, resolved);
  if (variant.variable_radius)
    return reference_variable_blur(input, radius_levels(resolved.radius_map.get(), {input.width, input.height}, resolved.kernel.radius),
                                   resolved.kernel, resolved.border);
  return reference_blur(input, kernel_weights(reference_kernel(variant, resolved)), resolved.border);
}

ReferenceImage fidelity_reference(const VariantInfo& variant, const BlurSettings& resolved, const Image& input) {
  if (variant.variable_radius)
    return reference_variable_blur(input, radius_levels(resolved.radius_map.get(), {input.width, input.height}, resolved.kernel.radius),
                                   resolved.kernel, resolved.border);
  return reference_blur(input, kernel_weights(fidelity_kernel(variant.approximation.choose(resolved).sigma)), resolved.border);
}

namespace {

// The unit in the last place of values up to `magnitude` in a float format of `mantissa_bits`
// (a power of two itself is exact, so values up to 1 round in steps of 2^-11 in fp16).
double ulp_below(double magnitude, int mantissa_bits) {
  return std::ldexp(1.0, std::ilogb(std::max(magnitude * (1.0 - 0x1p-20), 1e-30)) - mantissa_bits);
}

std::string steps_text(double value) { return format_double(value * 255.0, 3); }

}  // namespace

ModelErrorBound::ModelErrorBound(gl::Format input_format, double input_peak)
    : input_(input_format), peak_(input_format == gl::Format::rgba8 ? 1.0 : std::max(input_peak, 1e-30)), magnitude_(peak_) {}

void ModelErrorBound::gain(double l1) {
  bound_ *= l1;
  magnitude_ *= l1;
}

void ModelErrorBound::fp32(double terms) {
  bound_ += terms * std::ldexp(magnitude_, -24);
  fp32_terms_ += terms;
}

void ModelErrorBound::filtered_fetches(gl::Format format, double extent) {
  const double e = 3.0 * std::ldexp(extent, -24);
  double error = e >= 1.0 / 512.0 ? 2.0 * magnitude_ / 256.0 : 0.0;  // a quantized weight one step off, per axis
  if (format == gl::Format::rgba8)
    error += 1.0 / 255.0;
  else
    error += 2.0 * e * magnitude_;
  // A GPU's texture units may return a filtered fp16 texel with fp16 precision: kawase's 2x2
  // averages of an fp16 image (offset 0, weights exactly 1/2) exceed the bound without this term,
  // half a unit in the last place of the values.
  if (format == gl::Format::rgba16f) error += 0.5 * ulp_below(magnitude_, 10);
  bound_ += error;
  filtering_ += error;
  ++filtered_passes_;
}

void ModelErrorBound::store(gl::Format format, double tie_distance) {
  switch (format) {
    case gl::Format::rgba8: {
      const double steps = bound_ * 255.0 * (1.0 + 1e-12);  // a whole number of steps stays whole
      if (tie_distance > 0.0 && steps < tie_distance) {
        bound_ = 0.0;  // both round the same value to the same step
        ++tie_free_stores_;
      } else {
        bound_ = (std::floor(steps) + 1.0) / 255.0;
        ++rgba8_stores_;
      }
      break;
    }
    case gl::Format::rgba16f:
      bound_ += 1.5 * ulp_below(magnitude_, 10);
      ++fp16_stores_;
      break;
    case gl::Format::rgba32f:
    case gl::Format::depth32f:
      bound_ += 1.5 * ulp_below(magnitude_, 23);
      ++fp32_stores_;
      break;
  }
}

Tolerance ModelErrorBound::tolerance(const std::string& what) const {
  std::string terms;
  auto add = [&](int count, const std::string& text) {
    if (count > 0) terms += (terms.empty() ? "" : ", ") + std::to_string(count) + " " + text;
  };
  add(tie_free_stores_, "rgba8 stores of tie-free sums (exact)");
  add(rgba8_stores_, "rgba8 stores (+1 step each)");
  add(fp16_stores_, "fp16 stores (1.5 ulp: GL may truncate)");
  add(fp32_stores_, "fp32 stores (1.5 ulp)");
  if (filtered_passes_ > 0)
    terms += (terms.empty() ? "" : ", ") + std::to_string(filtered_passes_) + " passes of filtered fetches (" +
             format_double(filtering_ * 255.0 / peak_, 3) + " steps)";
  if (fp32_terms_ > 0.0) terms += (terms.empty() ? "" : ", ") + format_double(fp32_terms_, 4) + " fp32 roundings";
  Tolerance t;
  if (input_ == gl::Format::rgba8) {
    t.lsb = true;
    t.lsb_limit = static_cast<int>(std::floor(bound_ * 255.0 * (1.0 + 1e-12))) + 1;
    t.reason = std::to_string(t.lsb_limit) + " LSB against its CPU model (" + what + "): " + steps_text(bound_) +
               " steps before the output's rounding (" + (terms.empty() ? "none" : terms) + ") + 1 for the rounding";
    return t;
  }
  t.lsb = false;
  t.relative = storage_error(input_);
  t.absolute = bound_ + std::ldexp(1.0, -24);  // last term: float subnormal floor
  t.reason = "float, against its CPU model (" + what + "): 1 ulp of the fp16 output + " + format_double(bound_, 3) + " (" +
             (terms.empty() ? "none" : terms) + "), input peak " + format_double(peak_, 4);
  return t;
}

Kernel fidelity_kernel(double sigma) {
  if (!(sigma > 0.0)) return Kernel{KernelType::Box, 0, 0.0};
  return Kernel{KernelType::Gauss, static_cast<int>(std::ceil(3.0 * sigma)), sigma};
}

Fidelity measure_fidelity(const Image& output, const ReferenceImage& exact, gl::Format format, double input_peak, double sigma) {
  const double scale = format == gl::Format::rgba8 ? 1.0 : std::max(input_peak, 1e-30);
  Fidelity f;
  f.sigma = sigma;
  double sum_squares = 0.0;
  for (size_t i = 0; i < output.texels.size(); ++i) {
    // Both as the format holds them: an rgba8 texel comes back as the float nearest k / 255.
    const double error =
        std::abs(model::stored(static_cast<double>(output.texels[i]), format) - model::stored(exact.texels[i], format)) * 255.0 / scale;
    f.max_lsb = std::max(f.max_lsb, std::isfinite(error) ? error : INFINITY);
    sum_squares += error * error;
  }
  f.rms_lsb = output.texels.empty() ? 0.0 : std::sqrt(sum_squares / static_cast<double>(output.texels.size()));
  f.psnr_db = f.rms_lsb > 0.0 ? 20.0 * std::log10(255.0 / f.rms_lsb) : INFINITY;
  return f;
}

CheckResult compare_to_reference(const Image& gpu, const ReferenceImage& ref, const Tolerance& tolerance) {
  CheckResult result;
  result.lsb = tolerance.lsb;
  for (int y = 0; y < gpu.height; ++y)
    for (int x = 0; x < gpu.width; ++x)
      for (int c = 0; c < 4; ++c) {
        const double r = ref.at(x, y, c);
        double error, allowed, seen, expected;
        if (tolerance.lsb) {
          seen = to_unorm8(gpu.at(x, y, c));
          expected = to_unorm8(r);
          error = std::abs(seen - expected);
          allowed = tolerance.lsb_limit;
        } else {
          seen = gpu.at(x, y, c);
          expected = r;
          error = std::isfinite(seen) ? std::abs(seen - r) : INFINITY;
          allowed = tolerance.relative * std::abs(r) + tolerance.absolute;
        }
        result.count(x, y, c, seen, expected, error, allowed);
      }
  result.ok = result.worst_fraction <= 1.0;
  return result;
}

CheckResult compare_within(const Image& gpu, const ReferenceImage& ref, const ReferenceImage& allowed_error) {
  if (gpu.width != ref.width || gpu.height != ref.height || allowed_error.width != ref.width || allowed_error.height != ref.height)
    throw Error("compare_within: the images differ in size");
  CheckResult result;
  result.lsb = false;
  for (int y = 0; y < gpu.height; ++y)
    for (int x = 0; x < gpu.width; ++x)
      for (int c = 0; c < 4; ++c) {
        const double r = ref.at(x, y, c), seen = gpu.at(x, y, c), allowed = allowed_error.at(x, y, c);
        const double error = std::isfinite(seen) ? std::abs(seen - r) : INFINITY;
        result.count(x, y, c, seen, r, error, allowed);
      }
  result.ok = result.worst_fraction <= 1.0;
  return result;
}

void CheckResult::count(int x, int y, int channel, double seen, double expected, double error, double allowed) {
  max_error[static_cast<size_t>(channel)] = std::max(max_error[static_cast<size_t>(channel)], error);
  const double fraction = allowed > 0 ? error / allowed : (error > 0 ? INFINITY : 0.0);
  if (fraction > worst_fraction) {
    worst_fraction = fraction;
    worst_x = x;
    worst_y = y;
    worst_channel = channel;
    worst_gpu = seen;
    worst_reference = expected;
    worst_allowed = allowed;
  }
}

std::string CheckResult::text() const {
  char buffer[160];
  if (lsb)
    std::snprintf(buffer, sizeof buffer, "R %.0f G %.0f B %.0f A %.0f LSB", max_error[0], max_error[1], max_error[2], max_error[3]);
  else
    std::snprintf(buffer, sizeof buffer, "R %.2e G %.2e B %.2e A %.2e", max_error[0], max_error[1], max_error[2], max_error[3]);
  return buffer;
}

std::string CheckResult::worst_text() const {
  char buffer[224], ratio[48] = "no error allowed";
  if (std::isfinite(worst_fraction)) std::snprintf(ratio, sizeof ratio, "%.3gx", worst_fraction);
  const char channel = "RGBA"[std::clamp(worst_channel, 0, 3)];
  if (lsb)
    std::snprintf(buffer, sizeof buffer, "worst at %d,%d %c: GPU %.0f, reference %.0f, allowed %.0f LSB (%s)", worst_x, worst_y,
                  channel, worst_gpu, worst_reference, worst_allowed, ratio);
  else
    std::snprintf(buffer, sizeof buffer, "worst at %d,%d %c: GPU %.9g, reference %.9g, allowed %.3g (%s)", worst_x, worst_y,
                  channel, worst_gpu, worst_reference, worst_allowed, ratio);
  return buffer;
}

double peak_magnitude(const Image& image) {
  double peak = 0.0;
  for (float v : image.texels) peak = std::max(peak, static_cast<double>(std::abs(v)));
  return peak;
}

}  // namespace blurlab
