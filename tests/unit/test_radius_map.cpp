// Blur that varies across the image (blur/radius_map.h): the map's files and built-ins, its
// levels, and the per-pixel reference against sums worked out by hand.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "blur/radius_map.h"
#include "blur/reference.h"
#include "fixtures/image_bytes.h"
#include "util/error.h"

namespace blurlab {
namespace {

std::filesystem::path write_temp(const std::string& name, const std::string& bytes) {
  const auto path = std::filesystem::temp_directory_path() / ("blurlab_radius_map_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// A grey PNG of 8 or 16 bits from its values, row by row.
std::string grey_png(int w, int h, int depth, const std::vector<int>& values, int color = 0) {
  std::vector<std::string> rows;
  for (int y = 0; y < h; ++y) {
    std::string row;
    for (int x = 0; x < w; ++x) {
      const int v = values[static_cast<size_t>(y * w + x)];
      if (depth == 16) row += test::be16(static_cast<uint32_t>(v));
      else row += static_cast<char>(v);
      if (color == 4) row += depth == 16 ? test::be16(65535) : std::string(1, '\xff');  // grey + alpha
    }
    rows.push_back(row);
  }
  return test::png_file(static_cast<uint32_t>(w), static_cast<uint32_t>(h), depth, color, rows);
}

// The message of the Error `body` throws, or "" if none.
template <typename Body>
std::string error_of(Body body) {
  try {
    body();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(RadiusMap, LevelsRoundHalvesUp) {
  EXPECT_EQ(level_of(0, 255, 8), 0);
  EXPECT_EQ(level_of(255, 255, 8), 8);
  EXPECT_EQ(level_of(15, 255, 8), 0);  // 0.47
  EXPECT_EQ(level_of(16, 255, 8), 1);  // 0.50196
  EXPECT_EQ(level_of(1, 4, 2), 1);     // 0.5 exactly: up
  EXPECT_EQ(level_of(32767, 65535, 128), 64);  // 63.999
  EXPECT_EQ(level_of(65535, 65535, 128), 128);
  EXPECT_EQ(level_of(200, 255, 0), 0);
}

TEST(RadiusMap, NoMapIsTheUniformRadius) {
  for (uint8_t level : radius_levels(nullptr, {7, 3}, 5)) EXPECT_EQ(level, 5);
}

TEST(RadiusMap, BuiltInShapes) {
  ASSERT_TRUE(builtin_radius_map("ramp"));
  EXPECT_FALSE(builtin_radius_map("ramps"));
  EXPECT_EQ(builtin_radius_map("band"), builtin_radius_map("band"));  // made once: settings compare equal
  // Ramp: x / (W - 1) of R, left to right.
  EXPECT_EQ(radius_levels(builtin_radius_map("ramp").get(), {5, 2}, 4), (std::vector<uint8_t>{0, 1, 2, 3, 4, 0, 1, 2, 3, 4}));
  EXPECT_EQ(radius_levels(builtin_radius_map("ramp").get(), {1, 1}, 4), std::vector<uint8_t>{0});
  // Band, 1x16: distance d = |y + 1/2 - 8| / 16 from the centre line, (d - 1/8) / (1/4) of R:
  // y = 2: d = 5.5 / 16, 0.875 of 8 = 7; y = 5: 0.125 of 8 = 1; y = 6: below 1/8, 0.
  const std::vector<uint8_t> band = radius_levels(builtin_radius_map("band").get(), {1, 16}, 8);
  EXPECT_EQ(band, (std::vector<uint8_t>{8, 8, 7, 5, 3, 1, 0, 0, 0, 0, 1, 3, 5, 7, 8, 8}));
  // Circle of diameter 2/3 of the shorter side: 0 inside, R outside.
  const std::vector<uint8_t> circle = radius_levels(builtin_radius_map("circle").get(), {9, 9}, 6);
  EXPECT_EQ(circle[4 * 9 + 4], 0);
  EXPECT_EQ(circle[0], 6);
  EXPECT_EQ(circle[4 * 9 + 0], 6);  // 4 texels from the centre, the circle's radius is 3
  EXPECT_EQ(circle[4 * 9 + 2], 0);
}

TEST(RadiusMap, EightAndSixteenBitFiles) {
  const auto eight = write_temp("8.png", grey_png(3, 2, 8, {0, 128, 255, 64, 191, 32}));
  const auto map8 = load_radius_map(eight.string());
  EXPECT_EQ(map8->width, 3);
  EXPECT_EQ(map8->height, 2);
  EXPECT_EQ(map8->max_value, 255);
  // round(k 10 / 255): 0, 5.02, 10, 2.51, 7.49, 1.25
  EXPECT_EQ(radius_levels(map8.get(), {3, 2}, 10), (std::vector<uint8_t>{0, 5, 10, 3, 7, 1}));
  const auto sixteen = write_temp("16.png", grey_png(2, 1, 16, {65535, 32768}));
  const auto map16 = load_radius_map(sixteen.string());
  EXPECT_EQ(map16->max_value, 65535);
  EXPECT_EQ(map16->values, (std::vector<uint16_t>{65535, 32768}));
  EXPECT_EQ(radius_levels(map16.get(), {2, 1}, 128), (std::vector<uint8_t>{128, 64}));
  EXPECT_EQ(describe(map16.get()), "file " + sixteen.string() + " (2x1, 16-bit)");
  std::filesystem::remove(eight);
  std::filesystem::remove(sixteen);
}

TEST(RadiusMap, AnotherSizeIsScaledByNearestNeighbour) {
  const auto path = write_temp("2x1.png", grey_png(2, 1, 8, {0, 255}));
  const auto map = load_radius_map(path.string());
  // 5 wide from 2: texel (2x + 1) 2 / 10 = 0, 0, 1, 1, 1 (the middle pixel's centre is past the middle)
  EXPECT_EQ(radius_levels(map.get(), {5, 2}, 3), (std::vector<uint8_t>{0, 0, 3, 3, 3, 0, 0, 3, 3, 3}));
  // 1 wide from 2: texel 2 / 2 = 1
  EXPECT_EQ(radius_levels(map.get(), {1, 1}, 3), std::vector<uint8_t>{3});
  std::filesystem::remove(path);
}

TEST(RadiusMap, FilesThatAreNotGreyAreRefusedInOneLine) {
  const auto rgb = write_temp("rgb.png", test::png_file(1, 1, 8, 2, {std::string(3, '\x10')}));
  const std::string why = error_of([&] { load_radius_map(rgb.string()); });
  EXPECT_NE(why.find("cannot read --radius-map '" + rgb.string() + "': a radius map is a grey PNG of 8 or 16 bits (this one: 8-bit RGB PNG)"),
            std::string::npos)
      << why;
  EXPECT_EQ(why.find('\n'), std::string::npos);
  const auto alpha = write_temp("ga.png", grey_png(1, 1, 8, {3}, 4));
  EXPECT_NE(error_of([&] { load_radius_map(alpha.string()); }).find("grey PNG of 8 or 16 bits (this one: 8-bit gray+alpha PNG)"), std::string::npos);
  const auto four = write_temp("4bit.png", test::png_file(2, 1, 4, 0, {std::string(1, '\x1f')}));
  EXPECT_NE(error_of([&] { load_radius_map(four.string()); }).find("(this one: 4-bit gray PNG)"), std::string::npos);
  // Damaged, missing, not an image: the decoder's and the reader's one-line errors, naming the file.
  const std::string whole = grey_png(4, 4, 8, std::vector<int>(16, 7));
  const auto truncated = write_temp("cut.png", whole.substr(0, whole.size() - 20));
  EXPECT_NE(error_of([&] { load_radius_map(truncated.string()); }).find(truncated.string()), std::string::npos);
  EXPECT_NE(error_of([&] { load_radius_map("/nowhere/map.png"); }).find("--radius-map"), std::string::npos);
  const auto text = write_temp("text.png", "band");
  EXPECT_NE(error_of([&] { radius_map_from_option(text.string()); }).find(text.string()), std::string::npos);
  EXPECT_EQ(radius_map_from_option("band"), builtin_radius_map("band"));
  EXPECT_EQ(error_of([] { radius_map_from_option("bands"); }),
            "cannot read --radius-map 'bands': no such file, nor a built-in map (ramp, band, circle)");
  for (const auto& p : {rgb, alpha, four, truncated, text}) std::filesystem::remove(p);
}

TEST(RadiusMap, LevelKernels) {
  const Kernel gauss{KernelType::Gauss, 9, 3.0};
  EXPECT_EQ(level_kernel(gauss, 9), gauss);
  EXPECT_EQ(level_kernel(gauss, 3), (Kernel{KernelType::Gauss, 3, 1.0}));
  EXPECT_EQ(level_kernel(gauss, 0), (Kernel{KernelType::Box, 0, 0.0}));
  EXPECT_EQ(level_kernel(Kernel{KernelType::Box, 7, 0.0}, 2), (Kernel{KernelType::Box, 2, 0.0}));
}

// By hand: a 4x3 image, box, levels 0 (identity), 1 (3x3) and 2 (5x5), clamp and constant.
TEST(VariableReference, BoxByHand) {
  Image in(4, 3);
  const float v[3][4] = {{0, 3, 6, 9}, {12, 15, 18, 21}, {24, 27, 30, 33}};  // red; the other channels 0
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 4; ++x) in.at(x, y, 0) = v[y][x];
  std::vector<uint8_t> levels(12, 0);
  levels[1 * 4 + 1] = 1;  // (1, 1): the 3x3 around it, all inside: (0+3+6+12+15+18+24+27+30) / 9 = 15
  levels[0 * 4 + 3] = 1;  // (3, 0), clamp: columns 2,3,3 rows 0,0,1: (6+9+9)*2 + (18+21+21) = 108 / 9 = 12
  levels[2 * 4 + 0] = 2;  // (0, 2), clamp r = 2: columns 0,0,0,1,2 and rows 0,1,2,2,2
  const Kernel box{KernelType::Box, 2, 0.0};
  const ReferenceImage clamp = reference_variable_blur(in, levels, box, Border{BorderMode::Clamp});
  EXPECT_NEAR(clamp.at(1, 1, 0), 15.0, 1e-12);
  EXPECT_NEAR(clamp.at(3, 0, 0), 12.0, 1e-12);
  // rows: row 0 (3*0 + 3 + 6 = 9) + row 1 (3*12 + 15 + 18 = 69) + 3 x row 2 (3*24 + 27 + 30 = 129) = 465 / 25
  EXPECT_NEAR(clamp.at(0, 2, 0), 18.6, 1e-12);
  EXPECT_NEAR(clamp.at(2, 1, 0), 18.0, 1e-12);  // level 0: itself
  EXPECT_NEAR(clamp.at(2, 1, 1), 0.0, 1e-12);
  // Constant 1 outside: (3, 0) sees 3 + 2 outside columns... 9 taps, 5 of them outside (row -1: 3, column 4: 2)
  Border constant{BorderMode::Constant};
  constant.value = {1.0f, 0.0f, 0.0f, 0.0f};
  const ReferenceImage c = reference_variable_blur(in, levels, box, constant);
  EXPECT_NEAR(c.at(3, 0, 0), (6 + 9 + 18 + 21 + 5 * 1.0) / 9.0, 1e-12);
}

// By hand: the Gaussian level's weights are the uniform kernel of the level's radius and sigma.
TEST(VariableReference, GaussLevelsUseTheirOwnSigma) {
  Image in(5, 1);
  in.at(2, 0, 0) = 1.0f;  // one bright texel: the blur at its neighbours is their weight
  std::vector<uint8_t> levels{0, 2, 4, 2, 0};
  const Kernel gauss{KernelType::Gauss, 4, 2.0};
  const ReferenceImage out = reference_variable_blur(in, levels, gauss, Border{BorderMode::Constant});
  const std::vector<double> w2 = kernel_weights(Kernel{KernelType::Gauss, 2, 1.0});  // sigma 2 x 2 / 4
  const std::vector<double> w4 = kernel_weights(gauss);
  // 1 row: the vertical taps read the constant 0 except the centre, weight w(0).
  EXPECT_NEAR(out.at(1, 0, 0), w2[3] * w2[2], 1e-15);
  EXPECT_NEAR(out.at(2, 0, 0), w4[4] * w4[4], 1e-15);
  EXPECT_NEAR(out.at(0, 0, 0), 0.0, 1e-15);
}

// The per-level separable evaluation equals each pixel's direct 2D sum, for every border mode and
// a map of every level, and a uniform map equals reference_blur.
TEST(VariableReference, EqualsTheDirectSumOfEachPixel) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  Image in(13, 7);
  for (float& t : in.texels) t = u(rng);
  std::vector<uint8_t> levels(13 * 7);
  for (uint8_t& l : levels) l = static_cast<uint8_t>(rng() % 6);
  for (KernelType type : {KernelType::Box, KernelType::Gauss})
    for (BorderMode mode : kBorderModes) {
      const Kernel kernel = make_kernel(type, 5, std::nullopt);
      Border border{mode};
      if (mode == BorderMode::Constant) border.value = {0.5f, 0.25f, 1.0f, 0.0f};
      const ReferenceImage out = reference_variable_blur(in, levels, kernel, border);
      for (int level = 0; level <= 5; ++level) {
        const ReferenceImage direct = reference_blur_direct(in, kernel_weights(level_kernel(kernel, level)), border);
        for (int y = 0; y < 7; ++y)
          for (int x = 0; x < 13; ++x)
            if (levels[static_cast<size_t>(y * 13 + x)] == level) {
              for (int c = 0; c < 4; ++c) ASSERT_NEAR(out.at(x, y, c), direct.at(x, y, c), 1e-14) << name(mode) << " level " << level;
            }
      }
      const ReferenceImage uniform = reference_variable_blur(in, std::vector<uint8_t>(13 * 7, 5), kernel, border);
      const ReferenceImage plain = reference_blur(in, kernel_weights(kernel), border);
      for (size_t i = 0; i < plain.texels.size(); ++i) ASSERT_NEAR(uniform.texels[i], plain.texels[i], 1e-14);
    }
}

}  // namespace
}  // namespace blurlab
