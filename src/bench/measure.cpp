#include "bench/measure.h"

#include <limits>

namespace blurlab::bench {

namespace {

// The pipeline's frames: the blur of one input, recorded in the timer pool when timed.
class PipelineFrames final : public Frames {
 public:
  PipelineFrames(BlurPipeline& pipeline, gl::TimerPool& timers, Input& input) : pipeline_(pipeline), timers_(timers), input_(input) {}
  void run_untimed() override { pipeline_.run(input_.source, input_.destination); }
  void run_timed() override {
    timers_.begin_frame();
    pipeline_.run(input_.source, input_.destination);
    timers_.end_frame();
  }
  void finish() override { glFinish(); }
  std::vector<gl::FrameTimes> poll() override { return timers_.poll(); }

 private:
  BlurPipeline& pipeline_;
  gl::TimerPool& timers_;
  Input& input_;
};

}  // namespace

Input::Input(glm::ivec2 size, gl::Format format, bool linear_light)
    : source(size.x, size.y, format, "source"), destination(size.x, size.y, format, "destination"), linear(linear_light) {}

const Image& Input::pixels() {
  if (!pixels_) pixels_ = source.download();
  return *pixels_;
}

const ReferenceImage& Input::reference(const Kernel& kernel, const Border& border) {
  for (const Reference& ref : references_)
    if (ref.kernel == kernel && ref.border == border) return ref.image;
  references_.push_back({kernel, border, reference_blur(pixels(), kernel_weights(kernel), border)});
  return references_.back().image;
}

const ReferenceImage& Input::expected(const VariantInfo& variant, const BlurSettings& resolved) {
  if (!is_approximation(variant) && !variant.variable_radius) return reference(reference_kernel(variant, resolved), resolved.border);
  ModelKey key{&variant, resolved};
  key.settings.knobs.clear();
  if (variant.variable_radius && !is_approximation(variant)) {
    // The per-pixel reference depends on the kernel, the border and the map alone: one for every
    // variable variant of the same setting.
    key.variant = nullptr;
    key.settings = BlurSettings{.kernel = resolved.kernel, .border = resolved.border, .radius_map = resolved.radius_map};
  }
  if (!model_ || !(model_->first == key)) {
    model_.reset();  // free the previous one first
    model_.emplace(key, expected_output(variant, resolved, pixels()));
  }
  return model_->second;
}

const ReferenceImage& Input::variable_reference(const BlurSettings& resolved) {
  const BlurSettings key{.kernel = resolved.kernel, .border = resolved.border, .radius_map = resolved.radius_map};
  if (!variable_ || !(variable_->first == key)) {
    variable_.reset();
    variable_.emplace(key, reference_variable_blur(pixels(), radius_levels(key.radius_map.get(), {source.width(), source.height()}, key.kernel.radius),
                                                   key.kernel, key.border));
  }
  return variable_->second;
}

const ReferenceImage& Input::fidelity_reference(double sigma, const Border& border) {
  const Kernel kernel = fidelity_kernel(sigma);
  for (const Reference& ref : references_)
    if (ref.kernel == kernel && ref.border == border) return ref.image;
  if (!gaussian_ || !(gaussian_->kernel == kernel && gaussian_->border == border)) {
    gaussian_.reset();
    gaussian_ = Reference{kernel, border, reference_blur(pixels(), kernel_weights(kernel), border)};
  }
  return gaussian_->image;
}

report::Measurement Measurer::measure(Input& input, const VariantInfo& variant, const BlurSettings& settings, bool check,
                                      int frames) {
  report::Measurement m;
  m.variant = &variant;
  m.size = {input.source.width(), input.source.height()};
  m.settings = resolve(variant, settings, m.size);
  m.unsupported = pipeline_.configure(variant, settings, m.size);
  if (m.unsupported) return m;
  if (variant.approximation.choose) m.approximation = variant.approximation.choose(m.settings);
  if (frames > 0) {
    TimingPolicy policy = policy_;
    policy.frames = frames;
    PipelineFrames run(pipeline_, timers_, input);
    const Timing t = time_frames(run, clock_, policy);
    m.span_order = t.span_order;
    m.spans_ms = t.spans_ms;
    m.cpu_ms.assign(1, t.cpu_ms_per_frame);
  }
  if (check) {
    poison(input.destination);
    pipeline_.run(input.source, input.destination);
    const Image output = input.destination.download();
    const double peak = peak_magnitude(input.pixels());
    m.tolerance = tolerance_for(variant, m.settings, m.size, peak);
    m.check = compare_to_reference(output, input.expected(variant, m.settings), m.tolerance);
    // How close the output comes to the exact kernel: an approximation's to the Gaussian of the
    // sigma it declares (a variable-radius one's to the exact per-pixel kernel), an exact blur's to
    // the reference it was checked against (what --export states; the report shows an
    // approximation's only).
    if (m.approximation)
      m.fidelity = measure_fidelity(output,
                                    variant.variable_radius ? input.variable_reference(m.settings)
                                                            : input.fidelity_reference(m.approximation->sigma, m.settings.border),
                                    m.settings.input_format, peak, m.approximation->sigma);
    else if (is_blur(variant))
      m.fidelity = measure_fidelity(output, input.expected(variant, m.settings), m.settings.input_format, peak, m.settings.kernel.sigma);
  }
  return m;
}

void Measurer::poison(const gl::Texture& destination) {
  // NaN for float formats (never equals a result); magenta for rgba8.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float float_poison[4] = {nan, nan, nan, nan};
  const float unorm_poison[4] = {1.0f, 0.0f, 1.0f, 0.5f};
  gl::fill(destination, gl::info(destination.format()).is_float ? float_poison : unorm_poison);
  pipeline_.poison_intermediates(float_poison);
}

}  // namespace blurlab::bench
