#pragma once
// What the window shows: a texture as it is, or the difference of two amplified in grey with red
// where it exceeds the tolerance (glsl/present.frag), drawn as one fullscreen triangle.
#include <memory>
#include <string>

#include <glm/vec2.hpp>

#include "blur/check.h"
#include "blur/reference.h"
#include "gl/handles.h"
#include "gl/shader.h"
#include "gl/texture.h"

namespace blurlab::app {

// The difference views amplify |a - b| by this much: one 8-bit step is a quarter of white.
inline constexpr float kDiffAmplify = 64.0f;

class Presenter {
 public:
  explicit Presenter(gl::ProgramCache& programs) { refresh(programs); }
  // Looks the program and its uniforms up again (after the shaders are reloaded).
  void refresh(gl::ProgramCache& programs);
  // Draws `image`, or with `other` the difference of the two, into the window's framebuffer;
  // `encode_srgb` encodes linear-light values for the screen.
  void draw(const gl::Texture& image, const gl::Texture* other, const Tolerance& tolerance, bool encode_srgb, glm::ivec2 size) const;

 private:
  std::shared_ptr<const gl::Program> program_;
  GLint mode_ = -1, amplify_ = -1, tolerance_ = -1, encode_srgb_ = -1;
  gl::VertexArrayHandle empty_vao_ = gl::create_vertex_array();
};

// The reference as the output texture stores it, so a correct variant differs from it only by
// its real errors: rgba8 rounded like to_unorm8 (exact in the texture), float values rounded to
// the format by the upload.
gl::Texture reference_texture(const ReferenceImage& reference, gl::Format format);

// What red means in a difference view: "beyond 1 LSB", "beyond 1.0e-03 x |ref| + 1.0e-04".
std::string tolerance_text(const Tolerance& tolerance);

}  // namespace blurlab::app
