#include <gtest/gtest.h>

#include <cmath>

#include "blur/kernel.h"
#include "blur/linear_light.h"
#include "blur/reference.h"
#include "image/image.h"

namespace blurlab {
namespace {

TEST(LinearLight, DecodesAndEncodesColourButNotAlpha) {
  Image im(1, 1);
  im.texels = {0.5f, 1.0f, 0.0f, 0.5f};
  const Image linear = decode_srgb(im);
  EXPECT_NEAR(linear.texels[0], 0.21404114, 1e-7);
  EXPECT_EQ(linear.texels[1], 1.0f);
  EXPECT_EQ(linear.texels[3], 0.5f) << "alpha is not a colour";
  const Image back = encode_srgb(linear);
  EXPECT_NEAR(back.texels[0], 0.5f, 1e-6);
  EXPECT_EQ(back.texels[3], 0.5f);
}

TEST(LinearLight, ABlackWhiteEdgeBlursToMidGreyInLightNotInCodeValues) {
  // Black | white: the middle of a symmetric blur is half the light, which sRGB encodes as 188,
  // where a blur of the code values gives 128 (the dark halo of gamma-space blurs).
  Image edge(8, 1);
  for (int x = 4; x < 8; ++x)
    for (int c = 0; c < 4; ++c) edge.at(x, 0, c) = 1.0f;
  for (int c = 0; c < 4; ++c) edge.at(0, 0, c) = edge.at(1, 0, c) = edge.at(2, 0, c) = edge.at(3, 0, c) = c == 3 ? 1.0f : 0.0f;
  const std::vector<double> box = kernel_weights(make_kernel(KernelType::Box, 1, std::nullopt));
  // Texels 3 and 4 straddle the edge; a box of 3 there sees 1 and 2 white texels.
  const ReferenceImage gamma = reference_blur(edge, box, {});
  const ReferenceImage linear = encode_srgb(reference_blur(decode_srgb(edge), box, {}));
  EXPECT_EQ(to_unorm8(gamma.at(3, 0, 0)), 85);   // 1/3 of the code range
  EXPECT_EQ(to_unorm8(linear.at(3, 0, 0)), 156);  // 1/3 of the light, encoded
  EXPECT_EQ(to_unorm8(gamma.at(4, 0, 0)), 170);
  EXPECT_EQ(to_unorm8(linear.at(4, 0, 0)), 213);
  EXPECT_EQ(to_unorm8(linear.at(4, 0, 3)), 255) << "alpha blurred as it is";
}

}  // namespace
}  // namespace blurlab
