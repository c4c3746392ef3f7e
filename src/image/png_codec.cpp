// PNG through libpng, set up to refuse what it would otherwise work around: a bad CRC in any
// chunk, a zlib stream that fails its check or holds too much or too little, benign errors and
// warnings (every one is about something wrong in the file), and palette indexes past the
// palette (libpng 1.6 expands them to black; we map palettes ourselves and refuse them).
#include <png.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

#include "image/codecs.h"
#include "util/error.h"

namespace blurlab::codecs {

// zlib's deflate: a run of 258 bytes in at most 2 bits of a fixed-code block, about 1032 to 1.
constexpr uint64_t kDeflateMostPerByte = 1032;

namespace {

// libpng reports an error through on_error, which keeps the message and longjmps back into
// guarded(). Only libpng's C frames and the body lie in between, and bodies create no object
// with a destructor (buffers are made before, outside), so the jump skips no destructor.
struct PngState {
  const unsigned char* input = nullptr;
  size_t input_size = 0;
  size_t read_at = 0;
  std::string* output = nullptr;
  char message[256] = {};
};

[[noreturn]] void on_error(png_structp png, png_const_charp message) {
  auto* state = static_cast<PngState*>(png_get_error_ptr(png));
  std::snprintf(state->message, sizeof state->message, "%s", message);
  png_longjmp(png, 1);
}

void read_input(png_structp png, png_bytep out, size_t count) {
  auto* state = static_cast<PngState*>(png_get_io_ptr(png));
  if (count > state->input_size - state->read_at) png_error(png, "the file ends early (truncated)");
  std::memcpy(out, state->input + state->read_at, count);
  state->read_at += count;
}

void write_output(png_structp png, png_bytep data, size_t count) {
  auto* state = static_cast<PngState*>(png_get_io_ptr(png));
  bool appended = true;
  try {
    state->output->append(reinterpret_cast<const char*>(data), count);
  } catch (const std::bad_alloc&) {
    appended = false;
  }
  if (!appended) png_error(png, "out of memory");  // outside the handler: longjmp must not leave one
}

void flush_nothing(png_structp) {}

template <typename Body>
bool guarded(png_structp png, Body&& body) {
  if (setjmp(png_jmpbuf(png))) return false;
  body();
  return true;
}

// Ancillary chunks blurlab does not use: skipped unparsed (their CRCs are still checked).
constexpr png_byte kSkippedChunks[] = "bKGD\0cHRM\0eXIf\0hIST\0iCCP\0iTXt\0oFFs\0pCAL\0pHYs\0sBIT\0sCAL\0sPLT\0sTER\0tEXt\0tIME\0zTXt";

class PngReader {
 public:
  explicit PngReader(std::string_view bytes) {
    state_.input = reinterpret_cast<const unsigned char*>(bytes.data());
    state_.input_size = bytes.size();
    png_ = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state_, on_error, on_error);  // warnings are errors
    if (png_) info_ = png_create_info_struct(png_);
    if (!png_ || !info_) throw std::bad_alloc();
  }
  PngReader(const PngReader&) = delete;
  PngReader& operator=(const PngReader&) = delete;
  ~PngReader() { png_destroy_read_struct(&png_, &info_, nullptr); }

  png_structp png() const { return png_; }
  png_infop info() const { return info_; }
  const char* message() const { return state_.message; }
  PngState& state() { return state_; }

 private:
  PngState state_;
  png_structp png_ = nullptr;
  png_infop info_ = nullptr;
};

// What the header says, and how rows come out after the transformations asked for.
struct PngHeader {
  png_uint_32 width = 0, height = 0;
  int bit_depth = 0, color_type = 0, interlace = 0;
  bool srgb = true;
  size_t row_bytes = 0;
};

// RGBA in [0, 1] for each palette index; `count` entries are valid.
struct Palette {
  std::array<std::array<float, 4>, 256> rgba{};
  int count = 0;
};

}  // namespace

