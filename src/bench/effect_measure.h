#pragma once
// Measuring one effect configuration on the GL device (effects/effect.h): configure the effect
// pipeline, time its frames (bench/timing.h), then run it once more into poisoned targets and
// check every stage and the shipped frame against the CPU (EffectInfo::check).
#include <memory>
#include <optional>
#include <span>

#include "bench/timing.h"
#include "effects/effect_pipeline.h"
#include "effects/scene_mean.h"
#include "report/report.h"
#include "scene/scene.h"

namespace blurlab::bench {

// The HDR frame of one size that every implementation of a sweep takes, the picture's target,
// and what is computed from the frame once for all of them (its read-back, the ground truths).
class EffectInput {
 public:
  explicit EffectInput(glm::ivec2 size);
  // Renders the frame: the HDR scene at `time_seconds` seen by `camera`. The scene and time are
  // kept for scene_mean().
  void render(Scene& scene, gl::ProgramCache& programs, double time_seconds, const SceneCamera& camera);
  gl::Texture color, depth, output;
  const Image& color_pixels();
  const Image& depth_pixels();
  // The frame's scene at its time and size seen from each camera, averaged (EffectReadback::
  // scene_mean); throws Error unless render() made the frame.
  Image scene_mean(std::span<const SceneCamera> cameras);
  bool rendered() const { return scene_ != nullptr; }
  GroundTruths truths;

 private:
  std::optional<Image> color_pixels_, depth_pixels_;
  Scene* scene_ = nullptr;
  gl::ProgramCache* programs_ = nullptr;
  double time_ = 0.0;
  std::unique_ptr<SceneMean> mean_;
};

// The side of the square crop the report shows of each shipped frame (smaller frames: whole).
inline constexpr int kEffectCropSide = 160;
// Where the effect shows most on the ground truth against the frame itself: the crop whose summed
// |truth - frame shown without the effect| is largest (a coarse search on a grid of the crop's
// quarter side), summed over the pixels of `region` only where the effect names one
// (EffectCheck::region_mask: depth of field's depth edges); the frame's top-left for frames no
// larger than a crop.
glm::ivec2 effect_crop_origin(const ReferenceImage& truth, const ReferenceImage& plain, int side, const std::vector<uint8_t>* region = nullptr);
Image crop(const Image& image, glm::ivec2 origin, int side);

class EffectMeasurer {
 public:
  EffectMeasurer(EffectPipeline& pipeline, gl::TimerPool& timers, TimingPolicy policy, Clock& clock = steady_clock())
      : pipeline_(pipeline), timers_(timers), policy_(policy), clock_(clock) {}

  // Configures the effect; unless the implementation refuses, times `frames` frames (if any) and,
  // with `check`, runs once more into poisoned targets and checks it. `keep_output`: the shipped
  // frame is left in input.output (it always is; the caller reads it back).
  report::EffectMeasurement measure(EffectInput& input, const EffectInfo& effect, const EffectSettings& settings, bool check, int frames);

 private:
  EffectPipeline& pipeline_;
  gl::TimerPool& timers_;
  TimingPolicy policy_;
  Clock& clock_;
};

}  // namespace blurlab::bench
