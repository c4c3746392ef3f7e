#include "bench/effect_measure.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "effects/tonemap.h"
#include "util/error.h"

namespace blurlab::bench {

namespace {

class EffectFrames final : public Frames {
 public:
  EffectFrames(EffectPipeline& pipeline, gl::TimerPool& timers, EffectInput& input) : pipeline_(pipeline), timers_(timers), input_(input) {}
  void run_untimed() override { pipeline_.run(input_.color, input_.depth, input_.output); }
  void run_timed() override {
    timers_.begin_frame();
    pipeline_.run(input_.color, input_.depth, input_.output);
    timers_.end_frame();
  }
  void finish() override { glFinish(); }
  std::vector<gl::FrameTimes> poll() override { return timers_.poll(); }

 private:
  EffectPipeline& pipeline_;
  gl::TimerPool& timers_;
  EffectInput& input_;
};

}  // namespace

EffectInput::EffectInput(glm::ivec2 size)
    : color(size.x, size.y, gl::Format::rgba16f, "HDR frame"),
      depth(size.x, size.y, gl::Format::depth32f, "HDR frame depth"),
      output(size.x, size.y, gl::Format::rgba8, "effect picture") {}

void EffectInput::render(Scene& scene, gl::ProgramCache& programs, double time_seconds, const SceneCamera& camera) {
  scene.render_hdr(color, depth, time_seconds, camera);
  scene_ = &scene;
  programs_ = &programs;
  time_ = time_seconds;
  color_pixels_.reset();
  depth_pixels_.reset();
  truths.clear();
}

Image EffectInput::scene_mean(std::span<const SceneCamera> cameras) {
  if (!scene_) throw Error("EffectInput::scene_mean: the frame was not rendered from the scene");
  if (cameras.empty()) throw Error("EffectInput::scene_mean: no camera");
  if (!mean_) mean_ = std::make_unique<SceneMean>(*scene_, *programs_);
  mean_->clear({color.width(), color.height()});
  for (const SceneCamera& camera : cameras) mean_->add(time_, camera);
  return mean_->download_mean();
}

const Image& EffectInput::color_pixels() {
  if (!color_pixels_) color_pixels_ = color.download();
  return *color_pixels_;
}

const Image& EffectInput::depth_pixels() {
  if (!depth_pixels_) depth_pixels_ = depth.download();
  return *depth_pixels_;
}

glm::ivec2 effect_crop_origin(const ReferenceImage& truth, const ReferenceImage& plain, int side, const std::vector<uint8_t>* region) {
  const int w = truth.width, h = truth.height;
  if (w <= side && h <= side) return {0, 0};
  // Summed-area table of the per-pixel difference, so every candidate costs four lookups.
  std::vector<double> sat(static_cast<size_t>(w + 1) * (h + 1), 0.0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double d = 0.0;
      if (!region || (*region)[static_cast<size_t>(y) * w + x])
        for (int c = 0; c < 3; ++c) d += std::abs(truth.at(x, y, c) - plain.at(x, y, c));
      sat[static_cast<size_t>(y + 1) * (w + 1) + x + 1] =
          d + sat[static_cast<size_t>(y) * (w + 1) + x + 1] + sat[static_cast<size_t>(y + 1) * (w + 1) + x] - sat[static_cast<size_t>(y) * (w + 1) + x];
    }
  const int sw = std::min(side, w), sh = std::min(side, h), step = std::max(1, side / 4);
  glm::ivec2 best{0, 0};
  double best_sum = -1.0;
  for (int y = 0; y + sh <= h; y += step)
    for (int x = 0; x + sw <= w; x += step) {
      const auto at = [&](int px, int py) { return sat[static_cast<size_t>(py) * (w + 1) + px]; };
      const double sum = at(x + sw, y + sh) - at(x, y + sh) - at(x + sw, y) + at(x, y);
      if (sum > best_sum) {
        best_sum = sum;
        best = {x, y};
      }
    }
  return best;
}

Image crop(const Image& image, glm::ivec2 origin, int side) {
  const int w = std::min(side, image.width - origin.x), h = std::min(side, image.height - origin.y);
  Image out(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 4; ++c) out.at(x, y, c) = image.at(origin.x + x, origin.y + y, c);
  return out;
}

report::EffectMeasurement EffectMeasurer::measure(EffectInput& input, const EffectInfo& effect, const EffectSettings& settings, bool check,
                                                  int frames) {
  report::EffectMeasurement m;
  m.effect = &effect;
  m.settings = settings;
  m.size = {input.color.width(), input.color.height()};
  m.unsupported = pipeline_.configure(effect, settings, m.size);
  if (m.unsupported) return m;
  m.description = effect.describe(settings, m.size);
  if (frames > 0) {
    TimingPolicy policy = policy_;
    policy.frames = frames;
    EffectFrames run(pipeline_, timers_, input);
    const Timing t = time_frames(run, clock_, policy);
    m.span_order = t.span_order;
    m.spans_ms = t.spans_ms;
    m.cpu_ms.assign(1, t.cpu_ms_per_frame);
  }
  if (check) {
    // NaN in every float texture a stage may read before writing, magenta in the picture.
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float float_poison[4] = {nan, nan, nan, nan};
    const float unorm_poison[4] = {1.0f, 0.0f, 1.0f, 0.5f};
    pipeline_.poison(float_poison);
    gl::fill(input.output, unorm_poison);
    pipeline_.run(input.color, input.depth, input.output);
    const Image output = input.output.download();
    EffectReadback readback;
    readback.settings = &pipeline_.settings();
    readback.size = m.size;
    readback.color = &input.color_pixels();
    readback.depth = &input.depth_pixels();
    readback.output = &output;
    readback.stage_texture = [this](int slot) { return pipeline_.download(slot); };
    if (input.rendered()) readback.scene_mean = [&input](std::span<const SceneCamera> cameras) { return input.scene_mean(cameras); };
    m.check = effect.check(readback, input.truths);
    // The crop: where the ground truth differs most from the frame shown without the effect.
    if (m.check->truth_picture) {
      const ReferenceImage& truth = *m.check->truth_picture;
      const Image& frame = input.color_pixels();
      ReferenceImage plain{frame.width, frame.height, std::vector<double>(frame.texels.size())};
      for (size_t i = 0; i < frame.texels.size(); ++i) plain.texels[i] = i % 4 == 3 ? 1.0 : display_value(frame.texels[i]);
      m.crop_origin = effect_crop_origin(truth, plain, kEffectCropSide, m.check->region_mask.get());
      Image truth_image(truth.width, truth.height);
      for (size_t i = 0; i < truth.texels.size(); ++i) truth_image.texels[i] = static_cast<float>(truth.texels[i]);
      m.truth_crop = crop(truth_image, m.crop_origin, kEffectCropSide);
      m.crop = crop(output, m.crop_origin, kEffectCropSide);
      m.check->truth_picture.reset();
      m.check->region_mask.reset();
    }
  }
  return m;
}

}  // namespace blurlab::bench
