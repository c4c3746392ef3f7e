#pragma once
// An effect's ground truth that renders the scene (EffectInfo::ground_truth_views: depth of
// field's lens), made in the window on demand: a few views a frame, the mean so far shown
// meanwhile, of one configuration (another configuration or size starts it over).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec2.hpp>

#include "effects/effect.h"
#include "effects/scene_mean.h"
#include "gl/shader.h"
#include "gl/texture.h"
#include "image/image.h"
#include "scene/scene.h"

namespace blurlab::app {

class AccumulatedTruth {
 public:
  AccumulatedTruth(Scene& scene, gl::ProgramCache& programs) : scene_(scene), programs_(programs) {}

  // Whether the truth of `configuration` is under way: started, and not all of its views in.
  bool pending(uint64_t configuration) const;

  // Adds the next views of `configuration` at `time` (kViewsPerFrame of them; every one left when
  // `all_left`: a run's last frame, which waits for the check it asked for) and shows the mean so
  // far in picture(). Returns the line that says how far it is.
  std::string add_views(const EffectInfo& effect, const EffectSettings& settings, glm::ivec2 size, uint64_t configuration, double time,
                        bool all_left);

  // The mean so far as a picture (tonemapped and sRGB-encoded, as an effect's).
  const gl::Texture& picture() const { return picture_; }

  // The complete truth of `configuration`, for its check: the views and their mean radiance.
  struct Complete {
    std::vector<SceneCamera> views;
    Image mean;
  };
  std::optional<Complete> complete(uint64_t configuration) const;

 private:
  static constexpr int kViewsPerFrame = 8;
  Scene& scene_;
  gl::ProgramCache& programs_;
  std::optional<SceneMean> mean_;  // made on the first demand: its program is compiled only then
  std::vector<SceneCamera> views_;
  uint64_t configuration_ = 0;
  gl::Texture picture_;
};

}  // namespace blurlab::app
