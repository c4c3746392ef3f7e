#pragma once
// The codecs behind image_file.h, one file each. `name` is what messages call the file ("--image
// 'x.png'"). Decoders throw blurlab::Error with one line, "cannot load NAME: REASON"; exceptions
// from `check` pass through as they are.
#include <string>
#include <string_view>

#include "image/image_file.h"

namespace blurlab::codecs {

LoadedImage decode_png(std::string_view bytes, const std::string& name, const ImageHeaderCheck& check);
std::string encode_png(const Image& image, int bits);

LoadedImage decode_jpeg(std::string_view bytes, const std::string& name, const ImageHeaderCheck& check);
std::string encode_jpeg(const Image& image);

// "cannot load NAME: REASON"
std::string load_failure(const std::string& name, const std::string& reason);
// What every decoder does with a header before it decodes a pixel: refuses edges above
// kMaxImageEdge, then asks `check` (if any).
void check_header(const ImageFileInfo& info, const std::string& name, const ImageHeaderCheck& check);

}  // namespace blurlab::codecs
