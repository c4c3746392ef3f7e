#pragma once
// The mean of several HDR renders of the scene, each from its own camera: an accumulation buffer
// (Haeberli and Akeley, "The accumulation buffer", SIGGRAPH 1990). Depth of field's ground truth is
// the scene seen from many points of a lens's aperture and averaged (effects/dof.h); headless it is
// made once per frame (EffectReadback::scene_mean), in the window one view a frame, shown as it
// converges.
//
// Each view is rendered as the effects' frame is (Scene::render_hdr: rgba16f), then added into an
// rgba32f sum by glsl/effects/scene_mean.comp: fp32 adds exactly as many views of fp16 radiance as
// the sum's 24 bits leave room for (2^13 views of equal values), and within 2^-24 relative per add
// beyond.
#include <glm/vec2.hpp>

#include "blur/pass_runner.h"
#include "gl/shader.h"
#include "gl/texture.h"
#include "image/image.h"
#include "scene/scene.h"

namespace blurlab {

class SceneMean {
 public:
  SceneMean(Scene& scene, gl::ProgramCache& programs);

  // Starts a new mean of frames of `size` (no views yet).
  void clear(glm::ivec2 size);
  // Renders the scene at `time_seconds` from `camera` and adds the view.
  void add(double time_seconds, const SceneCamera& camera);
  int views() const { return views_; }
  glm::ivec2 size() const { return {sum_.width(), sum_.height()}; }
  // The mean radiance of the views so far, read back (rgba; alpha 1). Throws Error before a view.
  Image download_mean() const;
  // The mean as a picture: tonemapped and sRGB-encoded (effects/tonemap.h) into `picture` (rgba8,
  // the mean's size), as every effect ships its frame. Throws Error before a view.
  void present(const gl::Texture& picture);

 private:
  Scene& scene_;
  gl::ProgramCache& programs_;
  PassRunner runner_;
  gl::Texture sum_, view_, view_depth_;
  int views_ = 0;
};

}  // namespace blurlab
