#include "effects/effect_pipeline.h"

#include <string>

#include "util/error.h"

namespace blurlab {

// The EffectSetup and EffectPasses an effect sees.
class EffectPipeline::Stages final : public EffectSetup, public EffectPasses {
 public:
  Stages(EffectPipeline& owner, const gl::Texture* color, const gl::Texture* depth, const gl::Texture* output)
      : owner_(owner), color_(color), depth_(depth), output_(output) {}

  const EffectSettings& settings() const override { return owner_.settings_; }
  glm::ivec2 size() const override { return owner_.size_; }
  const gl::GlLimits& limits() const override { return owner_.limits_; }

  const gl::Program& compute(const std::string& file, const gl::Defines& defines) override {
    held.push_back(owner_.programs_.share({{GL_COMPUTE_SHADER, file}}, defines));
    return *held.back();
  }

  std::optional<Refusal> blur_stage(int stage, const VariantInfo& variant, const BlurSettings& settings) override {
    if (stage < 0 || stage > 64) throw Error("blur_stage: stage " + std::to_string(stage) + " out of range");
    auto& stages = owner_.blur_stages_;
    if (stages.size() <= static_cast<size_t>(stage)) stages.resize(static_cast<size_t>(stage) + 1);
    auto& pipeline = stages[static_cast<size_t>(stage)];
    if (!pipeline) pipeline = std::make_unique<BlurPipeline>(owner_.programs_, owner_.limits_, owner_.timers_);
    return pipeline->configure(variant, settings, owner_.size_);
  }

  const gl::Texture& color() const override { return *color_; }
  const gl::Texture& depth() const override { return *depth_; }
  const gl::Texture& output() const override { return *output_; }

  const gl::Texture& texture(int slot, gl::Format format, glm::ivec2 size, std::string_view name) override {
    gl::Texture& t = owner_.textures_[slot];
    if (!t || t.width() != size.x || t.height() != size.y || t.format() != format) t = gl::Texture(size.x, size.y, format, name);
    return t;
  }

  using EffectPasses::dispatch;
  void dispatch(std::string_view span, const gl::Program& program, std::span<const Binding> bindings, const DispatchGrid& grid,
                std::optional<glm::vec4> pass) override {
    owner_.runner_.dispatch(span, program, bindings, grid.groups, pass);
  }

  void blur(int stage, const gl::Texture& source, const gl::Texture& destination, std::string_view span,
            const gl::Texture* radius_levels) override {
    const auto& stages = owner_.blur_stages_;
    if (stage < 0 || static_cast<size_t>(stage) >= stages.size() || !stages[static_cast<size_t>(stage)])
      throw Error("blur(): stage " + std::to_string(stage) + " was not configured (EffectSetup::blur_stage)");
    stages[static_cast<size_t>(stage)]->run(source, destination, span, radius_levels);
  }

  std::vector<std::shared_ptr<const gl::Program>> held;

 private:
  EffectPipeline& owner_;
  const gl::Texture* color_;
  const gl::Texture* depth_;
  const gl::Texture* output_;
};

EffectPipeline::EffectPipeline(gl::ProgramCache& programs, const gl::GlLimits& limits, gl::TimerPool* timers)
    : programs_(programs), limits_(limits), timers_(timers), runner_(timers) {}

EffectPipeline::~EffectPipeline() = default;

std::optional<Refusal> EffectPipeline::configure(const EffectInfo& effect, const EffectSettings& settings, glm::ivec2 size) {
  const bool same_implementation = effect_ == &effect && settings_.implementation == settings.implementation && instance_;
  if (!same_implementation) {
    instance_ = effect.create(settings.implementation);
    blur_stages_.clear();
    textures_.clear();
  }
  effect_ = &effect;
  settings_ = settings;
  size_ = size;
  runner_.set_linear_wrap(settings.border);
  Stages setup(*this, nullptr, nullptr, nullptr);
  std::optional<Refusal> refusal = instance_->prepare(setup);
  if (refusal) {
    effect_ = nullptr;
    instance_.reset();
    blur_stages_.clear();
    return refusal;
  }
  programs_in_use_ = std::move(setup.held);
  return std::nullopt;
}

void EffectPipeline::refresh_programs() {
  if (!instance_) return;
  for (auto& stage : blur_stages_)
    if (stage) stage->refresh_programs();
  Stages setup(*this, nullptr, nullptr, nullptr);
  if (auto refusal = instance_->prepare(setup)) throw Error("effect refused its settings after a reload: " + refusal->reason);
  programs_in_use_ = std::move(setup.held);
}

void EffectPipeline::run(const gl::Texture& color, const gl::Texture& depth, const gl::Texture& output) {
  if (!instance_) throw Error("effect pipeline used before a successful configure()");
  for (const gl::Texture* t : {&color, &depth, &output})
    if (t->width() != size_.x || t->height() != size_.y) throw Error("effect pipeline configured for another size");
  if (color.format() != gl::Format::rgba16f || depth.format() != gl::Format::depth32f || output.format() != gl::Format::rgba8)
    throw Error("effect pipeline: the frame is rgba16f with a depth32f depth, the output rgba8");
  Stages passes(*this, &color, &depth, &output);
  gl::ScopedSpan total(timers_, "total");
  instance_->run(passes);
}

Image EffectPipeline::download(int slot) const {
  const auto it = textures_.find(slot);
  if (it == textures_.end() || !it->second) throw Error("the effect made no texture " + std::to_string(slot));
  return it->second.download();
}

std::map<int, Image> EffectPipeline::download_all() const {
  std::map<int, Image> images;
  for (const auto& [slot, texture] : textures_)
    if (texture) images.emplace(slot, texture.download());
  return images;
}

void EffectPipeline::poison(const float rgba[4]) {
  for (auto& [slot, texture] : textures_)
    if (texture) gl::fill(texture, rgba);
  for (auto& stage : blur_stages_)
    if (stage) stage->poison_intermediates(rgba);
}

}  // namespace blurlab
