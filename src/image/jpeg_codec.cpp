// JPEG through libjpeg-turbo's libjpeg API, set up to refuse what it would otherwise paper over:
// every warning is an error (libjpeg warns of corrupt or truncated data and fills the gap with
// grey), progressive files may not have more than kMaxScans scans (each scan re-decodes the whole
// image: thousands of tiny scans are a known way to burn minutes of CPU), and only gray and
// YCbCr/RGB files are read (CMYK would need a colour conversion libjpeg does not do).
#include <cstdio>  // jpeglib.h uses FILE and size_t without including them
#include <cstdlib>

#include <jpeglib.h>
#include <jerror.h>

#include <csetjmp>
#include <cstring>
#include <memory>
#include <vector>

#include "image/codecs.h"
#include "util/error.h"

namespace blurlab::codecs {

namespace {

constexpr int kMaxScans = 500;  // libjpeg-turbo's own tools use the same limit
constexpr int kQuality = 95;

// libjpeg reports an error through on_error, which keeps the message and longjmps back into
// guarded(); as with libpng, only C frames and bodies without destructors lie in between.
struct JpegErrors {
  jpeg_error_mgr manager;  // first: libjpeg hands callbacks a pointer to it
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

[[noreturn]] void on_error(j_common_ptr cinfo) {
  auto* errors = reinterpret_cast<JpegErrors*>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, errors->message);
  std::longjmp(errors->jump, 1);
}

void on_message(j_common_ptr cinfo, int level) {
  if (level < 0) on_error(cinfo);  // a warning: corrupt data, a premature end
}

void on_progress(j_common_ptr cinfo) {
  if (!cinfo->is_decompressor || reinterpret_cast<j_decompress_ptr>(cinfo)->input_scan_number <= kMaxScans) return;
  auto* errors = reinterpret_cast<JpegErrors*>(cinfo->err);
  std::snprintf(errors->message, sizeof errors->message, "more than %d progressive scans", kMaxScans);
  std::longjmp(errors->jump, 1);
}

template <typename Body>
bool guarded(JpegErrors& errors, Body&& body) {
  if (setjmp(errors.jump)) return false;
  body();
  return true;
}

JpegErrors make_errors() {
  JpegErrors errors{};
  jpeg_std_error(&errors.manager);
  errors.manager.error_exit = on_error;
  errors.manager.emit_message = on_message;
  return errors;
}

class JpegDecoder {
 public:
  JpegDecoder() : errors_(make_errors()) {
    cinfo_.err = &errors_.manager;
    progress_.progress_monitor = on_progress;
  }
  JpegDecoder(const JpegDecoder&) = delete;
  JpegDecoder& operator=(const JpegDecoder&) = delete;
  ~JpegDecoder() { jpeg_destroy_decompress(&cinfo_); }  // safe after a failed or missing create

  jpeg_decompress_struct& cinfo() { return cinfo_; }
  jpeg_progress_mgr& progress() { return progress_; }
  JpegErrors& errors() { return errors_; }

