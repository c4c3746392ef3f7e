#include "effects/scene_mean.h"

#include "util/error.h"

namespace blurlab {

namespace {
constexpr glm::ivec2 kGroup{16, 16};
glm::ivec3 groups(glm::ivec2 size) { return {(size.x + kGroup.x - 1) / kGroup.x, (size.y + kGroup.y - 1) / kGroup.y, 1}; }
}  // namespace

SceneMean::SceneMean(Scene& scene, gl::ProgramCache& programs) : scene_(scene), programs_(programs), runner_(nullptr) {}

void SceneMean::clear(glm::ivec2 size) {
  if (!sum_ || sum_.width() != size.x || sum_.height() != size.y) {
    sum_ = gl::Texture(size.x, size.y, gl::Format::rgba32f, "scene mean: sum");
    view_ = gl::Texture(size.x, size.y, gl::Format::rgba16f, "scene mean: view");
    view_depth_ = gl::Texture(size.x, size.y, gl::Format::depth32f, "scene mean: view depth");
  }
  const float zero[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  gl::fill(sum_, zero);
  views_ = 0;
}

void SceneMean::add(double time_seconds, const SceneCamera& camera) {
  if (!sum_) throw Error("SceneMean::add before clear()");
  scene_.render_hdr(view_, view_depth_, time_seconds, camera);
  const gl::Program& add = programs_.get({{GL_COMPUTE_SHADER, "effects/scene_mean.comp"}}, {{"MEAN_PASS", "0"}});
  const Binding bindings[] = {Binding::read(view_), Binding::read_write(sum_, gl::Unit::Target)};
  runner_.dispatch("add", add, bindings, groups(size()));
  ++views_;
}

Image SceneMean::download_mean() const {
  if (views_ == 0) throw Error("SceneMean: no view to average");
  Image mean = sum_.download();
  const double n = views_;
  for (size_t i = 0; i < mean.texels.size(); ++i) mean.texels[i] = i % 4 == 3 ? 1.0f : static_cast<float>(static_cast<double>(mean.texels[i]) / n);
  return mean;
}

void SceneMean::present(const gl::Texture& picture) {
  if (views_ == 0) throw Error("SceneMean: no view to show");
  if (picture.format() != gl::Format::rgba8 || picture.width() != sum_.width() || picture.height() != sum_.height())
    throw Error("SceneMean::present: the picture is rgba8 of the mean's size");
  const gl::Program& show = programs_.get({{GL_COMPUTE_SHADER, "effects/scene_mean.comp"}}, {{"MEAN_PASS", "1"}});
  const Binding bindings[] = {Binding::read(sum_), Binding::write(picture)};
  runner_.dispatch("present", show, bindings, groups(size()), glm::vec4(1.0f / static_cast<float>(views_), 0.0f, 0.0f, 0.0f));
}

}  // namespace blurlab
