#pragma once
// The effect framework. Nobody ships a blur alone: it ships inside an effect (bloom, depth of
// field), and the effect decides which blur is right. An effect takes the HDR scene
// (Scene::render_hdr: linear radiance in rgba16f, and its depth) and makes the picture it ships
// (rgba8: tonemapped and sRGB-encoded, effects/tonemap.h) through stages: passes of its own shaders
// (glsl/effects/) and blurs by a variant (BlurPipeline), all issued the one way every pass is
// (blur/pass_runner.h): the same bindings, barriers and timing spans.
//
// An effect is one C++ file in src/effects/ (its EffectInfo, its Effect subclasses and its CPU
// ground truth), one shader file in glsl/effects/, and one line in effects/registry.cpp. Each
// effect is judged on the frame it ships against a ground truth of its own, computed on the CPU in
// double precision from the same HDR frame and independently of the GPU's stages (EffectInfo::check).
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "blur/blur.h"
#include "blur/check.h"
#include "blur/reference.h"
#include "scene/scene.h"

namespace blurlab {

// One parameter of an effect: --NAME on the command line, a control in the window. Its value is
// text, parsed and validated by the effect (EffectInfo::validate), so a parameter may be a number,
// a list or a point-spread function.
struct EffectParameter {
  std::string_view name;
  std::string_view help;
  std::string_view default_value;
  // A number the window also offers on a slider over slider_low..slider_high (logarithmic), where
  // slider_high > slider_low (depth of field's aperture); else the text field alone.
  double slider_low = 0.0, slider_high = 0.0;
};
using EffectValues = std::map<std::string, std::string, std::less<>>;

// What one run of an effect is asked.
struct EffectSettings {
  // How the effect is computed: the name of a blur variant that serves its blur stage, or of an
  // implementation of the effect's own (EffectInfo::implementations).
  std::string implementation;
  EffectValues values;  // every parameter's value, the defaults filled in (resolve_effect)
  Border border;        // what the blurs' taps outside the frame read (blur/border.h)
  // The blur stage's knobs (its variant's, by name; resolve() keeps the variant's own).
  KnobValues knobs;
  bool operator==(const EffectSettings&) const = default;
};

class EffectSetup {
 public:
  virtual ~EffectSetup() = default;
  virtual const EffectSettings& settings() const = 0;
  virtual glm::ivec2 size() const = 0;
  virtual const gl::GlLimits& limits() const = 0;
  // A compute program from glsl/<file> ("effects/bloom.comp") with `defines` (and the binding
  // units' BINDING_<NAME>, as every shader has them).
  virtual const gl::Program& compute(const std::string& file, const gl::Defines& defines) = 0;
  // Blur stage `stage`: `variant` with `settings` (input format rgba16f), run by
  // EffectPasses::blur. Returns why the variant cannot (then the stage must not run), or nullopt.
  virtual std::optional<Refusal> blur_stage(int stage, const VariantInfo& variant, const BlurSettings& settings) = 0;
};

class EffectPasses {
 public:
  virtual ~EffectPasses() = default;
  virtual const EffectSettings& settings() const = 0;
  virtual glm::ivec2 size() const = 0;
  virtual const gl::Texture& color() const = 0;   // the HDR frame: linear radiance, rgba16f
  virtual const gl::Texture& depth() const = 0;   // its depth buffer (Format::depth32f)
  virtual const gl::Texture& output() const = 0;  // the picture the effect ships: rgba8, sRGB
  // A texture of the effect's own (a stage's output, a level of a chain), kept from run to run:
  // made when first asked for and again when its format or size changes. `name` says what it holds
  // (in debuggers and in the check's messages).
  virtual const gl::Texture& texture(int slot, gl::Format format, glm::ivec2 size, std::string_view name) = 0;
  // One compute dispatch of an effect program, timed as span `span` (BlurPasses::dispatch).
  virtual void dispatch(std::string_view span, const gl::Program& program, std::span<const Binding> bindings,
                        const DispatchGrid& grid, std::optional<glm::vec4> pass = std::nullopt) = 0;
  void dispatch(std::string_view span, const gl::Program& program, std::initializer_list<Binding> bindings, const DispatchGrid& grid,
                std::optional<glm::vec4> pass = std::nullopt) {
    dispatch(span, program, std::span<const Binding>(bindings.begin(), bindings.size()), grid, pass);
  }
  // Blur stage `stage` (EffectSetup::blur_stage) from `source` into `destination` (rgba16f, the
  // frame's size), timed as span `span`, its passes as "`span` h", "`span` v", ...
  // `radius_levels`: for a variable-radius variant, each pixel's level as an earlier pass of the
  // effect made it (BlurPipeline::run), in place of the stage's radius map.
  virtual void blur(int stage, const gl::Texture& source, const gl::Texture& destination, std::string_view span,
                    const gl::Texture* radius_levels = nullptr) = 0;
};

class Effect {
 public:
  virtual ~Effect() = default;
  // Fetches programs and configures blur stages for the settings and size; returns why the
  // implementation cannot run them (and then run() is not called), or nullopt.
  virtual std::optional<Refusal> prepare(EffectSetup& setup) = 0;
  // The effect on passes.color() (and depth()) into passes.output().
  virtual void run(EffectPasses& passes) = 0;
};

// One stage's output against what the CPU expects of it given the stage's own input as the GPU
// made it (a blur stage's against its variant's reference or model, a composite's against the
// composite of the GPU's layer), within the stage's tolerance (which states its reason).
struct StageCheck {
  std::string stage;  // "prefilter", "blur 1", "chain", "composite", ...
  CheckResult result;
  Tolerance tolerance;
};

// The shipped frame against the effect's ground truth: max and RMS error in 8-bit steps of the
// picture over R, G and B (alpha is opaque), and the PSNR; and the effect's layer (bloom's
// light spread by the PSF, in linear radiance) against the ground truth's layer, as a relative
// error: max |difference| / max |truth|, and the RMS of the difference / the RMS of the truth.
struct EffectFidelity {
  double max_lsb = 0.0;
  double rms_lsb = 0.0;
  double psnr_db = 0.0;  // 20 log10(255 / rms_lsb); infinite when equal
  std::string layer;     // what the layer is ("bloom layer"); empty: the effect has none
  double layer_max_relative = 0.0;
  double layer_rms_relative = 0.0;
  // The same numbers over a region of the frame the effect names, where its approximations show
  // most (depth of field: the pixels near depth edges, where halos and cut silhouettes live);
  // `region` says which (empty: the effect names none), `region_pixels` how many it holds.
  std::string region;
  size_t region_pixels = 0;
  double region_max_lsb = 0.0;
  double region_rms_lsb = 0.0;
  double region_psnr_db = 0.0;
};

struct EffectCheck {
  std::vector<StageCheck> stages;
  EffectFidelity fidelity;
  // The ground truth's picture the fidelity was measured against (shared with GroundTruths), for
  // whoever shows it (the report's crops); may be dropped once used.
  std::shared_ptr<const ReferenceImage> truth_picture;
  // The region of the fidelity (EffectFidelity::region), one byte a pixel (row-major, non-zero
  // inside), shared with GroundTruths: the report's crop goes where the effect shows most inside it.
  std::shared_ptr<const std::vector<uint8_t>> region_mask;
  bool ok() const;
  // The first stage over its tolerance, or nullptr.
  const StageCheck* first_failure() const;
};

// What one checked run read and wrote, read back (EffectInfo::check). `stage_texture(slot)` reads
// back an effect texture (EffectPasses::texture) as the run left it.
struct EffectReadback {
  const EffectSettings* settings = nullptr;
  glm::ivec2 size{0, 0};
  const Image* color = nullptr;   // the HDR frame
  const Image* depth = nullptr;   // window-space depth in red
  const Image* output = nullptr;  // the picture
  std::function<Image(int slot)> stage_texture;
  // The HDR scene of this frame (its time, its size) seen from each of `cameras`, each view
  // rendered as the frame was (rgba16f), their mean radiance (summed in fp32 on the GPU) read back
  // once: for ground truths that are renders of their own (depth of field's lens). Empty where
  // the frame is not the scene's.
  std::function<Image(std::span<const SceneCamera> cameras)> scene_mean;
};

// Ground truths computed once per frame and shared by every implementation of it (a ground
// truth depends on the frame, the parameters and the border, never on the implementation), by a
// key the effect makes of them.
class GroundTruths {
 public:
  using Truth = std::shared_ptr<const std::vector<ReferenceImage>>;
  Truth get(const std::string& key, const std::function<std::vector<ReferenceImage>()>& make);
  void clear() { truths_.clear(); }

