#pragma once
// What the window shows: a texture as it is (linear light sRGB-encoded, an HDR frame tonemapped),
// or the difference of two amplified in grey with red where it exceeds the tolerance
// (glsl/present.frag), drawn as one fullscreen triangle.
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

// How the image's values become the screen's (present.frag's u_encoding).
enum class Encoding {
  AsStored = 0,  // sRGB code values already: the scene, a blur of it, an effect's picture
  Srgb = 1,      // linear light in [0, 1]: the sRGB encoding (L)
  Tonemap = 2,   // HDR radiance: the effects' tonemap and sRGB encoding (effects/tonemap.h)
};

class Presenter {
 public:
  explicit Presenter(gl::ProgramCache& programs) { refresh(programs); }
  // Looks the program and its uniforms up again (after the shaders are reloaded).
  void refresh(gl::ProgramCache& programs);
  // Draws `image` encoded for the screen by `encoding`, or with `other` the difference of the
  // two, into the window's framebuffer.
  void draw(const gl::Texture& image, const gl::Texture* other, const Tolerance& tolerance, Encoding encoding, glm::ivec2 size) const;

 private:
  std::shared_ptr<const gl::Program> program_;
  GLint mode_ = -1, amplify_ = -1, tolerance_ = -1, encoding_ = -1;
  gl::VertexArrayHandle empty_vao_ = gl::create_vertex_array();
};

// The reference as the output texture stores it, so a correct variant differs from it only by
// its real errors: rgba8 rounded like to_unorm8 (exact in the texture), float values rounded to
// the format by the upload.
gl::Texture reference_texture(const ReferenceImage& reference, gl::Format format);

// What red means in a difference view: "beyond 1 LSB", "beyond 1.0e-03 x |ref| + 1.0e-04".
std::string tolerance_text(const Tolerance& tolerance);

}  // namespace blurlab::app
