#include "scene/scene.h"

#include <array>
#include <cmath>
#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <vector>

#include "gl/barriers.h"
#include "util/error.h"

namespace blurlab {

namespace {

// Flat-shaded icosahedron: 20 faces x 3 vertices, each with its face normal.
std::vector<float> icosahedron() {
  const float t = (1.0f + std::sqrt(5.0f)) / 2.0f;
  const std::array<glm::vec3, 12> v = {{{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0},
                                        {0, -1, t}, {0, 1, t}, {0, -1, -t}, {0, 1, -t},
                                        {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}}};
  const int faces[20][3] = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                            {11, 10, 2}, {10, 7, 6}, {7, 1, 8},   {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                            {3, 8, 9},  {4, 9, 5},  {2, 4, 11},  {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  std::vector<float> data;
  for (const auto& f : faces) {
    const glm::vec3 a = glm::normalize(v[f[0]]), b = glm::normalize(v[f[1]]), c = glm::normalize(v[f[2]]);
    const glm::vec3 n = glm::normalize(glm::cross(b - a, c - a));
    for (const glm::vec3& p : {a, b, c}) data.insert(data.end(), {p.x, p.y, p.z, n.x, n.y, n.z});
  }
  return data;
}

}  // namespace

Scene::Scene(gl::ProgramCache& programs)
    : programs_(programs),
      vertices_(gl::create_buffer()),
      mesh_(gl::create_vertex_array()),
      empty_(gl::create_vertex_array()),
      framebuffer_(gl::create_framebuffer()) {
  const std::vector<float> data = icosahedron();
  vertex_count_ = static_cast<int>(data.size() / 6);
  glBindVertexArray(mesh_.get());
  glBindBuffer(GL_ARRAY_BUFFER, vertices_.get());
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.size() * sizeof(float)), data.data(), GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), reinterpret_cast<const void*>(3 * sizeof(float)));
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

float SceneCamera::fov_y(float aspect) {
  return aspect >= 1.6f ? glm::radians(45.0f) : 2.0f * std::atan(std::tan(glm::radians(22.5f)) * 1.6f / aspect);
}

float SceneCamera::vertical_fov(float aspect) const { return field_of_view_y > 0.0f ? field_of_view_y : fov_y(aspect); }

glm::vec3 SceneCamera::eye_position() const {
  if (lens_offset == glm::vec2(0.0f)) return eye;
  const glm::vec3 forward = glm::normalize(target - eye);
  const glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0, 1, 0)));
  const glm::vec3 up = glm::cross(right, forward);
  return eye + lens_offset.x * right + lens_offset.y * up;
}

glm::mat4 SceneCamera::view_projection(float aspect) const {
  const glm::mat4 flip = glm::scale(glm::mat4(1.0f), glm::vec3(1.0f, -1.0f, 1.0f));
  const glm::mat4 projection = glm::perspective(vertical_fov(aspect), aspect, near_plane, far_plane);
  if (lens_offset == glm::vec2(0.0f)) return flip * projection * glm::lookAt(eye, target, glm::vec3(0, 1, 0));
  if (!(focus_distance > 0.0f)) throw Error("SceneCamera: a lens offset needs a focus distance above 0");
  // The view from the displaced eye, looking the same way; then in view space (x, y, z) ->
  // (x - dx z / f, y - dy z / f, z) (z is negative in front of the eye): on the plane z = -f the
  // displacement is undone, so that plane projects as it does from the lens's centre.
  const glm::vec3 moved = eye_position() - eye;
  glm::mat4 shear(1.0f);
  shear[2][0] = -lens_offset.x / focus_distance;
  shear[2][1] = -lens_offset.y / focus_distance;
  return flip * projection * shear * glm::lookAt(eye + moved, target + moved, glm::vec3(0, 1, 0));
}

double SceneCamera::view_depth(double window_depth) const {
  // glm::perspective maps view depth z to NDC (f + n)/(f - n) - 2 f n / ((f - n) z); window depth is (ndc + 1) / 2.
  const double n = near_plane, f = far_plane, ndc = 2.0 * window_depth - 1.0;
  return 2.0 * f * n / ((f + n) - ndc * (f - n));
}

