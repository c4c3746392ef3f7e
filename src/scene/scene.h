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
  // the picture, like every image in blurlab.
  void render(const gl::Texture& target, double time_seconds);

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
