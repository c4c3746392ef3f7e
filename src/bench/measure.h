#pragma once
// Measuring one configuration on the GL device: configure the pipeline, time it (bench/timing.h)
// and check its output against the CPU reference, with poisoned targets.
#include <optional>
#include <utility>
#include <vector>

#include "bench/timing.h"
#include "blur/check.h"
#include "blur/pipeline.h"
#include "blur/reference.h"
#include "report/report.h"

namespace blurlab::bench {

// The image blurred in one (size, input format, linear light) group of a sweep, and the
// references computed from it: one per kernel and border of the sweep, kept for the group; an
// approximation's CPU model and the exact Gaussian its fidelity is measured against, the latest
// one of each kept (a sweep runs a variant's settings of one kernel one after another).
class Input {
 public:
  Input(glm::ivec2 size, gl::Format format, bool linear = false);
  gl::Texture source, destination;
  bool linear;  // the source holds sRGB pictures decoded to linear light

  // What the GPU blurs: the source texture read back once.
  const Image& pixels();
  const ReferenceImage& reference(const Kernel& kernel, const Border& border);
  // What the variant's output must match (blur/check.h expected_output).
  const ReferenceImage& expected(const VariantInfo& variant, const BlurSettings& resolved);
  // The exact Gaussian of a sigma an approximation declares (fidelity_kernel), with its border.
  const ReferenceImage& fidelity_reference(double sigma, const Border& border);
  // The exact per-pixel blur (reference_variable_blur) a variable-radius approximation's fidelity
  // is measured against, the latest one kept.
  const ReferenceImage& variable_reference(const BlurSettings& resolved);

 private:
  struct Reference {
    Kernel kernel;
    Border border;
    ReferenceImage image;
  };
  struct ModelKey {
    const VariantInfo* variant;
    BlurSettings settings;  // without knobs: they change how, not what
    bool operator==(const ModelKey&) const = default;
  };
  std::optional<Image> pixels_;
  std::vector<Reference> references_;
  std::optional<std::pair<ModelKey, ReferenceImage>> model_;
  std::optional<Reference> gaussian_;
  std::optional<std::pair<BlurSettings, ReferenceImage>> variable_;
};

class Measurer {
 public:
  Measurer(BlurPipeline& pipeline, gl::TimerPool& timers, TimingPolicy policy, Clock& clock = steady_clock())
      : pipeline_(pipeline), timers_(timers), policy_(policy), clock_(clock) {}

  // Configures `variant` for `settings`; unless it is unsupported, times `frames` frames (if any;
  // the policy's budget may take fewer) and then, with `check`, blurs once more into poisoned
  // targets and compares with the reference.
  report::Measurement measure(Input& input, const VariantInfo& variant, const BlurSettings& settings, bool check, int frames);

  const TimingPolicy& policy() const { return policy_; }

 private:
  void poison(const gl::Texture& destination);

  BlurPipeline& pipeline_;
  gl::TimerPool& timers_;
  TimingPolicy policy_;
  Clock& clock_;
};

}  // namespace blurlab::bench
