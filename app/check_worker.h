#pragma once
// The window's check against the CPU reference, on a worker thread: the frame never waits for it.
// A check belongs to one configuration; a result for an older one is dropped.
#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec2.hpp>

#include "blur/blur.h"
#include "blur/check.h"
#include "blur/reference.h"
#include "effects/effect.h"
#include "image/image.h"
#include "check_line.h"

namespace blurlab::app {

// A finished check of the current configuration.
struct CheckOutcome {
  CheckLine line;                     // the result, its tolerance and label, an approximation's fidelity
  // What the output must match (an approximation's model; an effect's ground truth picture).
  ReferenceImage reference;
  std::optional<ReferenceImage> gaussian;  // an approximation: the exact Gaussian it stands in for
  std::optional<CheckResult> second;  // View::DiffVariant: the difference between the two outputs
};

class CheckWorker {
 public:
  CheckWorker() = default;
  ~CheckWorker() { wait(); }  // the worker reads the variant; let it finish first
  CheckWorker(const CheckWorker&) = delete;
  CheckWorker& operator=(const CheckWorker&) = delete;

  // Starts checking `output`, what `variant` with `resolved` settings made of `input`, and
  // `second` (the second variant's output) against it; `configuration` names the settings.
  void start(const VariantInfo& variant, const BlurSettings& resolved, glm::ivec2 size, Image input, Image output,
             std::optional<Image> second, uint64_t configuration);
  // Starts checking a run of `effect` with `settings` (EffectInfo::check): what it read (the HDR
  // frame and its depth), what it made (`output`), and its textures (`stages`, by slot:
  // EffectPipeline::download_all), all read back on the GL thread before. An effect whose ground
  // truth renders the scene (EffectInfo::ground_truth_views) is given `truth_mean`, those views of
  // the frame averaged on the GL thread (`truth_views`, what its scene_mean is asked for).
  void start_effect(const EffectInfo& effect, const EffectSettings& settings, glm::ivec2 size, Image color, Image depth, Image output,
                    std::map<int, Image> stages, uint64_t configuration, std::vector<SceneCamera> truth_views = {},
                    std::optional<Image> truth_mean = std::nullopt);
  // Whether a check is under way or finished and not yet collected.
  bool busy() const { return job_ != nullptr; }
  // Whether that check is of `configuration`.
  bool checking(uint64_t configuration) const { return job_ && job_->configuration == configuration; }
  // Once the check finished: its outcome if it is of `configuration` (nullopt for an older one),
  // and the worker is free again. nullopt while it runs.
  std::optional<CheckOutcome> collect(uint64_t configuration);
  // Waits for the check under way, if any.
  void wait() const;

 private:
  struct Computed {
    CheckResult result;
    ReferenceImage reference;
    std::optional<Fidelity> fidelity;
    std::optional<ReferenceImage> gaussian;
    std::optional<CheckResult> second;
    std::optional<EffectCheck> effect;
    Tolerance tolerance;  // an effect's: the stage `result` is of
  };
  struct Job {
    std::future<Computed> result;
    std::string label;
    Tolerance tolerance;
    uint64_t configuration = 0;
  };
  std::unique_ptr<Job> job_;
};

}  // namespace blurlab::app
