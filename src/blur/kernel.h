#pragma once
// Blur kernels and their weights: computed once, on the CPU, here and nowhere else.
#include <optional>
#include <string_view>
#include <vector>

namespace blurlab {

enum class KernelType { Box, Gauss };
std::string_view name(KernelType type);
std::optional<KernelType> parse_kernel_type(std::string_view text);

// The largest radius a kernel may have (the weights block holds 2 kMaxRadius + 1 taps). Most
// variants stop at kMaxDirectRadius, where their cost, which grows with r, is already far past any
// other's (VariantInfo::max_radius); the variants whose cost does not grow with r (the FFT, the
// recursive filters, the approximations by passes) take every radius up to here: an effect's PSF
// of 5% of a 4K frame's height needs r = 324.
inline constexpr int kMaxRadius = 512;
inline constexpr int kMaxDirectRadius = 128;
inline constexpr double kMaxSigma = 1000.0;
inline constexpr int kDefaultRadius = 16;

struct Kernel {
  KernelType type = KernelType::Gauss;
  int radius = kDefaultRadius;        // taps -radius..radius; 0 is the identity
  double sigma = kDefaultRadius / 3.0;  // Gaussian only (0 for box)

  bool operator==(const Kernel&) const = default;
};

// Completes what the user gave: with only sigma, r = ceil(3 sigma); with only r, sigma = r / 3;
// with neither, r = 16. Throws blurlab::Error when a value is out of range.
Kernel make_kernel(KernelType type, std::optional<int> radius, std::optional<double> sigma);
// ceil(3 sigma): the radius make_kernel gives a sigma alone.
int radius_for_sigma(double sigma);

// The 2r+1 weights, index i + r for offset i; they sum to 1 and are symmetric.
std::vector<double> kernel_weights(const Kernel& kernel);

// Hardware-linear sampling: one bilinear fetch at offset o + t between texels o and o+1
// returns (1-t) P[o] + t P[o+1]; scaled by W = w[o] + w[o+1] with t = w[o+1] / W it equals
// w[o] P[o] + w[o+1] P[o+1]. The centre tap is fetched alone; on each side the taps are
// grouped (1,2), (3,4), ... and when r is odd the last group is the single tap r (t = 0).
struct LinearTap {
  double offset;  // from the centre, > 0; the mirrored fetch is at -offset
  double weight;  // W
};
std::vector<LinearTap> linear_taps(const std::vector<double>& weights);

}  // namespace blurlab
