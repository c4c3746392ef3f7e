#include "presenter.h"

#include <cstdio>

#include "gl/barriers.h"
#include "gl/bindings.h"

namespace blurlab::app {
namespace {

// The present shader's tolerance (relative, absolute) for a difference, from a check's tolerance:
// rgba8 values differ by whole steps, so the limit sits half a step above the allowed ones.
glm::vec2 shader_tolerance(const Tolerance& t) {
  return t.lsb ? glm::vec2(0.0f, static_cast<float>((t.lsb_limit + 0.5) / 255.0))
               : glm::vec2(static_cast<float>(t.relative), static_cast<float>(t.absolute));
}

}  // namespace

void Presenter::refresh(gl::ProgramCache& programs) {
  program_ = programs.share({{GL_VERTEX_SHADER, "fullscreen.vert"}, {GL_FRAGMENT_SHADER, "present.frag"}}, {});
  mode_ = glGetUniformLocation(program_->id(), "u_mode");
  amplify_ = glGetUniformLocation(program_->id(), "u_amplify");
  tolerance_ = glGetUniformLocation(program_->id(), "u_tolerance");
  encoding_ = glGetUniformLocation(program_->id(), "u_encoding");
}

void Presenter::draw(const gl::Texture& image, const gl::Texture* other, const Tolerance& tolerance, Encoding encoding,
                     glm::ivec2 size) const {
  gl::barriers().before(gl::Access::TextureFetch, image.id());
  if (other) gl::barriers().before(gl::Access::TextureFetch, other->id());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, size.x, size.y);
  glUseProgram(program_->id());
  const auto bind = [](gl::Unit unit, GLuint texture) {
    glActiveTexture(GL_TEXTURE0 + gl::unit_number(unit));
    glBindTexture(GL_TEXTURE_2D, texture);
    glBindSampler(gl::unit_number(unit), 0);
  };
  bind(gl::Unit::PresentImage, image.id());
  bind(gl::Unit::PresentOther, other ? other->id() : image.id());
  glActiveTexture(GL_TEXTURE0);
  glUniform1i(mode_, other ? 1 : 0);
  glUniform1f(amplify_, kDiffAmplify);
  const glm::vec2 limits = shader_tolerance(tolerance);
  glUniform2f(tolerance_, limits.x, limits.y);
  glUniform1i(encoding_, static_cast<GLint>(encoding));
  glBindVertexArray(empty_vao_.get());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
}

gl::Texture reference_texture(const ReferenceImage& reference, gl::Format format) {
  gl::Texture texture(reference.width, reference.height, format, "CPU reference");
  Image image(reference.width, reference.height);
  const bool unorm = !gl::info(format).is_float;
  for (size_t i = 0; i < image.texels.size(); ++i)
    image.texels[i] = unorm ? static_cast<float>(to_unorm8(reference.texels[i]) / 255.0) : static_cast<float>(reference.texels[i]);
  texture.upload(image);
  return texture;
}

std::string tolerance_text(const Tolerance& t) {
  if (t.lsb) return "beyond " + std::to_string(t.lsb_limit) + " LSB";
  char text[64];
  std::snprintf(text, sizeof text, "beyond %.1e x |ref| + %.1e", t.relative, t.absolute);
  return text;
}

}  // namespace blurlab::app
