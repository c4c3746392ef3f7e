#pragma once
// The animated scene the app blurs: rotating, lit icosahedra over a gridded backdrop (after the
// classic compute-blur demo). A pure function of time: render(t) draws the frame at t seconds.
#include "gl/shader.h"
#include "gl/texture.h"

namespace blurlab {

class Scene {
 public:
  explicit Scene(gl::ProgramCache& programs);
  // Renders into `target` (colour; depth is the scene's own). Row 0 of the target is the top of
  // the picture, like every image in blurlab. The scene's colours are sRGB code values; with
  // `linear_light` they are decoded to linear light (for an rgba16f target).
  void render(const gl::Texture& target, double time_seconds, bool linear_light = false);

  static constexpr int kInstances = 40;

 private:
  gl::ProgramCache& programs_;
  gl::BufferHandle vertices_;
  gl::VertexArrayHandle mesh_;
  gl::VertexArrayHandle empty_;
  gl::FramebufferHandle framebuffer_;
  gl::RenderbufferHandle depth_;
  int depth_width_ = 0, depth_height_ = 0;
  int vertex_count_ = 0;
};

}  // namespace blurlab
