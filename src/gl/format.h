#pragma once
// The texel formats blurlab blurs in: 8-bit unorm and the two float formats.
#include <array>
#include <optional>
#include <string_view>

#include "gl/gl.h"

namespace blurlab::gl {

enum class Format { rgba8, rgba16f, rgba32f };

struct FormatInfo {
  Format format;
  std::string_view name;    // also the GLSL image format qualifier
  GLenum internal_format;
  int bytes_per_texel;
  bool is_float;
};

inline constexpr std::array<FormatInfo, 3> kFormats = {{
    {Format::rgba8, "rgba8", GL_RGBA8, 4, false},
    {Format::rgba16f, "rgba16f", GL_RGBA16F, 8, true},
    {Format::rgba32f, "rgba32f", GL_RGBA32F, 16, true},
}};

const FormatInfo& info(Format format);
inline std::string_view name(Format format) { return info(format).name; }
std::optional<Format> parse_format(std::string_view text);

}  // namespace blurlab::gl
