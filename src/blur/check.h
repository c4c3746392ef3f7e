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
// magnitude is `input_peak` (a constant border's value counts as input).
Tolerance tolerance_for(const VariantInfo& variant, const BlurSettings& resolved, glm::ivec2 size, double input_peak);

struct CheckResult {
  std::array<double, 4> max_error{};  // per channel: LSB for rgba8, absolute for float formats
  double worst_fraction = 0.0;        // largest error / allowed error over all texels (> 1 fails)
  int worst_x = 0, worst_y = 0, worst_channel = 0;
  bool ok = true;
  std::string text() const;  // "R 0 G 1 B 1 A 0 LSB"
  bool lsb = true;
};

CheckResult compare_to_reference(const Image& gpu, const ReferenceImage& reference, const Tolerance& tolerance);
double peak_magnitude(const Image& image);

}  // namespace blurlab