glm::vec2 SceneCamera::backdrop_shift(glm::ivec2 size) const {
  if (lens_offset == glm::vec2(0.0f)) return glm::vec2(0.0f);
  // A point at view depth z moves by offset (H / (2 tan(fov / 2))) (1 / focus - 1 / z) pixels; up
  // in the lens is fewer rows (row 0 is the picture's top).
  const double aspect = static_cast<double>(size.x) / size.y;
  const double per_inverse_depth = size.y / (2.0 * std::tan(vertical_fov(static_cast<float>(aspect)) / 2.0));
  const double k = per_inverse_depth * (1.0 / focus_distance - 1.0 / far_plane);
  return {static_cast<float>(lens_offset.x * k), static_cast<float>(-lens_offset.y * k)};
}

void Scene::render(const gl::Texture& target, double time_seconds, bool linear_light) {
  const int w = target.width(), h = target.height();
  if (!depth_ || w != depth_width_ || h != depth_height_) {
    depth_ = gl::create_renderbuffer();
    glBindRenderbuffer(GL_RENDERBUFFER, depth_.get());
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w, h);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    depth_width_ = w;
    depth_height_ = h;
  }
  draw(target, 0, time_seconds, linear_light, false, SceneCamera{});
}

void Scene::render_hdr(const gl::Texture& color, const gl::Texture& depth, double time_seconds, const SceneCamera& camera) {
  if (color.format() != gl::Format::rgba16f || depth.format() != gl::Format::depth32f || color.width() != depth.width() ||
      color.height() != depth.height())
    throw Error("render_hdr: needs an rgba16f colour target and a depth32f depth texture of its size");
  draw(color, depth.id(), time_seconds, true, true, camera);
}

void Scene::draw(const gl::Texture& target, GLuint depth_texture, double time_seconds, bool linear_light, bool hdr,
                 const SceneCamera& camera) {
  const int w = target.width(), h = target.height();
  gl::barriers().before(gl::Access::Framebuffer, target.id());
  if (depth_texture) gl::barriers().before(gl::Access::Framebuffer, depth_texture);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.get());
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target.id(), 0);
  if (depth_texture)
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth_texture, 0);
  else
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_.get());
  glViewport(0, 0, w, h);
  const auto time = static_cast<float>(time_seconds);
  // The HDR programs are the same files with HDR defined (linear radiance, emissive faces).
  const gl::Defines defines = hdr ? gl::Defines{{"HDR", "1"}} : gl::Defines{};

  // Backdrop (no depth), then the icosahedra.
  const gl::Program& background =
      programs_.get({{GL_VERTEX_SHADER, "fullscreen.vert"}, {GL_FRAGMENT_SHADER, "scene_background.frag"}}, defines);
  glUseProgram(background.id());
  glUniform1f(glGetUniformLocation(background.id(), "u_time"), time);
  glUniform2f(glGetUniformLocation(background.id(), "u_size"), static_cast<float>(w), static_cast<float>(h));
  glUniform1i(glGetUniformLocation(background.id(), "u_linear_light"), linear_light ? 1 : 0);
  const glm::vec2 shift = camera.backdrop_shift({w, h});
  glUniform2f(glGetUniformLocation(background.id(), "u_shift"), shift.x, shift.y);
  glBindVertexArray(empty_.get());
  glDrawArrays(GL_TRIANGLES, 0, 3);

  const gl::Program& program = programs_.get({{GL_VERTEX_SHADER, "scene.vert"}, {GL_FRAGMENT_SHADER, "scene.frag"}}, defines);
  const float aspect = static_cast<float>(w) / static_cast<float>(h);
  const glm::mat4 view_projection = camera.view_projection(aspect);
  glUseProgram(program.id());
  glUniform1f(glGetUniformLocation(program.id(), "u_time"), time);
  glUniformMatrix4fv(glGetUniformLocation(program.id(), "u_view_projection"), 1, GL_FALSE, glm::value_ptr(view_projection));
  const glm::vec3 eye = camera.eye_position();  // each view of a lens sees its highlights from where it is
  glUniform3fv(glGetUniformLocation(program.id(), "u_eye"), 1, glm::value_ptr(eye));
  glUniform1i(glGetUniformLocation(program.id(), "u_linear_light"), linear_light ? 1 : 0);
  glEnable(GL_DEPTH_TEST);
  glClear(GL_DEPTH_BUFFER_BIT);
  glBindVertexArray(mesh_.get());
  glDrawArraysInstanced(GL_TRIANGLES, 0, vertex_count_, kInstances);
  glDisable(GL_DEPTH_TEST);

  glBindVertexArray(0);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 0, 0);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, 0, 0);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

}  // namespace blurlab
