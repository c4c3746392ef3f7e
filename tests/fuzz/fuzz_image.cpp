// libFuzzer target for the image decoders: PNG (libpng) and JPEG (libjpeg-turbo) from arbitrary
// bytes, through blurlab's decode_image. blurlab::Error is the expected answer to a bad file;
// anything else that escapes (std::bad_alloc included) or any sanitizer report is a bug. What
// decodes is encoded again as PNG at its depth and must decode to the very same texels.
// Seeds (corpus/image/): tiny valid files made with tests/fixtures/image_bytes.h: PNGs of every
// colour type, 1 to 16 bits, a palette with tRNS, an interlaced one; baseline, progressive and
// subsampled JPEGs.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "image/image_file.h"
#include "util/error.h"

namespace {

// A real run refuses images its memory cannot hold; the fuzzer's budget is libFuzzer's RSS limit
// (2 GiB by default): 4M texels are 64 MiB as float RGBA.
constexpr uint64_t kMaxTexels = uint64_t{1} << 22;

void refuse_large(const blurlab::ImageFileInfo& info) {
  if (static_cast<uint64_t>(info.width) * static_cast<uint64_t>(info.height) > kMaxTexels)
    throw blurlab::Error("more texels than the fuzzer's budget");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const blurlab::LoadedImage loaded = blurlab::decode_image(bytes, "fuzz input", refuse_large);
    const int bits = loaded.info.bits_per_channel == 16 ? 16 : 8;
    const blurlab::LoadedImage again =
        blurlab::decode_image(blurlab::encode_image(loaded.image, blurlab::ImageFormat::png, bits), "round trip");
    if (again.image.width != loaded.image.width || again.image.height != loaded.image.height ||
        again.image.texels != loaded.image.texels)
      __builtin_trap();
  } catch (const blurlab::Error&) {
  }
  return 0;
}
