#include "effects/tonemap.h"

#include <algorithm>
#include <cmath>

#include "image/srgb.h"

namespace blurlab {

namespace {
// Narkowicz's coefficients and exposure (glsl/effects/tonemap.glsl has the same literals).
constexpr double kA = 2.51, kB = 0.03, kC = 2.43, kD = 0.59, kE = 0.14, kExposure = 0.6;
}  // namespace

double tonemap_aces(double radiance) {
  const double x = std::max(radiance, 0.0) * kExposure;
  return std::clamp(x * (kA * x + kB) / (x * (kC * x + kD) + kE), 0.0, 1.0);
}

double display_value(double radiance) { return linear_to_srgb(tonemap_aces(radiance)); }

double aces_white_radiance() {
  // x (a x + b) = x (c x + d) + e: (a - c) x^2 + (b - d) x - e = 0, its positive root.
  const double qa = kA - kC, qb = kB - kD, qc = -kE;
  return (-qb + std::sqrt(qb * qb - 4.0 * qa * qc)) / (2.0 * qa) / kExposure;
}

}  // namespace blurlab