 private:
  JpegErrors errors_;
  jpeg_decompress_struct cinfo_{};
  jpeg_progress_mgr progress_{};
};

}  // namespace

LoadedImage decode_jpeg(std::string_view bytes, const std::string& name, const ImageHeaderCheck& check) {
  JpegDecoder decoder;
  jpeg_decompress_struct& cinfo = decoder.cinfo();
  const auto failure = [&] { return Error(load_failure(name, decoder.errors().message)); };

  const bool header_read = guarded(decoder.errors(), [&] {
    jpeg_create_decompress(&cinfo);
    cinfo.progress = &decoder.progress();
    jpeg_mem_src(&cinfo, reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<unsigned long>(bytes.size()));
    jpeg_read_header(&cinfo, TRUE);
  });
  if (!header_read) throw failure();
  const bool gray = cinfo.jpeg_color_space == JCS_GRAYSCALE && cinfo.num_components == 1;
  const bool colour = (cinfo.jpeg_color_space == JCS_YCbCr || cinfo.jpeg_color_space == JCS_RGB) && cinfo.num_components == 3;
  if (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK)
    throw Error(load_failure(name, "CMYK JPEGs are not supported (gray and colour ones are)"));
  if (!gray && !colour)
    throw Error(load_failure(name, "a JPEG of " + std::to_string(cinfo.num_components) + " components in an unknown colour space"));

  ImageFileInfo file;
  file.format = ImageFormat::jpeg;
  file.width = static_cast<int>(cinfo.image_width);
  file.height = static_cast<int>(cinfo.image_height);
  file.channels = cinfo.num_components;
  file.bits_per_channel = cinfo.data_precision;
  file.srgb_encoded = true;
  file.file_bytes = bytes.size();
  // A progressive or multi-scan file keeps every coefficient (2 bytes) of every component.
  file.decoder_bytes_per_texel = 2 * cinfo.num_components;
  check_header(file, name, check);

  LoadedImage loaded{Image(file.width, file.height), file};
  Image& image = loaded.image;
  std::vector<unsigned char> row(static_cast<size_t>(image.width) * 4);
  const bool pixels_read = guarded(decoder.errors(), [&] {
    cinfo.out_color_space = JCS_EXT_RGBA;  // gray and YCbCr alike; alpha 255
    jpeg_start_decompress(&cinfo);
    if (cinfo.output_components != 4 || cinfo.output_width != cinfo.image_width || cinfo.output_height != cinfo.image_height)
      ERREXIT(&cinfo, JERR_BAD_DCTSIZE);
    while (cinfo.output_scanline < cinfo.output_height) {
      JSAMPROW rows[1] = {row.data()};
      const int y = static_cast<int>(cinfo.output_scanline);
      if (jpeg_read_scanlines(&cinfo, rows, 1) != 1) ERREXIT(&cinfo, JERR_INPUT_EOF);
      float* out = &image.texels[static_cast<size_t>(y) * image.width * 4];
      for (int i = 0; i < image.width * 4; ++i) out[i] = static_cast<float>(row[static_cast<size_t>(i)] / 255.0);
    }
    jpeg_finish_decompress(&cinfo);
  });
  if (!pixels_read) throw failure();
  return loaded;
}

std::string encode_jpeg(const Image& image) {
  JpegErrors errors = make_errors();
  jpeg_compress_struct cinfo{};
  cinfo.err = &errors.manager;
  unsigned char* buffer = nullptr;  // jpeg_mem_dest's, malloc'ed: ours to free
  unsigned long size = 0;
  std::vector<unsigned char> row(static_cast<size_t>(image.width) * 3);
  const bool written = guarded(errors, [&] {
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &buffer, &size);
    cinfo.image_width = static_cast<JDIMENSION>(image.width);
    cinfo.image_height = static_cast<JDIMENSION>(image.height);
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, kQuality, TRUE);
    // No chroma subsampling: a blur lab's colour edges stay where they are.
    cinfo.comp_info[0].h_samp_factor = 1;
    cinfo.comp_info[0].v_samp_factor = 1;
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
      const float* in = &image.texels[static_cast<size_t>(cinfo.next_scanline) * image.width * 4];
      for (int x = 0; x < image.width; ++x)
        for (int c = 0; c < 3; ++c) row[static_cast<size_t>(3 * x + c)] = to_unorm8(in[4 * x + c]);
      JSAMPROW rows[1] = {row.data()};
      jpeg_write_scanlines(&cinfo, rows, 1);
    }
    jpeg_finish_compress(&cinfo);
  });
  jpeg_destroy_compress(&cinfo);
  const std::unique_ptr<unsigned char, void (*)(void*)> owned(buffer, std::free);
  if (!written) throw Error(std::string("the JPEG encoder failed: ") + errors.message);
  return std::string(reinterpret_cast<const char*>(owned.get()), size);
}

}  // namespace blurlab::codecs
