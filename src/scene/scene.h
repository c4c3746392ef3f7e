#pragma once
// The animated scene the app blurs: rotating, lit icosahedra over a gridded backdrop (after the
// classic compute-blur demo). A pure function of time: render(t) draws the frame at t seconds.
//
// Two renderings of the same geometry and animation:
// - render(): the picture blurs are measured on, its colours sRGB code values (what an rgba8
//   target holds), or decoded to linear light (--linear);
// - render_hdr(): the scene as an engine renders it before post-processing: linear radiance in an
//   rgba16f target, with emissive faces far above 1 (up to kMaxEmission) for bloom to spread, and
//   the depth buffer kept as a texture (depth of field reads it). Effects (src/effects/) take it.
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "gl/shader.h"
#include "gl/texture.h"

namespace blurlab {

// Where the scene is seen from: a pinhole camera looking at the grid's centre, or, for depth of
// field, one point of a thin lens's aperture. A lens view displaces the eye by lens_offset (scene
// units, along the camera's right and up axes) and shears the projection so that the plane at
// focus_distance (along the view axis) projects exactly as it does from the lens's centre: points
// on that plane stay put, a point at view depth z moves by lens_offset (H / (2 tan(fov_y / 2)))
// (1 / focus_distance - 1 / z) pixels (on a frame of H rows). Averaged over the aperture's disk,
// these views are the thin lens's picture (effects/dof.h). With no offset the camera is the
// pinhole, its matrix computed as it always was.
struct SceneCamera {
  glm::vec3 eye{0.0f, 0.0f, 7.5f};
  glm::vec3 target{0.0f, 0.0f, 0.0f};
  float near_plane = 0.5f;
  float far_plane = 30.0f;
  // The vertical field of view in radians; 0: the scene's own (fov_y(aspect)).
  float field_of_view_y = 0.0f;
  glm::vec2 lens_offset{0.0f, 0.0f};
  float focus_distance = 0.0f;  // > 0 wherever lens_offset is not zero
  // The scene's vertical field of view for a width / height: 45 degrees, widened on narrower
  // targets so the 8x5 grid fits.
  static float fov_y(float aspect);
  // The one this camera uses: field_of_view_y, or the scene's.
  float vertical_fov(float aspect) const;
  // The eye of this view: displaced over the lens by lens_offset.
  glm::vec3 eye_position() const;
  // Clip space of the camera for a target of that aspect, row 0 of the target at the top of the
  // picture (the y flip mirrors winding, which the scene does not cull).
  glm::mat4 view_projection(float aspect) const;
  // The distance along the view axis of a window-space depth in [0, 1] (what the depth texture holds).
  double view_depth(double window_depth) const;
  // The backdrop is drawn in window space, lying at the far plane (where the depth buffer's clear
  // value puts it): a lens view sees it moved as a whole, by this many pixels (columns, rows) on a
  // target of `size`, as the shear moves a point at view depth far_plane; 0 for the pinhole.
  glm::vec2 backdrop_shift(glm::ivec2 size) const;
};

class Scene {
 public:
  explicit Scene(gl::ProgramCache& programs);
  // Renders into `target` (colour; depth is the scene's own). Row 0 of the target is the top of
  // the picture, like every image in blurlab. The scene's colours are sRGB code values; with
  // `linear_light` they are decoded to linear light (for an rgba16f target).
  void render(const gl::Texture& target, double time_seconds, bool linear_light = false);
  // The HDR scene: linear radiance into `color` (rgba16f), the depth buffer into `depth`
  // (Format::depth32f, the same size), seen by `camera`.
  void render_hdr(const gl::Texture& color, const gl::Texture& depth, double time_seconds, const SceneCamera& camera = {});

  static constexpr int kInstances = 40;
  // Where the icosahedra lie (glsl/scene.vert): centres at z from -1.5 to 0, each at most 0.65
  // from its centre (x and y do not matter to a camera looking down -z).
  static constexpr float kObjectsNearestZ = 0.65f;
  static constexpr float kObjectsFarthestZ = -1.5f - 0.65f;
  // The brightest radiance an emissive face reaches (linear, 1 is the white an rgba8 picture holds).
  static constexpr double kMaxEmission = 100.0;

 private:
  void draw(const gl::Texture& target, GLuint depth_texture, double time_seconds, bool linear_light, bool hdr,
            const SceneCamera& camera);
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
