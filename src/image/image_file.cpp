#include "image/image_file.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

#include "image/codecs.h"
#include "util/error.h"
#include "util/files.h"

namespace blurlab {

namespace {

bool starts_with(std::string_view bytes, std::string_view prefix) { return bytes.substr(0, prefix.size()) == prefix; }
// bytes[at, at + count), empty where the bytes end before `at`.
std::string_view slice(std::string_view bytes, size_t at, size_t count) {
  return at <= bytes.size() ? bytes.substr(at, count) : std::string_view();
}

std::optional<ImageFormat> format_of(std::string_view head) {
  if (starts_with(head, std::string_view("\x89PNG\r\n\x1a\n", 8))) return ImageFormat::png;
  if (starts_with(head, "\xFF\xD8\xFF")) return ImageFormat::jpeg;
  return std::nullopt;
}

// Formats people try that blurlab does not read, by signature, so the message can name them.
std::string_view unsupported_format_of(std::string_view head) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 13> kSignatures = {{
      {"GIF87a", "GIF"},
      {"GIF89a", "GIF"},
      {"BM", "BMP"},
      {std::string_view("II*\0", 4), "TIFF"},
      {std::string_view("MM\0*", 4), "TIFF"},
      {"#?RADIANCE", "Radiance HDR"},
      {"#?RGBE", "Radiance HDR"},
      {"\x76\x2f\x31\x01", "OpenEXR"},
      {"8BPS", "Photoshop"},
      {"qoif", "QOI"},
      {std::string_view("\0\0\0\x0cjP  ", 8), "JPEG 2000"},
      {"\xff\x4f\xff\x51", "JPEG 2000"},
      {"DDS ", "DDS"},
  }};
  for (const auto& [signature, name] : kSignatures)
    if (starts_with(head, signature)) return name;
  if (starts_with(head, "RIFF") && slice(head, 8, 4) == "WEBP") return "WebP";
  if (slice(head, 4, 4) == "ftyp") return "HEIF/AVIF";
  return {};
}

// Refuses what is not PNG or JPEG, naming what it is where the signature says.
void check_signature(std::string_view head, const std::string& name) {
  if (head.empty()) throw Error(codecs::load_failure(name, "the file is empty"));
  if (format_of(head)) return;
  const std::string_view other = unsupported_format_of(head);
  throw Error(codecs::load_failure(
      name, other.empty() ? "not a PNG or JPEG file (the formats blurlab reads)"
                          : "it is a " + std::string(other) + " file; blurlab reads PNG and JPEG"));
}

std::optional<ImageFormat> format_for_extension(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) { return std::tolower(c); });
  if (extension == ".png") return ImageFormat::png;
  if (extension == ".jpg" || extension == ".jpeg") return ImageFormat::jpeg;
  return std::nullopt;
}

std::string extension_problem(const std::filesystem::path& path) {
  const std::string extension = path.extension().string();
  return (extension.empty() ? std::string("no extension") : "unknown extension '" + extension + "'") +
         " (blurlab writes .png, .jpg and .jpeg)";
}

}  // namespace

namespace codecs {

std::string load_failure(const std::string& label, const std::string& reason) { return "cannot load " + label + ": " + reason; }

void check_header(const ImageFileInfo& info, const std::string& name, const ImageHeaderCheck& check) {
  if (info.width <= 0 || info.height <= 0 || info.width > kMaxImageEdge || info.height > kMaxImageEdge)
    throw Error(load_failure(name, "the header declares " + std::to_string(info.width) + "x" + std::to_string(info.height) +
                                       " pixels; blurlab takes 1x1 to " + std::to_string(kMaxImageEdge) + "x" +
                                       std::to_string(kMaxImageEdge)));
  if (check) check(info);
}

}  // namespace codecs

std::string_view name(ImageFormat format) { return format == ImageFormat::png ? "PNG" : "JPEG"; }

int max_bits(ImageFormat format) { return format == ImageFormat::png ? 16 : 8; }

std::string describe(const ImageFileInfo& info) {
  static constexpr std::array<std::string_view, 5> kChannels = {"", "gray", "gray+alpha", "RGB", "RGBA"};
  const std::string_view channels = info.channels >= 1 && info.channels <= 4 ? kChannels[static_cast<size_t>(info.channels)] : "";
  return std::to_string(info.bits_per_channel) + "-bit " + std::string(channels) + (channels.empty() ? "" : " ") +
         std::string(name(info.format));
}

LoadedImage decode_image(std::string_view bytes, const std::string& name, const ImageHeaderCheck& check, std::string_view what) {
  const std::string label = std::string(what) + " '" + name + "'";
  check_signature(bytes.substr(0, kFileHeadBytes), label);
  return *format_of(bytes) == ImageFormat::png ? codecs::decode_png(bytes, label, check) : codecs::decode_jpeg(bytes, label, check);
}

LoadedImage load_image(const std::filesystem::path& path, const ImageHeaderCheck& check, std::string_view what) {
  const std::string name = path.string();
  const std::string bytes = read_regular_file(path, kMaxImageFileBytes, what,
                                              [&](std::string_view head) { check_signature(head, std::string(what) + " '" + name + "'"); });
  return decode_image(bytes, name, check, what);
}

ImageFormat output_format(const std::filesystem::path& path, std::string_view option) {
  if (const auto format = format_for_extension(path)) return *format;
  throw UsageError(std::string(option) + " '" + path.string() + "': " + extension_problem(path));
}

std::string encode_image(const Image& image, ImageFormat format, int bits) {
  if (bits != 8 && !(bits == 16 && format == ImageFormat::png))
    throw Error("a " + std::string(name(format)) + " file cannot hold " + std::to_string(bits) + " bits per channel");
  return format == ImageFormat::png ? codecs::encode_png(image, bits) : codecs::encode_jpeg(image);
}

void save_image(const Image& image, const std::filesystem::path& path, int bits, std::string_view what) {
  const std::string cannot_write = "cannot write " + (what.empty() ? "" : std::string(what) + " ") + "'" + path.string() + "': ";
  const auto format = format_for_extension(path);
  if (!format) throw Error(cannot_write + extension_problem(path));
  std::string bytes;
  try {
    bytes = encode_image(image, *format, bits);
  } catch (const Error& e) {
    throw Error(cannot_write + e.what());
  }
  write_file_atomically(path, bytes, what);
}

}  // namespace blurlab
