#include "gl/format.h"

namespace blurlab::gl {

const FormatInfo& info(Format format) {
  if (format == Format::depth32f) return kDepthFormat;
  for (const auto& entry : kFormats)
    if (entry.format == format) return entry;
  return kFormats[0];
}

std::optional<Format> parse_format(std::string_view text) {
  for (const auto& entry : kFormats)
    if (entry.name == text) return entry.format;
  return std::nullopt;
}

}  // namespace blurlab::gl
