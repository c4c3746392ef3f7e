#include "blur/pipeline.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include <sstream>

#include "gl/barriers.h"
#include "util/error.h"
#include "util/strings.h"

namespace blurlab {

namespace {

// A BlurSetup that writes down what it is asked for instead of compiling it.
class ProgramListing final : public BlurSetup {
 public:
  ProgramListing(const VariantInfo& variant, const BlurSettings& settings, glm::ivec2 size)
      : variant_(variant), settings_(settings), size_(size) {}
  const BlurSettings& settings() const override { return settings_; }
  glm::ivec2 size() const override { return size_; }
  const gl::Program& compute(const std::string& file, gl::Format src, gl::Format dst, const gl::Defines& extra) override {
    programs.push_back({{{GL_COMPUTE_SHADER, file}}, compute_defines(variant_, settings_, src, dst, extra)});
    return program_;
  }
  const gl::Program& fragment(const std::string& file, const gl::Defines& extra) override {
    programs.push_back({{{GL_VERTEX_SHADER, "fullscreen.vert"}, {GL_FRAGMENT_SHADER, file}}, fragment_defines(variant_, settings_, extra)});
    return program_;
  }
  std::vector<ProgramSource> programs;

 private:
  const VariantInfo& variant_;
  const BlurSettings& settings_;
  glm::ivec2 size_;
  gl::Program program_;  // never compiled: prepare() only keeps a reference
};

}  // namespace

std::vector<ProgramSource> program_sources(const VariantInfo& variant, const BlurSettings& resolved, glm::ivec2 size) {
  ProgramListing listing(variant, resolved, size);
  variant.create()->prepare(listing);
  return std::move(listing.programs);
}

gl::Defines blur_defines(const VariantInfo& variant, const BlurSettings& s) {
  gl::Defines defines;
  if (variant.variable_radius) defines.push_back({"VARIABLE_RADIUS", "1"});
  else defines.push_back({"RADIUS", std::to_string(s.kernel.radius)});
  defines.push_back({"BORDER", std::string(define_name(s.border.mode))});
  for (const Knob& k : variant.knobs)
    for (auto& define : k.defines(s.knob(k.name))) defines.push_back(std::move(define));
  for (auto& define : gl::slot_defines(variant.slots)) defines.push_back(std::move(define));
  return defines;
}

gl::Defines compute_defines(const VariantInfo& variant, const BlurSettings& s, gl::Format src, gl::Format dst,
                            const gl::Defines& extra) {
  gl::Defines defines = blur_defines(variant, s);
  defines.push_back({"SRC_FORMAT", std::string(gl::name(src))});
  defines.push_back({"DST_FORMAT", std::string(gl::name(dst))});
  defines.push_back({"SRC_RAW_FORMAT", std::string(gl::info(src).raw_name)});
  defines.push_back({"DST_RAW_FORMAT", std::string(gl::info(dst).raw_name)});
  defines.push_back({"SRC_BYTES", std::to_string(gl::info(src).bytes_per_texel)});
  defines.push_back({"DST_BYTES", std::to_string(gl::info(dst).bytes_per_texel)});
  defines.insert(defines.end(), extra.begin(), extra.end());
  return defines;
}

gl::Defines fragment_defines(const VariantInfo& variant, const BlurSettings& s, const gl::Defines& extra) {
  gl::Defines defines = blur_defines(variant, s);
  defines.insert(defines.end(), extra.begin(), extra.end());
  return defines;
}

// Writes down each pass of a run as GL sees it (record(), record_stage()): its program and the
// weights block it reads, its bindings as indices into the recording's textures (each texture
// recorded when a pass first binds it), the barriers issued before it.
class BlurPipeline::PassRecorder {
 public:
  // `chain`: the blur is a stage of a chain, whose recording has its source and destination.
  PassRecorder(BlurPipeline& owner, const gl::Texture& source, const gl::Texture& destination, Recording& recording, const ChainStage* chain)
      : owner_(owner), source_(source), destination_(destination), recording_(recording), chain_(chain) {}

  bool in_chain() const { return chain_ != nullptr; }

