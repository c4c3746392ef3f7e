#include "effects/effect_pipeline.h"

#include <string>

#include "util/error.h"
#include "util/strings.h"

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
    held_sources[held.back().get()] = {{{GL_COMPUTE_SHADER, file}}, defines};
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
    owner_.texture_names_[slot] = name;
    return t;
  }

  using EffectPasses::dispatch;
  void dispatch(std::string_view span, const gl::Program& program, std::span<const Binding> bindings, const DispatchGrid& grid,
                std::optional<glm::vec4> pass) override {
    if (recording) {
      const auto source = owner_.program_sources_.find(&program);
      if (source == owner_.program_sources_.end()) throw Error("record(): a pass used a program prepare() did not ask for");
      RecordedPass& recorded = recording->passes.emplace_back();
      recorded.name = span;
      recorded.stage = Stage::Compute;
      recorded.program = source->second;
      for (const Binding& b : bindings) recorded.bindings.push_back({b.kind, b.unit.number, b.raw, texture_index(*b.texture)});
      recorded.grid = grid;
      recorded.pass_values = pass;
      owner_.runner_.record_barriers_into(&recorded.barriers_before);
    }
    owner_.runner_.dispatch(span, program, bindings, grid.groups, pass);
  }

  void blur(int stage, const gl::Texture& source, const gl::Texture& destination, std::string_view span,
            const gl::Texture* radius_levels) override {
    const auto& stages = owner_.blur_stages_;
    if (stage < 0 || static_cast<size_t>(stage) >= stages.size() || !stages[static_cast<size_t>(stage)])
      throw Error("blur(): stage " + std::to_string(stage) + " was not configured (EffectSetup::blur_stage)");
    BlurPipeline& pipeline = *stages[static_cast<size_t>(stage)];
    if (!recording) {
      pipeline.run(source, destination, span, radius_levels);
      return;
    }
    if (radius_levels) throw Error("blur(): a stage fed levels an earlier pass made is not recorded for --export yet");
    const BlurPipeline::ChainStage chain{.recording = recording, .source = texture_index(source), .destination = texture_index(destination),
                                         .prefix = "blur" + std::to_string(stage + 1) + "_", .chain = &owner_.runner_};
    pipeline.record_stage(source, destination, span, chain);
  }

  std::vector<std::shared_ptr<const gl::Program>> held;
  std::map<const gl::Program*, RecordedProgram> held_sources;
  Recording* recording = nullptr;  // record(): passes are written down here too

 private:
  // The recording's index of a texture a pass binds, recorded when first bound: the frame
  // ("source": its texels as data, which no pass makes), the picture ("destination"), the depth
  // ("depth": as data too), the effect's own textures by what they hold.
  size_t texture_index(const gl::Texture& t) {
    std::vector<RecordedTexture>& textures = recording->textures;
    const auto frame_texture = [](std::string name, const gl::Texture& texture, bool data) {
      RecordedTexture recorded{.name = std::move(name), .format = texture.format(), .size = {texture.width(), texture.height()}};
      if (data) recorded.contents = texture.download_texels();
      return recorded;
    };
    if (textures.empty()) {
      textures.push_back(frame_texture("source", *color_, true));
      textures.push_back(frame_texture("destination", *output_, false));
    }
    const auto recorded_as = [&](const std::string& name) -> std::optional<size_t> {
      for (size_t i = 0; i < textures.size(); ++i)
        if (textures[i].name == name) return i;
      return std::nullopt;
    };
    if (&t == color_) return 0;
    if (&t == output_) return 1;
    if (&t == depth_) {
      if (const auto index = recorded_as("depth")) return *index;
      textures.push_back(frame_texture("depth", *depth_, true));
      return textures.size() - 1;
    }
    for (const auto& [slot, texture] : owner_.textures_)
      if (&texture == &t) {
        if (const auto known = slot_index_.find(slot); known != slot_index_.end()) return known->second;
        // By what it holds, made a file name; with the slot's number where that name is taken.
        std::string name = file_name_part(owner_.texture_names_.at(slot));
        while (name == "depth" || recorded_as(name)) name += "_" + std::to_string(slot);
        textures.push_back({.name = name, .format = t.format(), .size = {t.width(), t.height()}});
        return slot_index_[slot] = textures.size() - 1;
      }
    throw Error("record(): a pass bound a texture the effect pipeline does not own");
  }

  std::map<int, size_t> slot_index_;  // the recording's index of each of the effect's own textures
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
  program_sources_ = std::move(setup.held_sources);
  return std::nullopt;
}

void EffectPipeline::refresh_programs() {
  if (!instance_) return;
  for (auto& stage : blur_stages_)
    if (stage) stage->refresh_programs();
  Stages setup(*this, nullptr, nullptr, nullptr);
  if (auto refusal = instance_->prepare(setup)) throw Error("effect refused its settings after a reload: " + refusal->reason);
  programs_in_use_ = std::move(setup.held);
  program_sources_ = std::move(setup.held_sources);
}

void EffectPipeline::run(const gl::Texture& color, const gl::Texture& depth, const gl::Texture& output) {
  run(color, depth, output, nullptr);
}

Recording EffectPipeline::record(const gl::Texture& color, const gl::Texture& depth, const gl::Texture& output) {
  Recording recording;
  runner_.start_recording();
  try {
    run(color, depth, output, &recording);
  } catch (...) {
    runner_.stop_recording();
    throw;
  }
  runner_.stop_recording();
  return recording;
}

void EffectPipeline::run(const gl::Texture& color, const gl::Texture& depth, const gl::Texture& output, Recording* recording) {
  if (!instance_) throw Error("effect pipeline used before a successful configure()");
  for (const gl::Texture* t : {&color, &depth, &output})
    if (t->width() != size_.x || t->height() != size_.y) throw Error("effect pipeline configured for another size");
  if (color.format() != gl::Format::rgba16f || depth.format() != gl::Format::depth32f || output.format() != gl::Format::rgba8)
    throw Error("effect pipeline: the frame is rgba16f with a depth32f depth, the output rgba8");
  Stages passes(*this, &color, &depth, &output);
  passes.recording = recording;
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
