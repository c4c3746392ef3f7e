// blurlab-make-chart OUT.png: the test chart in assets/chart.png, drawn procedurally so anyone
// can regenerate it bit for bit. Hard edges, 1-texel lines, checkers of several periods,
// gradients in every channel (alpha too: all four channels are blurred) and seeded noise:
// features where a wrong tap, offset, weight or border shows.
// blurlab-make-chart --edge OUT.png: 64x16, dark on the left half and bright on the right: black
// and white in the top rows (where a blur of sRGB code values and one in linear light differ
// most), 64 and 192 below (values that decoding changes, unlike 0 and 1; tests/linear_test.cmake).
// blurlab-make-chart --noise W H OUT.png: seeded noise of any size, every channel independent (the
// hardest input for a blur's indexing; tests/export_round_trip.cmake at odd sizes).
// blurlab-make-chart --map W H OUT.png: seeded grey noise as an 8-bit grey PNG, a --radius-map
// file where every pixel may have its own level (tests/export_round_trip.cmake).
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <png.h>
#include <string>
#include <string_view>
#include <vector>

#include "image/image_file.h"
#include "util/error.h"
#include "util/files.h"

namespace {

constexpr int kWidth = 320, kHeight = 240;

uint32_t hash(uint32_t x) {  // lowbias32
  x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16;
  return x;
}

void put(blurlab::Image& im, int x, int y, int r, int g, int b, int a = 255) {
  im.at(x, y, 0) = r / 255.0f;
  im.at(x, y, 1) = g / 255.0f;
  im.at(x, y, 2) = b / 255.0f;
  im.at(x, y, 3) = a / 255.0f;
}

}  // namespace

int save(const blurlab::Image& im, const char* path) {
  try {
    blurlab::save_image(im, path);
  } catch (const blurlab::Error& e) {
    std::fprintf(stderr, "blurlab-make-chart: %s\n", e.what());
    return 1;
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 3 && std::string_view(argv[1]) == "--edge") {
    blurlab::Image edge(64, 16);
    for (int y = 0; y < edge.height; ++y)
      for (int x = 0; x < edge.width; ++x) {
        const int v = y < 8 ? (x < 32 ? 0 : 255) : (x < 32 ? 64 : 192);
        put(edge, x, y, v, v, v);
      }
    return save(edge, argv[2]);
  }
  if (argc == 5 && std::string_view(argv[1]) == "--map") {
    const int width = std::atoi(argv[2]), height = std::atoi(argv[3]);
    if (width <= 0 || height <= 0 || width > 4096 || height > 4096) {
      std::fprintf(stderr, "blurlab-make-chart: --map W H takes sizes in 1..4096\n");
      return 1;
    }
    // blurlab writes RGBA only; a radius map must be grey, so libpng's simplified API writes it.
    std::vector<uint8_t> grey(static_cast<size_t>(width) * height);
    for (size_t i = 0; i < grey.size(); ++i) grey[i] = static_cast<uint8_t>(hash(static_cast<uint32_t>(i) ^ 0x9e3779b9U) & 0xff);
    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    image.width = static_cast<png_uint_32>(width);
    image.height = static_cast<png_uint_32>(height);
    image.format = PNG_FORMAT_GRAY;
    // Encoded in memory, then written as blurlab writes an output (util/files.h): whole or not at
    // all, a link through /proc or a read-only file refused (libpng's own writer opened the name).
    png_alloc_size_t size = 0;
    std::string png;
    if (png_image_write_get_memory_size(image, size, 0, grey.data(), 0, nullptr)) {
      png.resize(size);
      if (!png_image_write_to_memory(&image, png.data(), &size, 0, grey.data(), 0, nullptr)) png.clear();
    }
    if (png.empty()) {
      std::fprintf(stderr, "blurlab-make-chart: cannot encode %s: %s\n", blurlab::single_line(argv[4]).c_str(), image.message);
      return 1;
    }
    png.resize(size);
    try {
      blurlab::write_file_atomically(argv[4], png, "--map");
    } catch (const blurlab::Error& e) {
      std::fprintf(stderr, "blurlab-make-chart: %s\n", e.what());
      return 1;
    }
    return 0;
  }
  if (argc == 5 && std::string_view(argv[1]) == "--noise") {
    const int width = std::atoi(argv[2]), height = std::atoi(argv[3]);
    if (width <= 0 || height <= 0 || width > 4096 || height > 4096) {
      std::fprintf(stderr, "blurlab-make-chart: --noise W H takes sizes in 1..4096\n");
      return 2;
    }
    blurlab::Image noise(width, height);
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        const uint32_t h = hash(static_cast<uint32_t>(y * width + x) ^ 0x9e3779b9U);
        put(noise, x, y, h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff, (h >> 24) & 0xff);
      }
    return save(noise, argv[4]);
  }
  if (argc != 2) {
    std::fprintf(stderr, "usage: blurlab-make-chart OUT.png | --edge OUT.png | --noise W H OUT.png | --map W H OUT.png\n");
    return 2;
  }
  blurlab::Image im(kWidth, kHeight);
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      int r = 40, g = 40, b = 48, a = 255;
      if (y < 24) {  // grey ramp, then R, G, B ramps
        const int v = x * 255 / (kWidth - 1);
        const int band = y / 6;
        r = band == 0 || band == 1 ? v : 0;
        g = band == 0 || band == 2 ? v : 0;
        b = band == 0 || band == 3 ? v : 0;
      } else if (y < 48) {  // alpha ramp over white
        r = g = b = 255;
        a = x * 255 / (kWidth - 1);
      } else if (y < 120 && x < 160) {  // checkers of period 1, 2, 4, 8 texels
        const int period = 1 << (x / 40);
        const bool on = ((x / period) + (y / period)) % 2 == 0;
        r = g = b = on ? 255 : 0;
      } else if (y < 120) {  // vertical and horizontal 1-texel lines, 6 apart
        const bool line = (x % 6 == 0 && y < 84) || (y % 6 == 0 && y >= 84);
        r = line ? 255 : 10;
        g = line ? 220 : 10;
        b = line ? 40 : 10;
      } else if (y < 184 && x < 160) {  // Siemens star: 24 hard-edged spokes
        const double angle = std::atan2(y - 152.0, x - 80.0);
        const bool on = static_cast<int>(std::floor((angle + M_PI) / (2 * M_PI) * 24)) % 2 == 0;
        r = on ? 250 : 5;
        g = on ? 60 : 5;
        b = on ? 200 : 90;
      } else if (y < 184) {  // colour patches with hard edges, alpha varies by patch
        const int patch = (x - 160) / 32 + ((y - 120) / 32) * 5;
        r = (patch * 97) % 256;
        g = (patch * 57 + 80) % 256;
        b = (patch * 193 + 30) % 256;
        a = 255 - (patch % 4) * 60;
      } else {  // seeded noise, every channel independent
        const uint32_t h = hash(static_cast<uint32_t>(y * kWidth + x));
        r = h & 0xff;
        g = (h >> 8) & 0xff;
        b = (h >> 16) & 0xff;
        a = 128 + ((h >> 24) & 0x7f);
      }
      put(im, x, y, r, g, b, a);
    }
  return save(im, argv[1]);
}