  // BlurPasses::fixed_intermediate(): the slot's texture is of a size independent of the image's.
  void note_fixed_slot(int slot) { fixed_slots_.insert(slot); }

  RecordedPass& start(std::string name, Stage stage, const gl::Program& program, std::initializer_list<Binding> bindings) {
    const auto source = owner_.program_sources_.find(&program);
    if (source == owner_.program_sources_.end()) throw Error("record(): a pass used a program prepare() did not ask for");
    RecordedPass& pass = recording_.passes.emplace_back();
    pass.name = std::move(name);
    pass.stage = stage;
    pass.program = source->second;
    // The weights block this program reads, as the pipeline filled it (configure()).
    pass.program.border = owner_.settings_.border;
    if (uses_kernel_weights(*owner_.variant_)) pass.program.kernel = owner_.settings_.kernel;
    for (const Binding& b : bindings) pass.bindings.push_back({b.kind, b.unit.number, b.raw, texture_index(*b.texture)});
    owner_.runner_.record_barriers_into(&pass.barriers_before);
    return pass;
  }

  // Where `t` is in the recording's textures, recorded there first if no pass bound it before.
  size_t texture_index(const gl::Texture& t) {
    if (const auto index = endpoint_index(t)) return *index;
    if (const auto index = intermediate_index(t)) return *index;
    if (const auto index = cpu_made_index(t)) return *index;
    throw Error("record(): a pass bound a texture the pipeline does not own");
  }

 private:
  // The source and the destination: a chain's recording has them already; a blur's own recording
  // starts with them.
  std::optional<size_t> endpoint_index(const gl::Texture& t) {
    if (chain_) {
      if (&t == &source_) return chain_->source;
      if (&t == &destination_) return chain_->destination;
      return std::nullopt;
    }
    std::vector<RecordedTexture>& textures = recording_.textures;
    if (textures.empty()) {
      textures.push_back({"source", source_.format(), {source_.width(), source_.height()}});
      textures.push_back({"destination", destination_.format(), {destination_.width(), destination_.height()}});
    }
    if (&t == &source_) return 0;
    if (&t == &destination_) return 1;
    return std::nullopt;
  }

  // A texture's name in the recording: a chain stage's own carry the stage's prefix ("blur1_").
  std::string recorded_name(std::string_view plain) const { return (chain_ ? chain_->prefix : "") + std::string(plain); }

  std::optional<size_t> recorded_as(const std::string& name) const {
    for (size_t i = 0; i < recording_.textures.size(); ++i)
      if (recording_.textures[i].name == name) return i;
    return std::nullopt;
  }

  // An intermediate, by its slot: of the image's size, or fixed.
  std::optional<size_t> intermediate_index(const gl::Texture& t) {
    for (const auto& [slot, texture] : owner_.intermediates_)
      if (&texture == &t) {
        const std::string name = recorded_name("intermediate" + std::to_string(slot));
        if (const auto index = recorded_as(name)) return *index;
        recording_.textures.push_back(
            {.name = name, .format = t.format(), .size = {t.width(), t.height()}, .fixed_size = fixed_slots_.count(slot) > 0});
        return recording_.textures.size() - 1;
      }
    return std::nullopt;
  }

  // The levels and weights of a variable-radius variant: data made on the CPU, recorded with
  // their contents (read back as stored) so an export can ship them; and the counters, zeros
  // (the passes leave them so), recorded as such.
  std::optional<size_t> cpu_made_index(const gl::Texture& t) {
    for (auto [texture, plain_name] : {std::pair{&owner_.levels_, kLevelsTexture}, std::pair{&owner_.level_weights_, kLevelWeightsTexture},
                                       std::pair{&owner_.counters_, kCountersTexture}})
      if (&t == texture) {
        const std::string name = recorded_name(plain_name);
        if (const auto index = recorded_as(name)) return *index;
        RecordedTexture recorded{name, t.format(), {t.width(), t.height()}};
        if (texture == &owner_.counters_) recorded.zeros = true;
        else recorded.contents = t.download_texels();
        recording_.textures.push_back(std::move(recorded));
        return recording_.textures.size() - 1;
      }
    return std::nullopt;
  }

