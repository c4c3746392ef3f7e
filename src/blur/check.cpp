#include "blur/check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "util/strings.h"

namespace blurlab {

namespace {

// Relative error of storing a shader's fp32 result in the format. GL leaves the rounding mode of
// float-to-half conversion to the implementation (llvmpipe truncates), so fp16 allows one whole
// unit in the last place: 2^-10 of the value. rgba32f stores the fp32 value itself.
double storage_error(gl::Format format) {
  switch (format) {
    case gl::Format::rgba16f: return std::ldexp(1.0, -10);
    case gl::Format::rgba32f: return 0.0;
    case gl::Format::rgba8: return 0.5 / 255.0;  // absolute, in [0, 1]
  }
  return 0.0;
}

}  // namespace

Tolerance tolerance_for(const VariantInfo& variant, const BlurSettings& s, glm::ivec2 size, double input_peak) {
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
  // units. A constant border is a texel of the window too.
  double peak = std::max(input_peak, 1e-30);
  if (s.border.mode == BorderMode::Constant)
    for (float v : s.border.value) peak = std::max(peak, static_cast<double>(std::abs(v)));
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

CheckResult compare_to_reference(const Image& gpu, const ReferenceImage& ref, const Tolerance& tolerance) {
  CheckResult result;
  result.lsb = tolerance.lsb;
  for (int y = 0; y < gpu.height; ++y)
    for (int x = 0; x < gpu.width; ++x)
      for (int c = 0; c < 4; ++c) {
        const double r = ref.at(x, y, c);
        double error, allowed;
        if (tolerance.lsb) {
          error = std::abs(static_cast<int>(to_unorm8(gpu.at(x, y, c))) - static_cast<int>(to_unorm8(r)));
          allowed = tolerance.lsb_limit;
        } else {
          const double g = gpu.at(x, y, c);
          error = std::isfinite(g) ? std::abs(g - r) : INFINITY;
          allowed = tolerance.relative * std::abs(r) + tolerance.absolute;
        }
        result.max_error[static_cast<size_t>(c)] = std::max(result.max_error[static_cast<size_t>(c)], error);
        const double fraction = allowed > 0 ? error / allowed : (error > 0 ? INFINITY : 0.0);
        if (fraction > result.worst_fraction) {
          result.worst_fraction = fraction;
          result.worst_x = x;
          result.worst_y = y;
          result.worst_channel = c;
        }
      }
  result.ok = result.worst_fraction <= 1.0;
  return result;
}

std::string CheckResult::text() const {
  char buffer[160];
  if (lsb)
    std::snprintf(buffer, sizeof buffer, "R %.0f G %.0f B %.0f A %.0f LSB", max_error[0], max_error[1], max_error[2], max_error[3]);
  else
    std::snprintf(buffer, sizeof buffer, "R %.2e G %.2e B %.2e A %.2e", max_error[0], max_error[1], max_error[2], max_error[3]);
  return buffer;
}

double peak_magnitude(const Image& image) {
  double peak = 0.0;
  for (float v : image.texels) peak = std::max(peak, static_cast<double>(std::abs(v)));
  return peak;
}

}  // namespace blurlab