 private:
  std::map<std::string, Truth> truths_;
};

struct EffectInfo {
  std::string_view name;     // kebab-case, --effect NAME
  std::string_view summary;  // one line
  std::vector<EffectParameter> parameters;
  // Throws UsageError (one line, with the numbers) unless the values (defaults filled in) make
  // sense for frames of `sizes`; called before any work.
  void (*validate)(const EffectValues& values, const std::vector<glm::ivec2>& sizes) = nullptr;
  // Every implementation's name, in the order the report lists them: the variants that serve the
  // blur stage, and the effect's own.
  std::vector<std::string> (*implementations)() = nullptr;
  // The implementation of that name (one of implementations()).
  std::unique_ptr<Effect> (*create)(std::string_view implementation) = nullptr;
  // Checks one run: each stage against the CPU, and the shipped frame against the ground truth.
  EffectCheck (*check)(const EffectReadback& run, GroundTruths& truths) = nullptr;
  // A line saying what the implementation is (for the report and the window), e.g. "one blur
  // per PSF term by fft, then the composite".
  std::string (*describe)(const EffectSettings& settings, glm::ivec2 size) = nullptr;
  // The parameters as numbers for a frame of `size`, as --export's recipe states them beside their
  // text (bloom: the PSF's terms, weights normalised and sigmas in pixels); nullptr: the text alone.
  nlohmann::json (*recipe_values)(const EffectValues& values, glm::ivec2 size) = nullptr;
  // The camera the effect's HDR frame is seen from, for frames of `size` (depth of field: its
  // lens's field of view); nullptr: the scene's own (SceneCamera{}).
  SceneCamera (*camera)(const EffectValues& values, glm::ivec2 size) = nullptr;
  // A remark on values validate() let through that the run goes on with but the user should know
  // (depth of field: a focus outside the scene's depth range), one line; empty or nullptr: none.
  std::string (*note)(const EffectValues& values) = nullptr;
  // The views of the scene the ground truth averages (EffectReadback::scene_mean), for the window
  // to render them a few a frame on demand and show them accumulate; nullptr: the ground truth
  // renders nothing.
  std::vector<SceneCamera> (*ground_truth_views)(const EffectValues& values, glm::ivec2 size) = nullptr;
  // A parameter a click on the window's picture sets to the view depth (scene units) of the point
  // clicked (depth of field: the focus distance); empty: clicks do nothing.
  std::string_view depth_parameter;
};

// The camera of the effect's frame for these values (EffectInfo::camera, or the scene's).
SceneCamera effect_camera(const EffectInfo& effect, const EffectValues& values, glm::ivec2 size);

// The effect's parameter of that name, or nullptr.
const EffectParameter* find_parameter(const EffectInfo& effect, std::string_view name);
// The values with every parameter the effect has, the defaults filled in; throws UsageError
// naming a value given for a parameter the effect does not have.
EffectValues resolve_effect(const EffectInfo& effect, const EffectValues& given);
// The shipped frame (rgba8 values k / 255) against the ground truth's picture (double, [0, 1]):
// max, RMS and PSNR over R, G and B in 8-bit steps of the rounded truth. The layer fields are left 0.
EffectFidelity picture_fidelity(const Image& output, const ReferenceImage& truth);
// The same over the pixels where `mask` (one byte a pixel, row-major) is not zero, into the region
// fields of `fidelity`, with the region's name.
void region_fidelity(const Image& output, const ReferenceImage& truth, const std::vector<uint8_t>& mask, std::string region,
                     EffectFidelity& fidelity);
// |layer - truth| relative to the truth (EffectFidelity's layer fields), over R, G and B.
void layer_fidelity(const ReferenceImage& layer, const ReferenceImage& truth, EffectFidelity& fidelity);

}  // namespace blurlab