  BlurPipeline& owner_;
  const gl::Texture& source_;
  const gl::Texture& destination_;
  Recording& recording_;
  const ChainStage* chain_;
  std::set<int> fixed_slots_;  // intermediates of a size independent of the image's
};

// The BlurSetup and BlurPasses the variants see.
class BlurPipeline::Passes final : public BlurSetup, public BlurPasses {
 public:
  Passes(BlurPipeline& owner, const gl::Texture* source, const gl::Texture* destination)
      : owner_(owner), source_(source), destination_(destination) {}

  const BlurSettings& settings() const override { return owner_.settings_; }
  glm::ivec2 size() const override { return owner_.size_; }

  const gl::Program& compute(const std::string& file, gl::Format src, gl::Format dst, const gl::Defines& extra) override {
    return hold({{GL_COMPUTE_SHADER, file}}, compute_defines(*owner_.variant_, owner_.settings_, src, dst, extra));
  }

  const gl::Program& fragment(const std::string& file, const gl::Defines& extra) override {
    return hold({{GL_VERTEX_SHADER, "fullscreen.vert"}, {GL_FRAGMENT_SHADER, file}},
                fragment_defines(*owner_.variant_, owner_.settings_, extra));
  }

  std::vector<std::shared_ptr<const gl::Program>> held;
  std::map<const gl::Program*, RecordedProgram> held_sources;
  std::optional<PassRecorder> recorder;  // record(), record_stage(): passes are written down too
  const gl::Texture* given_levels = nullptr;  // run(..., radius_levels): this run's levels
  std::set<int> poisoned_;          // the intermediates this run has poisoned

  const gl::Texture& source() const override { return *source_; }
  const gl::Texture& destination() const override { return *destination_; }

  const gl::Texture& intermediate(int slot, std::optional<gl::Format> format, std::optional<glm::ivec2> size) override {
    const gl::Format f = format.value_or(owner_.settings_.intermediate_format());
    const glm::ivec2 extent = size.value_or(owner_.size_);
    gl::Texture& t = owner_.intermediates_[slot];
    if (!t || t.width() != extent.x || t.height() != extent.y || t.format() != f)
      t = gl::Texture(extent.x, extent.y, f, "intermediate " + std::to_string(slot));
    if (owner_.poison_when_taken_ && poisoned_.insert(slot).second) gl::fill(t, owner_.poison_when_taken_->data());
    return t;
  }

  const gl::Texture& fixed_intermediate(int slot, gl::Format format, glm::ivec2 size) override {
    if (recorder) recorder->note_fixed_slot(slot);
    return intermediate(slot, format, size);
  }

