#include "check_worker.h"

#include <algorithm>
#include <chrono>
#include <span>

#include "blur/kernel.h"
#include "util/error.h"

namespace blurlab::app {

void CheckWorker::start(const VariantInfo& variant, const BlurSettings& resolved, glm::ivec2 size, Image input, Image output,
                        std::optional<Image> second, uint64_t configuration) {
  auto job = std::make_unique<Job>();
  job->label = std::string(variant.name) + " " + describe(variant, resolved);
  const double peak = peak_magnitude(input);
  job->tolerance = tolerance_for(variant, resolved, size, peak);
  job->configuration = configuration;
  job->result = std::async(std::launch::async, [input = std::move(input), output = std::move(output), second = std::move(second),
                                                &variant, resolved, tolerance = job->tolerance, peak] {
    Computed computed;
    computed.reference = expected_output(variant, resolved, input);
    computed.result = compare_to_reference(output, computed.reference, tolerance);
    if (variant.approximation.choose) {
      const double sigma = variant.approximation.choose(resolved).sigma;
      // The exact Gaussian of that sigma (a variable-radius approximation: the exact per-pixel kernel).
      ReferenceImage gaussian = fidelity_reference(variant, resolved, input);
      computed.fidelity = measure_fidelity(output, gaussian, resolved.input_format, peak, sigma);
      computed.gaussian = std::move(gaussian);
    }
    if (second) {
      // The two outputs against each other: the same measure, with the first as the "reference".
      ReferenceImage first{output.width, output.height, std::vector<double>(output.texels.begin(), output.texels.end())};
      computed.second = compare_to_reference(*second, first, tolerance);
    }
    return computed;
  });
  job_ = std::move(job);
}

void CheckWorker::start_effect(const EffectInfo& effect, const EffectSettings& settings, glm::ivec2 size, Image color, Image depth,
                               Image output, std::map<int, Image> stages, uint64_t configuration, std::vector<SceneCamera> truth_views,
                               std::optional<Image> truth_mean) {
  auto job = std::make_unique<Job>();
  job->label = std::string(effect.name) + ": " + effect.describe(settings, size);
  job->configuration = configuration;
  job->result = std::async(std::launch::async, [&effect, settings, size, color = std::move(color), depth = std::move(depth),
                                                output = std::move(output), stages = std::move(stages), truth_views = std::move(truth_views),
                                                truth_mean = std::move(truth_mean)] {
    EffectReadback run;
    run.settings = &settings;
    run.size = size;
    run.color = &color;
    run.depth = &depth;
    run.output = &output;
    run.stage_texture = [&stages](int slot) {
      const auto it = stages.find(slot);
      if (it == stages.end()) throw Error("the effect made no texture " + std::to_string(slot));
      return it->second;
    };
    if (truth_mean)
      run.scene_mean = [&](std::span<const SceneCamera> cameras) {
        const auto same = [](const SceneCamera& a, const SceneCamera& b) {
          return a.eye == b.eye && a.target == b.target && a.lens_offset == b.lens_offset && a.focus_distance == b.focus_distance &&
                 a.field_of_view_y == b.field_of_view_y && a.near_plane == b.near_plane && a.far_plane == b.far_plane;
        };
        if (!std::equal(cameras.begin(), cameras.end(), truth_views.begin(), truth_views.end(), same))
          throw Error("the check asks for " + std::to_string(cameras.size()) + " views of the scene other than the " +
                      std::to_string(truth_views.size()) + " the window averaged");
        return *truth_mean;
      };
    GroundTruths truths;  // of this frame only: the next check's frame is another
    Computed computed;
    EffectCheck check = effect.check(run, truths);
    if (check.truth_picture) computed.reference = *check.truth_picture;
    check.truth_picture.reset();
    const StageCheck* failed = check.first_failure();
    const StageCheck* shown = failed ? failed : check.stages.empty() ? nullptr : &check.stages.back();
    if (shown) computed.result = shown->result;
    if (shown) computed.tolerance = shown->tolerance;
    computed.effect = std::move(check);
    return computed;
  });
  job_ = std::move(job);
}

std::optional<CheckOutcome> CheckWorker::collect(uint64_t configuration) {
  if (!job_ || job_->result.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return std::nullopt;
  Computed computed = job_->result.get();
  const std::unique_ptr<Job> job = std::move(job_);
  if (job->configuration != configuration) return std::nullopt;
  const Tolerance tolerance = computed.effect ? computed.tolerance : job->tolerance;
  return CheckOutcome{CheckLine{computed.result, tolerance, job->label, computed.fidelity, std::move(computed.effect)},
                      std::move(computed.reference), std::move(computed.gaussian), computed.second};
}

void CheckWorker::wait() const {
  if (job_) job_->result.wait();
}

}  // namespace blurlab::app
