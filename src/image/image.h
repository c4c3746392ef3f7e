#pragma once
// RGBA images on the CPU: what blurlab uploads, reads back, and loads from and saves to files
// (image/image_file.h).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace blurlab {

struct Image {
  int width = 0;
  int height = 0;
  std::vector<float> texels;  // RGBA, row-major, row 0 at the top of the picture

  Image() = default;
  Image(int w, int h) : width(w), height(h), texels(static_cast<size_t>(w) * h * 4, 0.0f) {}
  float& at(int x, int y, int channel) { return texels[(static_cast<size_t>(y) * width + x) * 4 + channel]; }
  float at(int x, int y, int channel) const { return texels[(static_cast<size_t>(y) * width + x) * 4 + channel]; }
  size_t texel_count() const { return static_cast<size_t>(width) * height; }
};

// 8-bit value nearest to v in [0, 1], as a GPU stores it in an rgba8 texel.
uint8_t to_unorm8(double v);
// 16-bit value nearest to v in [0, 1], as a 16-bit PNG stores it.
uint16_t to_unorm16(double v);
std::vector<uint8_t> to_rgba8(const Image& image);
Image from_rgba8(const uint8_t* rgba, int width, int height);

// Largest edge a loaded image may have; matches the smallest GL_MAX_TEXTURE_SIZE we accept.
inline constexpr int kMaxImageEdge = 16384;

// Flips rows (GL framebuffers have row 0 at the bottom).
Image flipped_vertically(const Image& image);

}  // namespace blurlab
