#pragma once
// A 2D texture with immutable storage (one level), NEAREST filtering and CLAMP_TO_EDGE, the
// default every blur expects; samplers override filtering where a variant wants it.
#include <cstdint>
#include <string_view>
#include <vector>

#include "gl/format.h"
#include "gl/handles.h"
#include "image/image.h"

namespace blurlab::gl {

class Texture {
 public:
  Texture() = default;
  Texture(int width, int height, Format format, std::string_view label = {});
  Texture(Texture&&) noexcept = default;
  Texture& operator=(Texture&&) noexcept;
  ~Texture();

  GLuint id() const { return handle_.get(); }
  int width() const { return width_; }
  int height() const { return height_; }
  Format format() const { return format_; }
  explicit operator bool() const { return static_cast<bool>(handle_); }

  // Row 0 of the image becomes texel row 0 (no flip); rgba8 rounds to the nearest 8-bit value.
  void upload(const Image& image);
  // Exact contents: rgba8 as k/255, float formats as stored.
  Image download() const;
  // Exact contents as stored: GL_RGBA in info(format).storage_type, row 0 first, no padding.
  std::vector<uint8_t> download_texels() const;

 private:
  TextureHandle handle_;
  int width_ = 0;
  int height_ = 0;
  Format format_ = Format::rgba8;
};

// Overwrites every texel with `rgba` (through a framebuffer clear): "poison" before a check,
// so a texel a variant forgets to write shows up as an error.
void fill(const Texture& texture, const float rgba[4]);

// Debug label shown in KHR_debug messages and GPU debuggers.
void set_label(GLenum identifier, GLuint name, std::string_view label);

}  // namespace blurlab::gl
