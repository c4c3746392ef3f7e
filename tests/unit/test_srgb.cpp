// The sRGB transfer function against values from its definition (IEC 61966-2-1), computed in
// Python's decimal module: ((v + 0.055) / 1.055) ** 2.4 and 1.055 * v ** (1 / 2.4) - 0.055.
#include <gtest/gtest.h>

#include <cmath>

#include "image/srgb.h"

namespace blurlab {
namespace {

TEST(Srgb, KnownValues) {
  EXPECT_EQ(srgb_to_linear(0.0), 0.0);
  EXPECT_DOUBLE_EQ(srgb_to_linear(1.0), 1.0);
  EXPECT_NEAR(srgb_to_linear(0.5), 0.21404114048223244, 1e-15);
  EXPECT_NEAR(srgb_to_linear(0.04045), 0.04045 / 12.92, 1e-17);  // the linear segment's end
  EXPECT_NEAR(srgb_to_linear(188 / 255.0), 0.5028864580325684, 1e-15);
  EXPECT_EQ(linear_to_srgb(0.0), 0.0);
  EXPECT_DOUBLE_EQ(linear_to_srgb(1.0), 1.0);
  EXPECT_NEAR(linear_to_srgb(0.5), 0.7353569830524495, 1e-15);
  EXPECT_NEAR(linear_to_srgb(0.0031308), 0.0031308 * 12.92, 1e-17);
  EXPECT_NEAR(linear_to_srgb(0.18), 0.46135612950044164, 1e-15);  // middle grey
}

TEST(Srgb, RoundTripsAndIsMonotonic) {
  double previous = -1.0;
  for (int k = 0; k <= 65535; ++k) {
    const double encoded = k / 65535.0;
    const double linear = srgb_to_linear(encoded);
    ASSERT_NEAR(linear_to_srgb(linear), encoded, 1e-12) << k;
    ASSERT_GT(linear, previous) << k;
    previous = linear;
  }
  // The two pieces meet: no step at the joins beyond the standard's rounding of its constants.
  EXPECT_NEAR(srgb_to_linear(0.04045 + 1e-12), srgb_to_linear(0.04045), 1e-8);  // 2.3e-9 apart
  EXPECT_NEAR(linear_to_srgb(0.0031308 + 1e-12), linear_to_srgb(0.0031308), 1e-7);  // 2.9e-8 apart
}

TEST(Srgb, BeyondZeroToOneFollowsTheFormulas) {
  EXPECT_DOUBLE_EQ(srgb_to_linear(-0.5), -srgb_to_linear(0.5));
  EXPECT_DOUBLE_EQ(linear_to_srgb(-0.5), -linear_to_srgb(0.5));
  EXPECT_NEAR(linear_to_srgb(srgb_to_linear(1.5)), 1.5, 1e-12);  // HDR values round-trip
  EXPECT_TRUE(std::isnan(srgb_to_linear(std::nan(""))));
  // Float arguments work (they are widened; the curve is evaluated in double).
  EXPECT_NEAR(srgb_to_linear(0.5f), 0.21404114048223244, 1e-15);
}

}  // namespace
}  // namespace blurlab
