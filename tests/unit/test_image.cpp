#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "image/image.h"
#include "util/error.h"

namespace blurlab {
namespace {

std::filesystem::path temp(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("blurlab_image_" + std::to_string(::getpid()) + "_" + name);
}

TEST(Image, PngRoundTripIsExactForRgba8) {
  Image image(7, 3);
  for (size_t i = 0; i < image.texels.size(); ++i) image.texels[i] = static_cast<float>((i * 37) % 256 / 255.0);
  const auto path = temp("round.png");
  save_png(image, path);
  const Image back = load_png(path);
  ASSERT_EQ(back.width, 7);
  ASSERT_EQ(back.height, 3);
  EXPECT_EQ(to_rgba8(back), to_rgba8(image));
  std::filesystem::remove(path);
}

TEST(Image, UnitRounding) {
  EXPECT_EQ(to_unorm8(0.0), 0);
  EXPECT_EQ(to_unorm8(1.0), 255);
  EXPECT_EQ(to_unorm8(-3.0), 0);
  EXPECT_EQ(to_unorm8(7.0), 255);
  EXPECT_EQ(to_unorm8(0.5), 128);  // 127.5 rounds half away from zero
  EXPECT_EQ(to_unorm8(std::nan("")), 0);
}

TEST(Image, BadFilesAreErrorsNotCrashes) {
  EXPECT_THROW(load_png(temp("missing.png")), Error);
  const auto empty = temp("empty.png");
  std::ofstream(empty).close();
  EXPECT_THROW(load_png(empty), Error);
  const auto text = temp("text.png");
  std::ofstream(text) << "hello, not a png";
  EXPECT_THROW(load_png(text), Error);
  // A valid PNG cut in half.
  Image image(32, 32);
  const auto whole = temp("whole.png");
  save_png(image, whole);
  const auto size = std::filesystem::file_size(whole);
  std::filesystem::resize_file(whole, size / 2);
  EXPECT_THROW(load_png(whole), Error);
  EXPECT_THROW(load_png(std::filesystem::temp_directory_path()), Error);
  for (const auto& p : {empty, text, whole}) std::filesystem::remove(p);
}

TEST(Image, FailedWriteLeavesNoFile) {
  Image image(4, 4);
  const auto target = temp("nodir") / "out.png";
  EXPECT_THROW(save_png(image, target), Error);
  EXPECT_FALSE(std::filesystem::exists(target));
}

TEST(Image, FlipReversesRows) {
  Image image(1, 2);
  image.at(0, 0, 0) = 1.0f;
  const Image flipped = flipped_vertically(image);
  EXPECT_EQ(flipped.at(0, 1, 0), 1.0f);
  EXPECT_EQ(flipped.at(0, 0, 0), 0.0f);
}

}  // namespace
}  // namespace blurlab
