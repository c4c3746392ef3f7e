#include "gl/texture.h"

#include <string>

#include "gl/barriers.h"
#include "util/error.h"

namespace blurlab::gl {

void set_label(GLenum identifier, GLuint name, std::string_view label) {
  if (!label.empty() && epoxy_has_gl_extension("GL_KHR_debug"))
    glObjectLabel(identifier, name, static_cast<GLsizei>(label.size()), label.data());
}

Texture::Texture(int width, int height, Format format, std::string_view label)
    : handle_(create_texture()), width_(width), height_(height), format_(format) {
  if (width <= 0 || height <= 0) throw Error("texture size must be positive");
  glBindTexture(GL_TEXTURE_2D, handle_.get());
  while (glGetError() != GL_NO_ERROR) {
  }
  glTexStorage2D(GL_TEXTURE_2D, 1, info(format).internal_format, width, height);
  // Allocation is where a huge size fails: say so instead of blurring into nothing.
  if (const GLenum error = glGetError(); error != GL_NO_ERROR) {
    glBindTexture(GL_TEXTURE_2D, 0);
    throw Error("cannot allocate a " + std::to_string(width) + "x" + std::to_string(height) + " " + std::string(name(format)) +
                " texture (" + (error == GL_OUT_OF_MEMORY ? std::string("out of memory") : "GL error " + std::to_string(error)) + ")");
  }
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, 0);
  set_label(GL_TEXTURE, handle_.get(), label);
}

Texture& Texture::operator=(Texture&& other) noexcept {
  if (this != &other) {
    if (handle_) barriers().forget(handle_.get());
    handle_ = std::move(other.handle_);
    width_ = other.width_;
    height_ = other.height_;
    format_ = other.format_;
  }
  return *this;
}

Texture::~Texture() {
  if (handle_) barriers().forget(handle_.get());
}

namespace {
size_t texel_count(int width, int height) { return static_cast<size_t>(width) * static_cast<size_t>(height); }
}  // namespace

void Texture::upload(const Image& image) {
  if (format_ == Format::depth32f) throw Error("a depth texture is rendered, not uploaded");
  if (image.width != width_ || image.height != height_)
    throw Error("image " + std::to_string(image.width) + "x" + std::to_string(image.height) +
                " does not fit texture " + std::to_string(width_) + "x" + std::to_string(height_));
  barriers().before(Access::TextureUpdate, id());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glBindTexture(GL_TEXTURE_2D, id());
  if (format_ == Format::rgba8) {
    const auto bytes = to_rgba8(image);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, bytes.data());
  } else {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RGBA, GL_FLOAT, image.texels.data());
  }
  glBindTexture(GL_TEXTURE_2D, 0);
}

Image Texture::download() const {
  barriers().before(Access::TextureUpdate, id());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glBindTexture(GL_TEXTURE_2D, id());
  Image image(width_, height_);
  if (format_ == Format::depth32f) {  // the depth in red, the other channels 0 (alpha 1)
    std::vector<float> depth(texel_count(width_, height_));
    glGetTexImage(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, GL_FLOAT, depth.data());
    for (size_t i = 0; i < depth.size(); ++i) {
      image.texels[i * 4] = depth[i];
      image.texels[i * 4 + 3] = 1.0f;
    }
  } else if (format_ == Format::rgba8) {
    std::vector<uint8_t> bytes(image.texels.size());
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, bytes.data());
    image = from_rgba8(bytes.data(), width_, height_);
  } else {
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, image.texels.data());
  }
  glBindTexture(GL_TEXTURE_2D, 0);
  return image;
}

std::vector<uint8_t> Texture::download_texels() const {
  barriers().before(Access::TextureUpdate, id());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glBindTexture(GL_TEXTURE_2D, id());
  std::vector<uint8_t> bytes(static_cast<size_t>(width_) * height_ * static_cast<size_t>(info(format_).bytes_per_texel));
  glGetTexImage(GL_TEXTURE_2D, 0, format_ == Format::depth32f ? GL_DEPTH_COMPONENT : GL_RGBA, info(format_).storage_type, bytes.data());
  glBindTexture(GL_TEXTURE_2D, 0);
  return bytes;
}

void fill(const Texture& texture, const float rgba[4]) {
  barriers().before(Access::Framebuffer, texture.id());
  FramebufferHandle framebuffer = create_framebuffer();
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer.get());
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture.id(), 0);
  glClearBufferfv(GL_COLOR, 0, rgba);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

}  // namespace blurlab::gl
