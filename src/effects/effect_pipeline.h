#pragma once
// Runs one effect with one set of settings (effects/effect.h): holds the effect's programs, its
// textures (kept from run to run), one BlurPipeline per blur stage, and issues every pass through
// the one PassRunner (bindings, barriers, timing spans).
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "blur/pass_runner.h"
#include "blur/pipeline.h"
#include "blur/recording.h"
#include "effects/effect.h"

namespace blurlab {

class EffectPipeline {
 public:
  EffectPipeline(gl::ProgramCache& programs, const gl::GlLimits& limits, gl::TimerPool* timers = nullptr);
  ~EffectPipeline();
  EffectPipeline(const EffectPipeline&) = delete;
  EffectPipeline& operator=(const EffectPipeline&) = delete;

  // Selects effect, settings and frame size. Returns why the implementation cannot run them (and
  // then run() must not be called), or nullopt. Compiles programs: may throw gl::ShaderError.
  std::optional<Refusal> configure(const EffectInfo& effect, const EffectSettings& settings, glm::ivec2 size);
  // Re-fetches programs after the program cache reloaded its shaders.
  void refresh_programs();

  // The effect on the HDR frame `color` (rgba16f) and `depth` (depth32f) into `output` (rgba8),
  // all of the configured size, timed as span "total" around the stages' spans.
  void run(const gl::Texture& color, const gl::Texture& depth, const gl::Texture& output);

  // Runs the effect once, as run() does, and writes down every pass in order as GL sees it, the
  // effect's own and each blur stage's (BlurPipeline::record_stage), into one recording (for
  // --export): `color` is its texture "source" and `output` its "destination"; the frame's
  // textures that passes read and no pass makes (the HDR frame, and its depth where a pass binds
  // it: "depth") carry their texels as data; the effect's own textures are named after what they
  // hold ("bloom_term_1"), a blur stage's after the stage ("blur1_intermediate0").
  Recording record(const gl::Texture& color, const gl::Texture& depth, const gl::Texture& output);

  // An effect texture as the last run left it (EffectReadback::stage_texture); throws Error for a
  // slot the effect never made.
  Image download(int slot) const;
  // Every effect texture as the last run left it, by slot: for a check on another thread
  // (EffectReadback::stage_texture from these).
  std::map<int, Image> download_all() const;
  // Fills every texture the effect and its blur stages made with `rgba`, so a check catches a
  // stage that reads what no pass wrote.
  void poison(const float rgba[4]);

  const EffectInfo* effect() const { return effect_; }
  const EffectSettings& settings() const { return settings_; }
  glm::ivec2 size() const { return size_; }

 private:
  class Stages;
  void run(const gl::Texture& color, const gl::Texture& depth, const gl::Texture& output, Recording* recording);
  gl::ProgramCache& programs_;
  gl::GlLimits limits_;
  gl::TimerPool* timers_;
  PassRunner runner_;
  const EffectInfo* effect_ = nullptr;
  std::unique_ptr<Effect> instance_;
  EffectSettings settings_;
  glm::ivec2 size_{0, 0};
  std::map<int, gl::Texture> textures_;
  std::map<int, std::string> texture_names_;  // what each holds (EffectPasses::texture's name), for record()
  std::vector<std::unique_ptr<BlurPipeline>> blur_stages_;
  std::vector<std::shared_ptr<const gl::Program>> programs_in_use_;
  // What each of them was built from, for record().
  std::map<const gl::Program*, RecordedProgram> program_sources_;
};

}  // namespace blurlab