LoadedImage decode_png(std::string_view bytes, const std::string& name, const ImageHeaderCheck& check) {
  PngReader reader(bytes);
  png_structp png = reader.png();
  png_infop info = reader.info();
  PngHeader h;
  Palette palette;
  const auto failure = [&] { return Error(load_failure(name, reader.message())); };

  const bool header_read = guarded(png, [&] {
    png_set_read_fn(png, &reader.state(), read_input);
    png_set_crc_action(png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
    png_set_benign_errors(png, 0);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, kSkippedChunks, static_cast<int>(sizeof kSkippedChunks / 5));
    png_read_info(png, info);
    png_get_IHDR(png, info, &h.width, &h.height, &h.bit_depth, &h.color_type, &h.interlace, nullptr, nullptr);
    // sRGB-encoded unless the file says gamma 1.0 and no sRGB chunk.
    png_fixed_point gamma = 0;
    if (!png_get_valid(png, info, PNG_INFO_sRGB) && png_get_gAMA_fixed(png, info, &gamma) && gamma == PNG_FP_1) h.srgb = false;
    if (h.color_type == PNG_COLOR_TYPE_PALETTE) {
      png_colorp colours = nullptr;
      png_bytep alpha = nullptr;
      int alphas = 0;
      png_get_PLTE(png, info, &colours, &palette.count);
      if (png_get_valid(png, info, PNG_INFO_tRNS)) png_get_tRNS(png, info, &alpha, &alphas, nullptr);
      for (int i = 0; i < palette.count; ++i)
        palette.rgba[i] = {static_cast<float>(colours[i].red / 255.0), static_cast<float>(colours[i].green / 255.0),
                           static_cast<float>(colours[i].blue / 255.0), i < alphas ? static_cast<float>(alpha[i] / 255.0) : 1.0f};
      png_set_packing(png);  // one index per byte
    } else {
      png_set_expand(png);  // gray below 8 bits to 8, a tRNS colour to alpha
      png_set_gray_to_rgb(png);
      png_set_add_alpha(png, 0xffff, PNG_FILLER_AFTER);  // opaque where the file has no alpha
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    h.row_bytes = png_get_rowbytes(png, info);
  });
  if (!header_read) throw failure();

  ImageFileInfo file;
  file.format = ImageFormat::png;
  file.width = static_cast<int>(std::min<png_uint_32>(h.width, INT32_MAX));
  file.height = static_cast<int>(std::min<png_uint_32>(h.height, INT32_MAX));
  switch (h.color_type) {
    case PNG_COLOR_TYPE_GRAY: file.channels = 1; break;
    case PNG_COLOR_TYPE_GRAY_ALPHA: file.channels = 2; break;
    case PNG_COLOR_TYPE_RGB_ALPHA: file.channels = 4; break;
    default: file.channels = 3;  // RGB or palette
  }
  file.bits_per_channel = h.bit_depth;
  file.srgb_encoded = h.srgb;
  file.file_bytes = bytes.size();
  // Interlaced images are decoded whole before conversion; others a row at a time.
  file.decoder_bytes_per_texel = h.interlace != PNG_INTERLACE_NONE ? (h.bit_depth == 16 ? 8 : 4) : 0;
  check_header(file, name, check);
  // Deflate packs at most about 1032 bytes into one: a file too short to hold the pixels its header
  // gives even so is cut short or damaged, refused before the image is allocated (a 69-byte map
  // saying 16384x16384 was decoded into 4 GiB of floats first).
  const uint64_t pixel_bytes = static_cast<uint64_t>(h.height) *
                               ((static_cast<uint64_t>(h.width) * (h.color_type == PNG_COLOR_TYPE_PALETTE ? 1 : file.channels) * h.bit_depth + 7) / 8);
  if (pixel_bytes / kDeflateMostPerByte > bytes.size())
    throw Error(load_failure(name, std::to_string(bytes.size()) + " bytes cannot hold the " + std::to_string(h.width) + "x" +
                                       std::to_string(h.height) + " pixels its header gives (" + std::to_string(pixel_bytes) +
                                       " bytes, deflate packs at most " + std::to_string(kDeflateMostPerByte) +
                                       " into one): it is cut short or damaged"));

  const bool is_palette = h.color_type == PNG_COLOR_TYPE_PALETTE;
  const size_t expected_row_bytes = static_cast<size_t>(h.width) * (is_palette ? 1 : (h.bit_depth == 16 ? 8 : 4));
  if (h.row_bytes != expected_row_bytes) throw Error(load_failure(name, "unexpected row layout from libpng"));

  LoadedImage loaded{Image(file.width, file.height), file};
  Image& image = loaded.image;
  int bad_index = -1;
  // Converts decoded row y to floats; a palette index past the palette stops the decode.
  const auto convert_row = [&](const unsigned char* row, int y) {
    float* out = &image.texels[static_cast<size_t>(y) * image.width * 4];
    if (is_palette) {
      for (int x = 0; x < image.width; ++x) {
        if (row[x] >= palette.count) {
          bad_index = row[x];
          return false;
        }
        std::memcpy(out + 4 * x, palette.rgba[row[x]].data(), 4 * sizeof(float));
      }
    } else if (h.bit_depth == 16) {
      for (int i = 0; i < image.width * 4; ++i) out[i] = static_cast<float>((row[2 * i] << 8 | row[2 * i + 1]) / 65535.0);
    } else {
      for (int i = 0; i < image.width * 4; ++i) out[i] = static_cast<float>(row[i] / 255.0);
    }
    return true;
  };

  bool pixels_read = false;
  if (h.interlace == PNG_INTERLACE_NONE) {
    std::vector<unsigned char> row(h.row_bytes);
    pixels_read = guarded(png, [&] {
      for (int y = 0; y < image.height; ++y) {
        png_read_row(png, row.data(), nullptr);
        if (!convert_row(row.data(), y)) return;
      }
      png_read_end(png, nullptr);  // the zlib check, the chunks after the pixels, IEND
    });
  } else {
    std::vector<unsigned char> whole(h.row_bytes * h.height);
    std::vector<png_bytep> rows(h.height);
    for (size_t y = 0; y < rows.size(); ++y) rows[y] = whole.data() + y * h.row_bytes;
    pixels_read = guarded(png, [&] {
      png_read_image(png, rows.data());
      png_read_end(png, nullptr);
    });
    if (pixels_read)
      for (int y = 0; y < image.height; ++y)
        if (!convert_row(rows[static_cast<size_t>(y)], y)) break;
  }
  if (!pixels_read) throw failure();
  if (bad_index >= 0)
    throw Error(load_failure(name, "palette index " + std::to_string(bad_index) + " is past the palette's " +
                                       std::to_string(palette.count) + " colours (corrupt file)"));
  return loaded;
}

std::string encode_png(const Image& image, int bits) {
  if (bits != 8 && bits != 16) throw Error("a PNG holds 8 or 16 bits per channel, not " + std::to_string(bits));
  PngState state;
  std::string bytes;
  state.output = &bytes;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, on_error, on_error);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!png || !info) {
    png_destroy_write_struct(&png, &info);
    throw std::bad_alloc();
  }
  std::vector<unsigned char> row(static_cast<size_t>(image.width) * 4 * (bits / 8));
  const bool written = guarded(png, [&] {
    png_set_write_fn(png, &state, write_output, flush_nothing);
    png_set_IHDR(png, info, static_cast<png_uint_32>(image.width), static_cast<png_uint_32>(image.height), bits,
                 PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < image.height; ++y) {
      const float* in = &image.texels[static_cast<size_t>(y) * image.width * 4];
      for (int i = 0; i < image.width * 4; ++i) {
        if (bits == 8) {
          row[static_cast<size_t>(i)] = to_unorm8(in[i]);
        } else {
          const uint16_t v = to_unorm16(in[i]);
          row[2 * static_cast<size_t>(i)] = static_cast<unsigned char>(v >> 8);
          row[2 * static_cast<size_t>(i) + 1] = static_cast<unsigned char>(v & 0xff);
        }
      }
      png_write_row(png, row.data());
    }
    png_write_end(png, nullptr);
  });
  png_destroy_write_struct(&png, &info);
  if (!written) throw Error(std::string("the PNG encoder failed: ") + state.message);
  return bytes;
}

}  // namespace blurlab::codecs
