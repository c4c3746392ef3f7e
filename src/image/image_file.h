#pragma once
// Image files: PNG (libpng) and JPEG (libjpeg-turbo), read and written. What a file is comes from
// its first bytes, never from its name; what to write comes from the name's extension. Both
// decoders are maintained, fuzzed upstream, and set up strictly: damaged data is an error, never
// a picture.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "image/image.h"

namespace blurlab {

enum class ImageFormat { png, jpeg };
std::string_view name(ImageFormat format);  // "PNG", "JPEG"
// The most bits per channel the format stores: PNG 16, JPEG 8.
int max_bits(ImageFormat format);

// What an image file holds, from its header.
struct ImageFileInfo {
  ImageFormat format = ImageFormat::png;
  int width = 0;
  int height = 0;
  int channels = 0;          // in the file: 1 gray, 2 gray + alpha, 3 RGB or palette, 4 RGBA
  int bits_per_channel = 8;  // in the file: 1, 2, 4, 8 or 16 (a palette's colours are 8-bit)
  bool srgb_encoded = true;  // false only where the file says its values are linear (PNG gAMA 1.0)
  uint64_t file_bytes = 0;
  int decoder_bytes_per_texel = 0;  // the decoder's own buffers while it runs, besides the Image
};
// "16-bit RGBA PNG", "8-bit gray JPEG", "8-bit palette PNG".
std::string describe(const ImageFileInfo& info);

struct LoadedImage {
  Image image;  // RGBA in [0, 1] (k / 255 or k / 65535), row 0 at the top; alpha 1 where the file has none
  ImageFileInfo info;
};

// Sees the header's numbers before any pixel is decoded, and throws to refuse the image (e.g.
// a run that would not fit in memory). Edges above kMaxImageEdge are refused before it is called.
using ImageHeaderCheck = std::function<void(const ImageFileInfo&)>;

// The largest image file read: a 16384x16384 16-bit RGBA PNG stored without compression is
// 2 GiB; the rest is room for its framing and metadata.
inline constexpr uint64_t kMaxImageFileBytes = uint64_t{5} << 29;  // 2.5 GiB

// Decodes a PNG or JPEG held in memory. `name` names it in messages, after `what` (the option it
// came from, "--radius-map", or "the image"). Throws blurlab::Error with one line: "cannot load
// WHAT 'NAME': REASON".
LoadedImage decode_image(std::string_view bytes, const std::string& name, const ImageHeaderCheck& check = {},
                         std::string_view what = "the image");
// Reads the file (read_regular_file: regular files only, at most kMaxImageFileBytes, the
// signature checked first) and decodes it. `what` names it in messages: "--image" for the option.
LoadedImage load_image(const std::filesystem::path& path, const ImageHeaderCheck& check = {}, std::string_view what = "the image");

// The format an output name asks for: .png, or .jpg / .jpeg (any case). Anything else is a
// UsageError naming `option` ("--output", "--screenshot"), so it is refused before any GL work.
ImageFormat output_format(const std::filesystem::path& path, std::string_view option);
// The file's bytes. PNG: RGBA at 8 or 16 bits per channel. JPEG: 8-bit RGB at quality 95 with no
// chroma subsampling; JPEG has no alpha channel, so alpha is dropped. Throws blurlab::Error.
std::string encode_image(const Image& image, ImageFormat format, int bits = 8);
// Encodes for the extension (output_format) and writes whole or not at all (write_file_atomically;
// `what` names the option in messages, e.g. "--output").
void save_image(const Image& image, const std::filesystem::path& path, int bits = 8, std::string_view what = {});

}  // namespace blurlab
