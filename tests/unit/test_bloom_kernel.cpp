// bloom's kernel image (psf image:FILE[@P%]) read, resampled and normalised, the ground truth's
// FFT convolution against its definition, and fft-2d's padding and own bound, counted by hand.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "blur/check.h"
#include "blur/model.h"
#include "effects/bloom.h"
#include "fixtures/image_bytes.h"
#include "util/error.h"

namespace blurlab::bloom {
namespace {

namespace fs = std::filesystem;

fs::path temp_file(const std::string& name, const std::string& bytes) {
  const fs::path dir = fs::temp_directory_path() / ("blurlab_bloom_kernel_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path path = dir / name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string bytes(std::initializer_list<int> values) {
  std::string s;
  for (int v : values) s += static_cast<char>(v);
  return s;
}

// Each channel is divided by its own sum: R all at the centre, G spread evenly, B on two pixels.
TEST(BloomKernel, EachChannelIsNormalisedOnItsOwn) {
  const std::string rows[3] = {bytes({0, 255, 0, 0, 255, 0, 0, 255, 0}), bytes({0, 255, 255, 255, 255, 255, 0, 255, 0}),
                               bytes({0, 255, 0, 0, 255, 0, 0, 255, 0})};
  const fs::path path = temp_file("rgb.png", test::png_file(3, 3, 8, 2, {rows[0], rows[1], rows[2]}));
  const FrameKernel k = frame_kernel({load_kernel_image(path.string()), std::nullopt}, {64, 48});
  ASSERT_EQ(k.rx, 1);
  ASSERT_EQ(k.ry, 1);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x) {
      EXPECT_DOUBLE_EQ(k.at(x, y, 0), x == 1 && y == 1 ? 1.0 : 0.0) << x << "," << y;
      EXPECT_DOUBLE_EQ(k.at(x, y, 1), 1.0 / 9.0) << x << "," << y;
      EXPECT_DOUBLE_EQ(k.at(x, y, 2), y == 1 && x < 2 ? 0.5 : 0.0) << x << "," << y;
    }
}

// A 2x1 grey image (255, 85) whose longer side becomes 10% of a 30x30 frame's: 3 px, so a frame
// pixel is 2/3 of an image pixel. Columns: pixel -1 covers the image's [0, 2/3) (2/3 of the first
// pixel, 1), pixel 0 [2/3, 4/3) (1/3 of each: 1/3 + 1/9), pixel 1 [4/3, 2) (2/3 of 1/3): 2/3, 4/9,
// 2/9, normalised 1/2, 1/3, 1/6. Rows (the image's one row, centred at 1/2): [-1/2, 1/6), [1/6,
// 5/6), [5/6, 3/2) of [0, 1): 1/6, 2/3, 1/6.
TEST(BloomKernel, ResampledByTheAreaEachFramePixelCovers) {
  const fs::path path = temp_file("two.png", test::png_file(2, 1, 8, 0, {bytes({255, 85})}));
  const FrameKernel k = frame_kernel({load_kernel_image(path.string()), 10.0}, {30, 30});
  ASSERT_EQ(k.width(), 3);
  ASSERT_EQ(k.height(), 3);
  const double columns[3] = {0.5, 1.0 / 3.0, 1.0 / 6.0}, rows[3] = {1.0 / 6.0, 2.0 / 3.0, 1.0 / 6.0};
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x)
      for (int c = 0; c < 3; ++c) EXPECT_NEAR(k.at(x, y, c), columns[x] * rows[y], 1e-15) << x << "," << y;
}

// 1:1 and an odd size: the image's own pixels, only normalised; the 16-bit values as they are.
TEST(BloomKernel, AnOddImageAtItsOwnScaleKeepsItsPixels) {
  std::string row;
  for (int v : {1, 2, 3, 60000, 5}) row += test::be16(static_cast<uint32_t>(v));
  const fs::path path = temp_file("row16.png", test::png_file(5, 1, 16, 0, {row}));
  const FrameKernel k = frame_kernel({load_kernel_image(path.string()), std::nullopt}, {64, 48});
  ASSERT_EQ(k.rx, 2);
  ASSERT_EQ(k.ry, 0);
  const double total = 1 + 2 + 3 + 60000 + 5;
  int i = 0;
  for (int v : {1, 2, 3, 60000, 5}) EXPECT_NEAR(k.at(i++, 0, 1), v / total, 1e-15);
}

TEST(BloomKernel, AnImageWithNoLightIsRefused) {
  const fs::path path = temp_file("zero.png", test::png_file(2, 2, 16, 0, {std::string(4, '\0'), std::string(4, '\0')}));
  try {
    load_kernel_image(path.string());
    FAIL() << "an all-zero kernel was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("values are all 0 (2x2)"), std::string::npos) << e.what();
  }
}

// A Gaussian PSF's kernel: the outer product of the variants' weights, each term's, summed.
TEST(BloomKernel, AGaussianPsfIsTheVariantsOuterProduct) {
  const FrameKernel k = gaussian_frame_kernel({{0.25, 1.0}, {0.75, 2.5}});
  const std::vector<double> narrow = kernel_weights(fidelity_kernel(1.0)), wide = kernel_weights(fidelity_kernel(2.5));
  const int r = static_cast<int>(wide.size() / 2), rn = static_cast<int>(narrow.size() / 2);
  ASSERT_EQ(k.rx, r);
  double total = 0.0;
  for (int y = -r; y <= r; ++y)
    for (int x = -r; x <= r; ++x) {
      double expected = 0.75 * wide[static_cast<size_t>(x + r)] * wide[static_cast<size_t>(y + r)];
      if (std::abs(x) <= rn && std::abs(y) <= rn) expected += 0.25 * narrow[static_cast<size_t>(x + rn)] * narrow[static_cast<size_t>(y + rn)];
      EXPECT_NEAR(k.at(x + r, y + r, 2), expected, 1e-16);
      total += k.at(x + r, y + r, 0);
    }
  EXPECT_NEAR(total, 1.0, 1e-12);
}

// The ground truth's FFT convolution (black outside) against the sum over every tap, for a
// coloured kernel that is neither symmetric nor square, on a frame of odd sides.
TEST(BloomKernel, TheGroundTruthsFftConvolutionIsTheSumOverEveryTap) {
  std::mt19937 rng(55);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  ReferenceImage light = model::blank(13, 9);
  for (double& v : light.texels) v = 50.0 * u(rng) * u(rng) * u(rng);
  FrameKernel k;
  k.rx = 3;
  k.ry = 1;
  k.rgb.resize(7 * 3 * 3);
  for (double& v : k.rgb) v = u(rng);
  const ReferenceImage fft = convolve_black(light, k), direct = convolve_black_direct(light, k);
  double largest = 0.0;
  for (double v : direct.texels) largest = std::max(largest, std::abs(v));
  for (size_t i = 0; i < fft.texels.size(); ++i) EXPECT_NEAR(fft.texels[i], direct.texels[i], 1e-12 * largest) << i;
}

// The padding: each side the next power of two of the side plus half the frame's longer side.
TEST(Fft2d, ThePaddingHoldsAKernelAsLargeAsTheFramesLongerSide) {
  EXPECT_EQ(fft2d_padded_size({1920, 1080}), glm::ivec2(4096, 2048));  // 1920 + 960, 1080 + 960
  EXPECT_EQ(fft2d_padded_size({3840, 2160}), glm::ivec2(8192, 4096));  // 3840 + 1920, 2160 + 1920
  EXPECT_EQ(fft2d_padded_size({32, 24}), glm::ivec2(64, 64));          // 32 + 16, 24 + 16
  EXPECT_EQ(fft2d_padded_size({1, 1}), glm::ivec2(8, 8));              // at least 8 points
  // A square kernel as wide as 1920: 1921 px, reach 960 (room 2176 and 968).
  EXPECT_FALSE(fft2d_kernel_problem(960, 960, {1920, 1080}));
  EXPECT_FALSE(fft2d_kernel_problem(1920, 1920, {3840, 2160}));
  const auto problem = fft2d_kernel_problem(10, 969, {1920, 1080});
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("(21x1939 px on the frame, reach 10, 969) is larger than fft-2d's padding of 1920x1080 to 4096x2048 holds "
                          "(reach 2176, 968 at most)"),
            std::string::npos)
      << *problem;
}

