#pragma once
// Runs one variant with one set of settings: owns the weights uniform block (weights and the
// constant border value), intermediate textures, samplers (the linear one wraps by the border
// mode) and the framebuffer for fragment passes, and records timing spans.
#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <tuple>

#include "blur/blur.h"
#include "blur/pass_runner.h"
#include "blur/recording.h"
#include "gl/timer_pool.h"

namespace blurlab {

// Layout of the weights uniform block (gl::Unit::KernelWeights), shared with glsl/blur_common.glsl.
inline constexpr int kTapVec4s = (2 * kMaxRadius + 1 + 3) / 4;  // w[-r..r], 4 per vec4
inline constexpr int kMaxLinearTaps = (kMaxRadius + 1) / 2;         // groups on one side
inline constexpr int kLinearVec4s = (kMaxLinearTaps + 1) / 2;         // (offset, W), 2 per vec4
struct KernelBlock {
  float taps[kTapVec4s * 4];
  float linear[kLinearVec4s * 4];
  float border_value[4];  // the constant border (BlurSettings::border, a texel of the input format)
};

// The defines every shader of a variant gets (BlurSetup::compute): RADIUS (not for a
// variable-radius variant, which defines VARIABLE_RADIUS instead and reads its radii as data),
// BORDER, the defines of the variant's knobs and BINDING_<NAME> for each of its slots (VariantInfo::slots).
gl::Defines blur_defines(const VariantInfo& variant, const BlurSettings& resolved);
// A compute pass's defines (BlurSetup::compute): blur_defines(), the source's and destination's
// formats (SRC_/DST_FORMAT, _RAW_FORMAT, _BYTES), then the pass's own `extra`. One function for
// the pipeline and the shader validation, so that what is validated is what runs.
gl::Defines compute_defines(const VariantInfo& variant, const BlurSettings& resolved, gl::Format src, gl::Format dst,
                            const gl::Defines& extra);
// A fragment pass's: blur_defines(), then `extra`.
gl::Defines fragment_defines(const VariantInfo& variant, const BlurSettings& resolved, const gl::Defines& extra);

// A program a setting asks for: its shader files and every define the pipeline gives them.
struct ProgramSource {
  std::vector<gl::ShaderFile> files;
  gl::Defines defines;
  bool operator==(const ProgramSource& o) const {
    return defines == o.defines && files.size() == o.files.size() &&
           std::equal(files.begin(), files.end(), o.files.begin(), [](const gl::ShaderFile& a, const gl::ShaderFile& b) {
             return a.stage == b.stage && a.name == b.name;
           });
  }
};
// The programs a variant's prepare() asks for with these resolved settings at an image size, in
// its order, from a setup that compiles nothing and needs no GL context. Two sizes that give the
// same programs run the same shaders: an export made at one holds at the other (src/export/), and
// the shader validation (tests/glsl/) validates what runs.
std::vector<ProgramSource> program_sources(const VariantInfo& variant, const BlurSettings& resolved, glm::ivec2 size);

class BlurPipeline {
 public:
  BlurPipeline(gl::ProgramCache& programs, const gl::GlLimits& limits, gl::TimerPool* timers = nullptr);
  ~BlurPipeline();
  BlurPipeline(const BlurPipeline&) = delete;
  BlurPipeline& operator=(const BlurPipeline&) = delete;

  // Selects variant, settings and image size. Returns why the variant cannot run them (and then
  // run() must not be called), or nullopt. Compiles programs: may throw gl::ShaderError.
  std::optional<Refusal> configure(const VariantInfo& variant, const BlurSettings& settings, glm::ivec2 size);
  // Re-runs prepare() after the program cache reloaded its shaders.
  void refresh_programs();

  // Blurs `source` into `destination` (both of the configured size and input format), timed
  // as span `span` around the variant's own spans. A blur that is a stage of an effect names its
  // span after the stage ("blur"), and its passes' spans then carry that name first ("blur h").
  // `radius_levels` (variable-radius variants): each pixel's level as a pass before this one made
  // it on the GPU (an effect's circles of confusion), in the levels texture's layout (rgba8 of the
  // configured size, level / 255 in red, levels 0..R of the settings' kernel), in place of the
  // levels made from the settings' radius map for this run.
  void run(const gl::Texture& source, const gl::Texture& destination, std::string_view span = "total",
           const gl::Texture* radius_levels = nullptr);

  // Runs the configured variant once, as run() does, and writes down every pass as GL sees it:
  // programs, textures, bindings, the barriers issued and the dispatches (for --export).
  Recording record(const gl::Texture& source, const gl::Texture& destination);

  // A blur recorded as a stage of a chain (an effect's blur stage, EffectPipeline::record): its
  // passes go into the chain's recording after the chain's earlier ones, where its source and
  // destination already are (textures `source` and `destination` of it), its own textures named
  // with `prefix` ("blur1_intermediate0") so that no other stage's share their names, and the
  // barriers between its passes and the chain's decided by the chain's runner, which sees them all.
  struct ChainStage {
    Recording* recording = nullptr;
    size_t source = 0, destination = 0;
    std::string prefix;
    PassRunner* chain = nullptr;
  };
  // Runs the configured variant once, as run(source, destination, span) does, recording it as `stage`.
  void record_stage(const gl::Texture& source, const gl::Texture& destination, std::string_view span, const ChainStage& stage);

  // Fills the intermediate textures with `rgba`, so a check catches reads of unwritten texels.
  void poison_intermediates(const float rgba[4]);
  // From now on every run fills each intermediate with `rgba` when it first takes it (also one
  // made during that run), so a check needs one run, not a run to make them and a second.
  void poison_intermediates_when_taken(const float rgba[4]);

  const VariantInfo* variant() const { return variant_; }
  const BlurSettings& settings() const { return settings_; }
  glm::ivec2 size() const { return size_; }

 private:
  class Passes;
  class PassRecorder;  // record(), record_stage()
  void run(const gl::Texture& source, const gl::Texture& destination, Recording* recording, std::string_view span,
           const gl::Texture* radius_levels, const ChainStage* stage = nullptr);
  gl::ProgramCache& programs_;
  gl::GlLimits limits_;
  gl::TimerPool* timers_;
  const VariantInfo* variant_ = nullptr;
  std::unique_ptr<Blur> blur_;
  BlurSettings settings_;
  glm::ivec2 size_{0, 0};
  gl::BufferHandle kernel_block_;
  std::optional<std::pair<Kernel, Border>> uploaded_;  // what the weights block holds
  void upload_kernel_block(const BlurSettings& resolved);
  PassRunner runner_;  // binds, barriers and times every pass (with the weights block)
  std::map<int, gl::Texture> intermediates_;
  // Variable-radius variants: the levels and weights textures (BlurPasses::radius_levels), made
  // when the map, the size or the kernel change.
  void make_level_textures();
  gl::Texture levels_, level_weights_;
  // BlurPasses::counters(): zero when made; the passes keep them zero between runs.
  gl::Texture counters_;
  std::optional<std::tuple<const RadiusMap*, glm::ivec2, Kernel>> levels_made_;
  std::optional<std::array<float, 4>> poison_when_taken_;
  // The programs the current variant prepared: held so the cache may drop them only once unused.
  std::vector<std::shared_ptr<const gl::Program>> programs_in_use_;
  // What each of them was built from, for record().
  std::map<const gl::Program*, RecordedProgram> program_sources_;
};

}  // namespace blurlab
