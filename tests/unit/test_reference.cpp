#include <gtest/gtest.h>

#include <random>

#include "blur/kernel.h"
#include "blur/reference.h"

namespace blurlab {
namespace {

Image noise(int w, int h, unsigned seed) {
  Image image(w, h);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (float& v : image.texels) v = u(rng);
  return image;
}

TEST(Reference, SeparableEqualsDirectSum) {
  for (KernelType type : {KernelType::Box, KernelType::Gauss})
    for (int r : {0, 1, 2, 5, 9})
      for (auto [w, h] : {std::pair{1, 1}, std::pair{3, 2}, std::pair{13, 7}, std::pair{4, 19}}) {
        const Image in = noise(w, h, static_cast<unsigned>(r * 100 + w));
        const auto weights = kernel_weights(make_kernel(type, r, std::nullopt));
        const ReferenceImage a = reference_blur(in, weights, {}), b = reference_blur_direct(in, weights, {});
        for (size_t i = 0; i < a.texels.size(); ++i) ASSERT_NEAR(a.texels[i], b.texels[i], 1e-14) << "r=" << r << " " << w << "x" << h;
      }
}

TEST(Reference, LargeImagesUseThreadsAndStayEqual) {
  const Image in = noise(157, 131, 7);
  const auto weights = kernel_weights(make_kernel(KernelType::Gauss, 4, std::nullopt));
  const ReferenceImage a = reference_blur(in, weights, {}), b = reference_blur_direct(in, weights, {});
  for (size_t i = 0; i < a.texels.size(); ++i) ASSERT_NEAR(a.texels[i], b.texels[i], 1e-14);
}

TEST(Reference, ClampsToEdge) {
  // One bright column at the left edge of a 5x1 image, box r = 2: the edge texel is repeated, so
  // x=0 sees [1 1 1 0 0]/5 and x=1 sees [1 1 0 0 0]/5... with x-1 clamped to 0.
  Image in(5, 1);
  for (int c = 0; c < 4; ++c) in.at(0, 0, c) = 1.0f;
  const ReferenceImage out = reference_blur(in, kernel_weights(make_kernel(KernelType::Box, 2, std::nullopt)), {});
  EXPECT_NEAR(out.at(0, 0, 0), 3.0 / 5.0, 1e-15);
  EXPECT_NEAR(out.at(1, 0, 0), 2.0 / 5.0, 1e-15);
  EXPECT_NEAR(out.at(2, 0, 0), 1.0 / 5.0, 1e-15);
  EXPECT_NEAR(out.at(3, 0, 0), 0.0, 1e-15);
}

TEST(Reference, FlatImageStaysFlat) {
  Image in(9, 6);
  for (size_t i = 0; i < in.texels.size(); ++i) in.texels[i] = 0.25f * static_cast<float>(i % 4);
  const ReferenceImage out = reference_blur(in, kernel_weights(make_kernel(KernelType::Gauss, 7, 3.0)), {});
  for (size_t i = 0; i < out.texels.size(); ++i) EXPECT_NEAR(out.texels[i], in.texels[i], 1e-15);
}

TEST(Reference, OneTexelImageIsUnchanged) {
  Image in(1, 1);
  in.texels = {0.1f, 0.2f, 0.3f, 0.4f};
  const ReferenceImage out = reference_blur(in, kernel_weights(make_kernel(KernelType::Gauss, 33, std::nullopt)), {});
  for (int c = 0; c < 4; ++c) EXPECT_NEAR(out.at(0, 0, c), in.at(0, 0, c), 1e-15);
}

TEST(Reference, GoldenBytesRoundFromDouble) {
  ReferenceImage ref{1, 1, {0.5 / 255.0 + 1e-12, 0.5 / 255.0 - 1e-12, 1.5, -0.25}};
  const auto bytes = to_rgba8(ref);
  EXPECT_EQ(bytes, (std::vector<uint8_t>{1, 0, 255, 0}));
}

}  // namespace
}  // namespace blurlab