// fft-2d's own bound at 1920x1080 (4096x2048, the spectrum's 2049 columns), by hand:
//   bytes: rows 1920 x 1080 x 8 + 4096 x 1080 x 16 = 16588800 + 70778880; columns 2 x 70778880 +
//   2 x 2049 x 2048 x 16 = 141557760 + 134283264; inverse rows 70778880 + 16588800; the composite
//   1920 x 1080 x (8 + 8 + 4) = 41472000: 492048384 in all.
//   operations: rows 2 ways x 2 complex values x 1080 lines x 3.5 x 4096 x 12 = 743178240; columns
//   2 values x 2 ways x 4096 lines x 3.5 x 2048 x 11 = 1291845632; the product 14 x 4096 x 2048 =
//   117440512: 2152464384.
TEST(Fft2d, OwnBoundCountedByHand) {
  const WorkBound b = fft2d_bound({1920, 1080});
  EXPECT_DOUBLE_EQ(b.bytes, 492048384.0);
  EXPECT_DOUBLE_EQ(b.fmas, 2152464384.0);
  EXPECT_DOUBLE_EQ(b.bilinear_fetches, 0.0);
  // 37x23: 37 + 19 = 56 -> 64, 23 + 19 = 42 -> 64; the spectrum 33 x 64.
  const WorkBound odd = fft2d_bound({37, 23});
  EXPECT_DOUBLE_EQ(odd.bytes, (37.0 * 23 * 8 + 64.0 * 23 * 16) + (2.0 * 64 * 23 * 16 + 2.0 * 33 * 64 * 16) + (64.0 * 23 * 16 + 37.0 * 23 * 8) +
                                  37.0 * 23 * 20);
  EXPECT_DOUBLE_EQ(odd.fmas, 4.0 * 23 * 3.5 * 64 * 6 + 4.0 * 64 * 3.5 * 64 * 6 + 14.0 * 64 * 64);
}

// What fft-2d holds: at 1920x1080 with a 1921x1921 kernel, the lines (4096 x 1080 rgba32f), the
// layer (1920 x 1080 rgba16f), the spectrum (2 x 2049 x 2048 rgba32f), the kernel (1921^2 rgba32f)
// and its rows (4096 x 1921 rgba32f) on the GPU; two 4096 x 2048 grids of double complex values
// for the ground truth.
TEST(Fft2d, MemoryCountedByHand) {
  FrameKernel k;
  k.rx = k.ry = 960;
  EXPECT_DOUBLE_EQ(fft2d_memory_bytes({1920, 1080}, k), 70778880.0 + 16588800.0 + 134283264.0 + 1921.0 * 1921 * 16 + 4096.0 * 1921 * 16 +
                                                             2.0 * 4096 * 2048 * 16);
}

}  // namespace
}  // namespace blurlab::bloom
