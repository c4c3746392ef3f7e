#pragma once
// RGBA images on the CPU: what blurlab uploads, reads back, loads from and writes to PNG.
#include <cstdint>
#include <filesystem>
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
std::vector<uint8_t> to_rgba8(const Image& image);

// The exact piecewise sRGB transfer functions (IEC 61966-2-1), for values in [0, 1]; inputs
// outside are clamped first (an sRGB code value has no meaning beyond them).
double srgb_to_linear(double encoded);
double linear_to_srgb(double linear);
Image from_rgba8(const uint8_t* rgba, int width, int height);

// Largest edge a loaded image may have; matches the smallest GL_MAX_TEXTURE_SIZE we accept.
inline constexpr int kMaxImageEdge = 16384;

// Loads an 8- or 16-bit PNG (any channel count, widened to RGBA). Throws blurlab::Error with
// one line that names the file and what is wrong with it.
Image load_png(const std::filesystem::path& path);
// Writes RGBA8 PNG whole or not at all: a temporary file beside the target, then a rename.
void save_png(const Image& image, const std::filesystem::path& path);
void save_png_rgba8(const std::vector<uint8_t>& rgba, int width, int height, const std::filesystem::path& path);
// Flips rows (GL framebuffers have row 0 at the bottom).
Image flipped_vertically(const Image& image);

}  // namespace blurlab
