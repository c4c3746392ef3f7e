#include "image/image.h"

#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>

#include "util/error.h"
#include "util/files.h"

namespace blurlab {

uint8_t to_unorm8(double v) {
  if (!(v > 0.0)) return 0;  // also maps NaN to 0
  if (v >= 1.0) return 255;
  return static_cast<uint8_t>(std::lround(v * 255.0));
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

namespace {

std::vector<unsigned char> read_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw Error("cannot read '" + path.string() + "': it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read '" + path.string() + "': " + std::strerror(errno));
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw Error("cannot read '" + path.string() + "': read error");
  return bytes;
}

}  // namespace

Image load_png(const std::filesystem::path& path) {
  const std::vector<unsigned char> bytes = read_file(path);
  const std::string name = path.string();
  if (bytes.empty()) throw Error("cannot load '" + name + "': the file is empty");
  static constexpr unsigned char kPngSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (bytes.size() < 8 || std::memcmp(bytes.data(), kPngSignature, 8) != 0)
    throw Error("cannot load '" + name + "': not a PNG file");
  if (bytes.size() > static_cast<size_t>(INT32_MAX)) throw Error("cannot load '" + name + "': file too large");
  const int size = static_cast<int>(bytes.size());

  // Check the declared size before decoding, so a corrupt header cannot ask for gigabytes.
  int w = 0, h = 0, channels = 0;
  if (!stbi_info_from_memory(bytes.data(), size, &w, &h, &channels))
    throw Error("cannot load '" + name + "': " + stbi_failure_reason());
  if (w <= 0 || h <= 0) throw Error("cannot load '" + name + "': the image has no pixels");
  if (w > kMaxImageEdge || h > kMaxImageEdge)
    throw Error("cannot load '" + name + "': " + std::to_string(w) + "x" + std::to_string(h) +
                " is larger than " + std::to_string(kMaxImageEdge) + "x" + std::to_string(kMaxImageEdge));

  Image image;
  if (stbi_is_16_bit_from_memory(bytes.data(), size)) {
    stbi_us* data = stbi_load_16_from_memory(bytes.data(), size, &w, &h, &channels, 4);
    if (!data) throw Error("cannot load '" + name + "': " + stbi_failure_reason());
    image = Image(w, h);
    for (size_t i = 0; i < image.texels.size(); ++i) image.texels[i] = static_cast<float>(data[i] / 65535.0);
    stbi_image_free(data);
  } else {
    stbi_uc* data = stbi_load_from_memory(bytes.data(), size, &w, &h, &channels, 4);
    if (!data) throw Error("cannot load '" + name + "': " + stbi_failure_reason());
    image = from_rgba8(data, w, h);
    stbi_image_free(data);
  }
  return image;
}

void save_png(const Image& image, const std::filesystem::path& path) {
  save_png_rgba8(to_rgba8(image), image.width, image.height, path);
}

void save_png_rgba8(const std::vector<uint8_t>& bytes, int width, int height, const std::filesystem::path& path) {
  std::string png;
  const auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<size_t>(size));
  };
  if (!stbi_write_png_to_func(append, &png, width, height, 4, bytes.data(), width * 4))
    throw Error("cannot write '" + path.string() + "': the PNG encoder failed");
  write_file_atomically(path, png);
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
