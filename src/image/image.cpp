#include "image/image.h"

#include <stb_image.h>
#include <stb_image_write.h>

#include <zlib.h>

#include <algorithm>
#include <cctype>
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

double srgb_to_linear(double encoded) {
  const double c = std::clamp(encoded, 0.0, 1.0);
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double linear_to_srgb(double linear) {
  const double c = std::clamp(linear, 0.0, 1.0);
  return c <= 0.0031308 ? c * 12.92 : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055;
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

uint32_t big_endian32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

// stb_image decodes without checking chunk CRCs, so a damaged file could decode into a wrong
// picture without a word. Walk the chunks first: each complete, each CRC right (zlib's crc32),
// IHDR first, at least one IDAT, IEND last. Returns what is wrong, or an empty string.
std::string png_structure_error(const std::vector<unsigned char>& bytes) {
  size_t at = 8;
  bool seen_idat = false;
  for (int index = 0;; ++index) {
    if (bytes.size() - at < 12) return index == 0 ? "no IHDR chunk (truncated)" : "truncated (no IEND chunk)";
    const uint32_t length = big_endian32(&bytes[at]);
    const std::string type(reinterpret_cast<const char*>(&bytes[at + 4]), 4);
    for (char c : type)
      if (!std::isalpha(static_cast<unsigned char>(c))) return "a chunk type is not letters (corrupt file)";
    if (length > 0x7fffffffu || length > bytes.size() - at - 12) return "chunk " + type + " is truncated";
    const uint32_t stored = big_endian32(&bytes[at + 8 + length]);
    const uint32_t actual = static_cast<uint32_t>(crc32(crc32(0L, Z_NULL, 0), &bytes[at + 4], 4 + length));
    if (stored != actual) return "chunk " + type + " has a bad CRC (corrupt file)";
    if (index == 0 && (type != "IHDR" || length != 13)) return "the first chunk is not IHDR";
    if (index == 0) {
      // The header's fields, as the PNG specification allows them.
      const unsigned char* h = &bytes[at + 8];
      const uint32_t width = big_endian32(h), height = big_endian32(h + 4);
      const int depth = h[8], color = h[9];
      if (width == 0 || height == 0) return "the header declares no pixels (" + std::to_string(width) + "x" + std::to_string(height) + ")";
      if (width > static_cast<uint32_t>(kMaxImageEdge) || height > static_cast<uint32_t>(kMaxImageEdge))
        return "the header declares " + std::to_string(width) + "x" + std::to_string(height) + ", larger than " +
               std::to_string(kMaxImageEdge) + "x" + std::to_string(kMaxImageEdge);
      const bool depth_ok = (color == 0 && (depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16)) ||
                            (color == 3 && (depth == 1 || depth == 2 || depth == 4 || depth == 8)) ||
                            ((color == 2 || color == 4 || color == 6) && (depth == 8 || depth == 16));
      if (!depth_ok) return "bit depth " + std::to_string(depth) + " with color type " + std::to_string(color) + " is not valid PNG";
      if (h[10] != 0 || h[11] != 0) return "unknown compression or filter method";
      if (h[12] > 1) return "unknown interlace method " + std::to_string(h[12]);
    }
    if (index > 0 && type == "IHDR") return "a second IHDR chunk";
    if (type == "IDAT") seen_idat = true;
    at += 12 + length;
    if (type == "IEND") return seen_idat ? "" : "no IDAT chunk (no pixels)";
  }
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
  if (const std::string problem = png_structure_error(bytes); !problem.empty())
    throw Error("cannot load '" + name + "': " + problem);
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
