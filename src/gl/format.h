#pragma once
// The texel formats blurlab blurs in: 8-bit unorm and the two float formats; and the depth format
// of a scene's depth texture (what depth of field reads), which no blur takes.
#include <array>
#include <optional>
#include <string_view>

#include "gl/gl.h"

namespace blurlab::gl {

enum class Format { rgba8, rgba16f, rgba32f, depth32f };

struct FormatInfo {
  Format format;
  std::string_view name;    // also the GLSL image format qualifier
  GLenum internal_format;
  int bytes_per_texel;
  bool is_float;
  // The unsigned-integer image format of the same size (GL's format compatibility by size): a
  // texture bound with it is read and written as raw bits (uimage2D), without conversions.
  std::string_view raw_name;
  GLenum raw_format;
  // The pixel type of a texel as stored, read back or filled with GL_RGBA (bytes_per_texel a
  // texel): a texture's exact contents (Texture::download_texels, --export's data files).
  GLenum storage_type;
};

inline constexpr std::array<FormatInfo, 3> kFormats = {{
    {Format::rgba8, "rgba8", GL_RGBA8, 4, false, "r32ui", GL_R32UI, GL_UNSIGNED_BYTE},
    {Format::rgba16f, "rgba16f", GL_RGBA16F, 8, true, "rg32ui", GL_RG32UI, GL_HALF_FLOAT},
    {Format::rgba32f, "rgba32f", GL_RGBA32F, 16, true, "rgba32ui", GL_RGBA32UI, GL_FLOAT},
}};

// The depth texture's: sampled (texelFetch reads the window-space depth in red), never an image,
// so it has no raw twin; not among kFormats, so no option takes it.
inline constexpr FormatInfo kDepthFormat{Format::depth32f, "depth32f", GL_DEPTH_COMPONENT32F, 4, true, "", 0, GL_FLOAT};

const FormatInfo& info(Format format);
inline std::string_view name(Format format) { return info(format).name; }
std::optional<Format> parse_format(std::string_view text);

}  // namespace blurlab::gl
