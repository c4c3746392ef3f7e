#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "blur/kernel.h"
#include "util/error.h"

namespace blurlab {
namespace {

double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

TEST(Kernel, WeightsSumToOneAndAreSymmetric) {
  for (KernelType type : {KernelType::Box, KernelType::Gauss})
    for (int r : {0, 1, 2, 7, 16, 33, 64, 128}) {
      const auto w = kernel_weights(make_kernel(type, r, std::nullopt));
      ASSERT_EQ(w.size(), static_cast<size_t>(2 * r + 1));
      EXPECT_NEAR(sum(w), 1.0, 1e-14) << name(type) << " r=" << r;
      for (int i = 0; i <= r; ++i) EXPECT_EQ(w[static_cast<size_t>(r + i)], w[static_cast<size_t>(r - i)]);
      for (double v : w) EXPECT_GT(v, 0.0);
    }
}

TEST(Kernel, RadiusZeroIsIdentity) {
  EXPECT_EQ(kernel_weights(make_kernel(KernelType::Box, 0, std::nullopt)), std::vector<double>{1.0});
  EXPECT_EQ(kernel_weights(make_kernel(KernelType::Gauss, 0, 2.0)), std::vector<double>{1.0});
}

TEST(Kernel, BoxIsFlat) {
  const auto w = kernel_weights(make_kernel(KernelType::Box, 5, std::nullopt));
  for (double v : w) EXPECT_DOUBLE_EQ(v, 1.0 / 11.0);
}

TEST(Kernel, GaussianIsTheDensityIntegratedOverEachPixel) {
  // sigma = 1, r = 3: w_i = P(i - 1/2 < Z < i + 1/2) / P(-3.5 < Z < 3.5) for standard normal Z.
  // Values from mpmath at 30 digits (ncdf(b) - ncdf(a)), independent of the C library's erf.
  const double p0 = 0.382924922548026207275, p1 = 0.241730337457128830358, p2 = 0.0605975359430819308375,
               p3 = 0.00597703624674061013063;
  const auto w = kernel_weights(make_kernel(KernelType::Gauss, 3, 1.0));
  const double total = p0 + 2 * (p1 + p2 + p3);
  EXPECT_NEAR(w[3], p0 / total, 1e-15);
  EXPECT_NEAR(w[4], p1 / total, 1e-15);
  EXPECT_NEAR(w[5], p2 / total, 1e-15);
  EXPECT_NEAR(w[6], p3 / total, 1e-15);
  // Not the sampled density, which would give the centre exp(0) / sum exp(-i^2/2) = 0.4026.
  EXPECT_LT(w[3], 0.39);
}

TEST(Kernel, TinySigmaPutsEverythingInTheCentre) {
  const auto w = kernel_weights(make_kernel(KernelType::Gauss, 4, 0.05));
  EXPECT_NEAR(w[4], 1.0, 1e-15);
  EXPECT_NEAR(sum(w), 1.0, 1e-15);
}

TEST(Kernel, FillsRadiusOrSigma) {
  EXPECT_EQ(make_kernel(KernelType::Gauss, std::nullopt, 10.0).radius, 30);
  EXPECT_EQ(make_kernel(KernelType::Gauss, std::nullopt, 0.1).radius, 1);
  EXPECT_EQ(make_kernel(KernelType::Gauss, std::nullopt, 2.5).radius, 8);  // ceil(7.5)
  EXPECT_DOUBLE_EQ(make_kernel(KernelType::Gauss, 12, std::nullopt).sigma, 4.0);
  EXPECT_EQ(make_kernel(KernelType::Gauss, std::nullopt, std::nullopt).radius, kDefaultRadius);
  const Kernel both = make_kernel(KernelType::Gauss, 16, 10.0);
  EXPECT_EQ(both.radius, 16);
  EXPECT_DOUBLE_EQ(both.sigma, 10.0);
}

TEST(Kernel, RejectsOutOfRangeWithoutCommandLineWords) {
  // The kernel speaks of radius and sigma; the command line adds its option names (cli/).
  auto message = [](std::optional<int> r, std::optional<double> sigma, KernelType type = KernelType::Gauss) {
    try {
      make_kernel(type, r, sigma);
    } catch (const Error& e) {
      EXPECT_EQ(dynamic_cast<const UsageError*>(&e), nullptr) << "not a usage error: no option to blame here";
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message(-1, std::nullopt), "radius -1 is out of range 0..512");
  EXPECT_EQ(message(513, std::nullopt), "radius 513 is out of range 0..512");
  EXPECT_EQ(message(std::nullopt, 0.0), "sigma 0 is out of range (0, 1000]");
  EXPECT_EQ(message(std::nullopt, -2.0), "sigma -2 is out of range (0, 1000]");
  EXPECT_EQ(message(std::nullopt, 171.0), "sigma 171 needs radius 513 (3 sigma), above 512");
  EXPECT_EQ(message(std::nullopt, 170.6), "accepted");
  EXPECT_EQ(message(3, 1.0, KernelType::Box), "a box kernel has no sigma");
  for (const std::string& m : {message(513, std::nullopt), message(std::nullopt, 171.0)}) EXPECT_EQ(m.find("--"), std::string::npos) << m;
}

TEST(Kernel, LinearTapsReproduceTheWeights) {
  for (KernelType type : {KernelType::Box, KernelType::Gauss})
    for (int r : {1, 2, 3, 7, 16, 33}) {
      const auto w = kernel_weights(make_kernel(type, r, std::nullopt));
      const auto taps = linear_taps(w);
      ASSERT_EQ(taps.size(), static_cast<size_t>((r + 1) / 2));
      std::vector<double> rebuilt(static_cast<size_t>(r + 2), 0.0);  // offsets 0..r+1 (r+1 must stay 0)
      for (const LinearTap& tap : taps) {
        const int i = static_cast<int>(std::floor(tap.offset));
        const double t = tap.offset - i;
        rebuilt[static_cast<size_t>(i)] += tap.weight * (1.0 - t);
        rebuilt[static_cast<size_t>(i + 1)] += tap.weight * t;
      }
      for (int i = 1; i <= r; ++i) EXPECT_NEAR(rebuilt[static_cast<size_t>(i)], w[static_cast<size_t>(r + i)], 1e-15);
      EXPECT_NEAR(rebuilt[static_cast<size_t>(r + 1)], 0.0, 1e-15) << "the kernel's edge must not leak";
    }
}

}  // namespace
}  // namespace blurlab