  const gl::Texture& counters(glm::ivec2 size) override {
    gl::Texture& t = owner_.counters_;
    if (!t || t.width() != size.x || t.height() != size.y) {
      t = gl::Texture(size.x, size.y, gl::Format::rgba8, "counters");
      const float zero[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      gl::fill(t, zero);
    }
    return t;
  }

  const gl::Texture& radius_levels() override {
    if (!owner_.levels_) throw Error("radius_levels(): " + std::string(owner_.variant_->name) + " is not a variable-radius variant");
    return given_levels ? *given_levels : owner_.levels_;
  }
  const gl::Texture& level_weights() override {
    if (!owner_.level_weights_) throw Error("level_weights(): " + std::string(owner_.variant_->name) + " is not a variable-radius variant");
    return owner_.level_weights_;
  }

  void dispatch(std::string_view name, const gl::Program& program, std::initializer_list<Binding> bindings,
                const DispatchGrid& grid, std::optional<glm::vec4> pass_values) override {
    if (recorder) {
      RecordedPass& pass = recorder->start(recorded_name(name), Stage::Compute, program, bindings);
      pass.grid = grid;
      pass.pass_values = pass_values;
    }
    owner_.runner_.dispatch(span_name(name), program, {bindings.begin(), bindings.size()}, grid.groups, pass_values);
  }

  void draw(std::string_view name, const gl::Program& program, std::initializer_list<Binding> inputs,
            const gl::Texture& target) override {
    if (recorder) {
      RecordedPass& pass = recorder->start(recorded_name(name), Stage::Fragment, program, inputs);
      pass.target = recorder->texture_index(target);
    }
    owner_.runner_.draw(span_name(name), program, {inputs.begin(), inputs.size()}, target);
  }

  // Spans of a blur that is a stage of an effect are named after the stage ("blur h").
  std::string span_prefix;

 private:
  const gl::Program& hold(std::vector<gl::ShaderFile> files, gl::Defines defines) {
    held.push_back(owner_.programs_.share(files, defines));
    held_sources[held.back().get()] = {std::move(files), std::move(defines)};
    return *held.back();
  }

  std::string span_name(std::string_view name) const { return span_prefix.empty() ? std::string(name) : span_prefix + " " + std::string(name); }
  // A chain stage's passes are recorded by their spans' names ("blur 1 h"), a blur's own by theirs.
  std::string recorded_name(std::string_view name) const { return recorder->in_chain() ? span_name(name) : std::string(name); }

  BlurPipeline& owner_;
  const gl::Texture* source_;
  const gl::Texture* destination_;
};

BlurPipeline::BlurPipeline(gl::ProgramCache& programs, const gl::GlLimits& limits, gl::TimerPool* timers)
    : programs_(programs), limits_(limits), timers_(timers), kernel_block_(gl::create_buffer()), runner_(timers) {
  glBindBuffer(GL_UNIFORM_BUFFER, kernel_block_.get());
  glBufferData(GL_UNIFORM_BUFFER, sizeof(KernelBlock), nullptr, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_UNIFORM_BUFFER, 0);
  runner_.bind_uniform_buffer_with_every_pass(gl::unit_number(gl::Unit::KernelWeights), kernel_block_.get());
}

BlurPipeline::~BlurPipeline() = default;

std::optional<Refusal> BlurPipeline::configure(const VariantInfo& variant, const BlurSettings& settings,
                                                   glm::ivec2 size) {
  const BlurSettings resolved = resolve(variant, settings, size);
  if (auto reason = unsupported_reason(variant, resolved, size, limits_)) {
    variant_ = nullptr;
    blur_.reset();
    return reason;
  }
  if (variant_ != &variant) blur_ = variant.create();
  variant_ = &variant;
  settings_ = resolved;
  size_ = size;

  upload_kernel_block(resolved);
  runner_.set_linear_wrap(resolved.border);
  if (variant.variable_radius) {
    make_level_textures();
  } else {
    levels_ = gl::Texture();
    level_weights_ = gl::Texture();
    levels_made_.reset();
  }
  refresh_programs();
  return std::nullopt;
}

// The weights block every pass reads: the kernel's weights, their linear-sampling taps and the
// constant border's value, uploaded when they change.
void BlurPipeline::upload_kernel_block(const BlurSettings& resolved) {
  if (uploaded_ == std::pair(resolved.kernel, resolved.border)) return;
  // Weights in double, rounded once to float for the GPU.
  const std::vector<double> weights = kernel_weights(resolved.kernel);
  KernelBlock block{};
  for (size_t i = 0; i < weights.size(); ++i) block.taps[i] = static_cast<float>(weights[i]);
  const std::vector<LinearTap> linear = linear_taps(weights);
  for (size_t i = 0; i < linear.size(); ++i) {
    block.linear[2 * i] = static_cast<float>(linear[i].offset);
    block.linear[2 * i + 1] = static_cast<float>(linear[i].weight);
  }
  std::copy(resolved.border.value.begin(), resolved.border.value.end(), block.border_value);
  glBindBuffer(GL_UNIFORM_BUFFER, kernel_block_.get());
  glBufferSubData(GL_UNIFORM_BUFFER, 0, sizeof(block), &block);
  glBindBuffer(GL_UNIFORM_BUFFER, 0);
  uploaded_ = std::pair(resolved.kernel, resolved.border);
}

void BlurPipeline::make_level_textures() {
  const auto key = std::tuple(settings_.radius_map.get(), size_, settings_.kernel);
  if (levels_made_ == key) return;
  const int max_radius = settings_.kernel.radius;
  const std::vector<uint8_t> levels = radius_levels(settings_.radius_map.get(), size_, max_radius);
  Image level_image(size_.x, size_.y);
  for (size_t i = 0; i < levels.size(); ++i) level_image.texels[i * 4] = static_cast<float>(levels[i]) / 255.0f;
  levels_ = gl::Texture(size_.x, size_.y, gl::Format::rgba8, "radius levels");
  levels_.upload(level_image);
  Image weights(max_radius + 1, max_radius + 1);
  for (int level = 0; level <= max_radius; ++level) {
    const std::vector<double> w = kernel_weights(level_kernel(settings_.kernel, level));
    for (int i = 0; i <= level; ++i) weights.at(i, level, 0) = static_cast<float>(w[static_cast<size_t>(level + i)]);
  }
  level_weights_ = gl::Texture(max_radius + 1, max_radius + 1, gl::Format::rgba32f, "level weights");
  level_weights_.upload(weights);
  levels_made_ = key;
}

void BlurPipeline::refresh_programs() {
  if (!blur_) return;
  Passes setup(*this, nullptr, nullptr);
  blur_->prepare(setup);
  programs_in_use_ = std::move(setup.held);  // the previous set is released only now
  program_sources_ = std::move(setup.held_sources);
}

void BlurPipeline::poison_intermediates_when_taken(const float rgba[4]) { poison_when_taken_ = std::array{rgba[0], rgba[1], rgba[2], rgba[3]}; }

void BlurPipeline::poison_intermediates(const float rgba[4]) {
  for (auto& [slot, texture] : intermediates_)
    if (texture) gl::fill(texture, rgba);
}

Recording BlurPipeline::record(const gl::Texture& source, const gl::Texture& destination) {
  Recording recording;
  runner_.start_recording();
  try {
    run(source, destination, &recording, "total", nullptr);
  } catch (...) {
    runner_.stop_recording();
    throw;
  }
  runner_.stop_recording();
  return recording;
}

void BlurPipeline::run(const gl::Texture& source, const gl::Texture& destination, std::string_view span, const gl::Texture* radius_levels) {
  run(source, destination, nullptr, span, radius_levels);
}

void BlurPipeline::record_stage(const gl::Texture& source, const gl::Texture& destination, std::string_view span, const ChainStage& stage) {
  if (!stage.recording || !stage.chain) throw Error("record_stage(): no chain to record into");
  runner_.start_recording(*stage.chain);
  try {
    run(source, destination, stage.recording, span, nullptr, &stage);
  } catch (...) {
    runner_.stop_recording();
    throw;
  }
  runner_.stop_recording();
}

void BlurPipeline::run(const gl::Texture& source, const gl::Texture& destination, Recording* recording, std::string_view span,
                       const gl::Texture* radius_levels, const ChainStage* stage) {
  if (!blur_) throw Error("blur pipeline used before a successful configure()");
  if (source.width() != size_.x || source.height() != size_.y || destination.width() != size_.x ||
      destination.height() != size_.y)
    throw Error("blur pipeline configured for another size");
  if (source.format() != settings_.input_format || destination.format() != settings_.input_format)
    throw Error("blur pipeline configured for " + std::string(gl::name(settings_.input_format)) + " textures, given " +
                std::string(gl::name(source.format())) + " and " + std::string(gl::name(destination.format())));
  if (radius_levels && (!variant_->variable_radius || radius_levels->format() != gl::Format::rgba8 || radius_levels->width() != size_.x ||
                        radius_levels->height() != size_.y))
    throw Error("blur pipeline: radius levels given to " + std::string(variant_->name) +
                (variant_->variable_radius ? ", not an rgba8 texture of the image's size" : ", not a variable-radius variant"));
  Passes passes(*this, &source, &destination);
  if (recording) passes.recorder.emplace(*this, source, destination, *recording, stage);
  passes.given_levels = radius_levels;
  if (span != "total") passes.span_prefix = span;
  gl::ScopedSpan total(timers_, span);
  blur_->run(passes);
}

}  // namespace blurlab
