#include "image/image.h"

#include <algorithm>
#include <cmath>

namespace blurlab {

uint8_t to_unorm8(double v) {
  if (!(v > 0.0)) return 0;  // also maps NaN to 0
  if (v >= 1.0) return 255;
  return static_cast<uint8_t>(std::lround(v * 255.0));
}

uint16_t to_unorm16(double v) {
  if (!(v > 0.0)) return 0;
  if (v >= 1.0) return 65535;
  return static_cast<uint16_t>(std::lround(v * 65535.0));
}

std::vector<uint8_t> to_rgba8(const Image& image) {
  std::vector<uint8_t> bytes(image.texels.size());
  std::transform(image.texels.begin(), image.texels.end(), bytes.begin(), [](float v) { return to_unorm8(v); });
  return bytes;
}

Image from_rgba8(const uint8_t* rgba, int width, int height) {
  Image image(width, height);
  for (size_t i = 0; i < image.texels.size(); ++i) image.texels[i] = static_cast<float>(rgba[i] / 255.0);
  return image;
}

Image flipped_vertically(const Image& image) {
  Image out(image.width, image.height);
  const size_t row = static_cast<size_t>(image.width) * 4;
  for (int y = 0; y < image.height; ++y)
    std::copy_n(image.texels.begin() + static_cast<std::ptrdiff_t>(y * row), row,
                out.texels.begin() + static_cast<std::ptrdiff_t>((image.height - 1 - y) * row));
  return out;
}

}  // namespace blurlab
