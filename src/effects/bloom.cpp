// bloom: the HDR frame's light spread by a point-spread function, composited and tonemapped
// (effects/bloom.h has the formulas). Its blur stage is served by any variant that blurs a
// Gaussian in rgba16f (exact ones, the FFT among them, and approximations), one blur per PSF term;
// or by the engines' mip chain (bloom_mip_chain.cpp), which serves a Gaussian or a sum of them
// approximately by sharing its levels. Its own passes are glsl/effects/bloom.comp.
#include "effects/bloom.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>

#include "blur/registry.h"
#include "effects/tonemap.h"
#include "blur/model.h"
#include "util/error.h"
#include "util/strings.h"

namespace blurlab::bloom {

namespace {

const EffectParameter kPsf{
    "psf",
    "bloom: the point-spread function, gauss:SIGMA or sum:W@SIGMA,W@SIGMA,... (up to 6 Gaussians, weights normalised), "
    "each SIGMA in pixels or in percent of the frame's height (gauss:2%)",
    "gauss:2%"};
const EffectParameter kIntensity{"intensity", "bloom: the fraction of the light that blooms, 0..1 (energy-conserving)", "0.05"};
const EffectParameter kThreshold{"threshold", "bloom: only radiance above this blooms (soft knee; 0: all of it)", "0"};
const EffectParameter kKnee{"knee", "bloom: the soft knee's half width around the threshold, 0..threshold", "0"};

// The largest value an rgba16f texel holds: a threshold above it would keep nothing.
constexpr double kHalfMax = 65504.0;

double number(const EffectValues& values, const EffectParameter& p, double low, double high) {
  const std::string& text = values.at(std::string(p.name));
  const auto v = parse_double(trim(text));
  if (!v || !std::isfinite(*v))
    throw UsageError("--" + std::string(p.name) + " '" + shortened(text, 40) + "' is not a number");
  if (*v < low || *v > high)
    throw UsageError("--" + std::string(p.name) + " " + format_double(*v) + " is out of range " + format_double(low) + ".." +
                     format_double(high));
  return *v;
}

// A PSF's terms as given: sigmas in pixels or in percent of the frame's height.
struct GivenTerm {
  double weight;
  double sigma;
  bool percent;
};

double psf_number(std::string_view text, std::string_view what, const std::string& psf) {
  const auto v = parse_double(trim(text));
  if (!v || !std::isfinite(*v))
    throw UsageError("--psf '" + shortened(psf, 60) + "': " + std::string(what) + " '" + shortened(std::string(text), 20) +
                     "' is not a number");
  return *v;
}

std::vector<GivenTerm> parse_psf(const std::string& psf) {
  const auto sigma = [&](std::string_view text) {
    text = trim(text);
    const bool percent = !text.empty() && text.back() == '%';
    if (percent) text.remove_suffix(1);
    const double s = psf_number(text, "sigma", psf);
    if (!(s > 0.0)) throw UsageError("--psf '" + shortened(psf, 60) + "': sigma " + format_double(s) + " must be above 0");
    return std::pair{s, percent};
  };
  std::vector<GivenTerm> terms;
  if (psf.rfind("gauss:", 0) == 0) {
    const auto [s, percent] = sigma(std::string_view(psf).substr(6));
    terms.push_back({1.0, s, percent});
  } else if (psf.rfind("sum:", 0) == 0) {
    if (trim(std::string_view(psf).substr(4)).empty()) throw UsageError("--psf '" + shortened(psf, 60) + "': a sum needs at least one term");
    for (const std::string& part : split(std::string_view(psf).substr(4), ',')) {
      const size_t at = part.find('@');
      if (at == std::string::npos)
        throw UsageError("--psf '" + shortened(psf, 60) + "': a term is WEIGHT@SIGMA, not '" + shortened(part, 20) + "'");
      const double w = psf_number(std::string_view(part).substr(0, at), "weight", psf);
      if (w < 0.0) throw UsageError("--psf '" + shortened(psf, 60) + "': weight " + format_double(w) + " is negative (a PSF spreads light, it takes none)");
      const auto [s, percent] = sigma(std::string_view(part).substr(at + 1));
      terms.push_back({w, s, percent});
    }
    if (terms.size() > static_cast<size_t>(kMaxTerms))
      throw UsageError("--psf: " + std::to_string(terms.size()) + " terms, at most " + std::to_string(kMaxTerms));
    double total = 0.0;
    for (const GivenTerm& t : terms) total += t.weight;
    if (!(total > 0.0)) throw UsageError("--psf '" + shortened(psf, 60) + "': the weights sum to 0 (no light to spread)");
  } else {
    throw UsageError("--psf '" + shortened(psf, 60) + "' is neither gauss:SIGMA nor sum:W@SIGMA,...");
  }
  return terms;
}

std::vector<PsfTerm> psf_terms(const std::vector<GivenTerm>& given, glm::ivec2 size) {
  double total = 0.0;
  for (const GivenTerm& t : given) total += t.weight;
  std::vector<PsfTerm> terms;
  for (const GivenTerm& t : given) {
    const double sigma = t.percent ? t.sigma / 100.0 * size.y : t.sigma;
    if (radius_for_sigma(sigma) > kMaxRadius)
      throw UsageError("--psf: sigma " + format_double(sigma) + " px (" + (t.percent ? format_double(t.sigma) + "% of " + std::to_string(size.y) + " rows" : "given") +
                       ") needs radius " + std::to_string(radius_for_sigma(sigma)) + " (3 sigma), above " + std::to_string(kMaxRadius));
    terms.push_back({t.weight / total, sigma});
  }
  return terms;
}

void validate(const EffectValues& values, const std::vector<glm::ivec2>& sizes) {
  for (glm::ivec2 size : sizes) config(values, size);
}

// The blur stage of term `term` for a variant: the exact variants' kernel of its sigma
// (fidelity_kernel: r = ceil(3 sigma)); approximations answer the sigma.
BlurSettings term_settings(const EffectSettings& s, const PsfTerm& term) {
  BlurSettings b;
  b.kernel = fidelity_kernel(term.sigma);
  b.border = s.border;
  b.input_format = gl::Format::rgba16f;
  b.knobs = s.knobs;
  return b;
}

std::string literal(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", v);
  std::string text = buffer;
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

glm::vec4 pass_values(const Config& c) {
  return {static_cast<float>(c.intensity), static_cast<float>(c.threshold), static_cast<float>(c.knee), 0.0f};
}

// Bloom whose blur stage is a variant: one blur per PSF term, then the composite.
class VariantBloom final : public Effect {
 public:
  explicit VariantBloom(const VariantInfo& variant) : variant_(variant) {}

  std::optional<Refusal> prepare(EffectSetup& setup) override {
    config_ = config(setup.settings().values, setup.size());
    for (size_t i = 0; i < config_.psf.size(); ++i)
      if (auto refusal = setup.blur_stage(static_cast<int>(i), variant_, term_settings(setup.settings(), config_.psf[i]))) return refusal;
    prefilter_ = config_.prefiltered() ? &setup.compute("effects/bloom.comp", {{"BLOOM_PASS", "0"}, {"PREFILTER", "1"}}) : nullptr;
    gl::Defines composite = {{"BLOOM_PASS", "1"}, {"PREFILTER", config_.prefiltered() ? "1" : "0"},
                             {"TERMS", std::to_string(config_.psf.size())}};
    for (size_t i = 0; i < config_.psf.size(); ++i) composite.push_back({"WEIGHT" + std::to_string(i + 1), literal(config_.psf[i].weight)});
    composite_ = &setup.compute("effects/bloom.comp", composite);
    return std::nullopt;
  }

  void run(EffectPasses& p) override {
    const glm::ivec2 size = p.size();
    const DispatchGrid grid = groups_covering(size, {16, 16});
    const gl::Texture* blooming = &p.color();
    if (prefilter_) {
      const gl::Texture& prefiltered = p.texture(kPrefilteredSlot, gl::Format::rgba16f, size, "bloom prefiltered");
      p.dispatch("prefilter", *prefilter_, {Binding::read(p.color()), Binding::write(prefiltered)}, grid, pass_values(config_));
      blooming = &prefiltered;
    }
    std::vector<Binding> composite = {Binding::read(p.color()), Binding::write(p.output())};
    const size_t n = config_.psf.size();
    for (size_t i = 0; i < n; ++i) {
      const gl::Texture& term = p.texture(kTermSlot + static_cast<int>(i), gl::Format::rgba16f, size, "bloom term " + std::to_string(i + 1));
      p.blur(static_cast<int>(i), *blooming, term, n == 1 ? "blur" : "blur " + std::to_string(i + 1));
      composite.push_back(Binding::sampled(term, static_cast<gl::Unit>(static_cast<int>(gl::Unit::Stage1) + static_cast<int>(i))));
    }
    p.dispatch("composite", *composite_, composite, grid, pass_values(config_));
  }

 private:
  const VariantInfo& variant_;
  Config config_;
  const gl::Program* prefilter_ = nullptr;
  const gl::Program* composite_ = nullptr;
};

// Whether a variant may serve the blur stage: it blurs a Gaussian (exactly or approximately) at
// one radius for the whole frame. Whether it runs rgba16f is its own refusal's to say.
bool serves_bloom(const VariantInfo& v) {
  return is_blur(v) && v.kernels != KernelSupport::BoxOnly && !v.variable_radius;
}

std::vector<std::string> implementations() {
  std::vector<std::string> names;
  for (const VariantInfo* v : variants())
    if (serves_bloom(*v)) names.emplace_back(v->name);
  names.emplace_back(kMipChain);
  return names;
}

std::unique_ptr<Effect> create(std::string_view implementation) {
  if (implementation == kMipChain) return create_mip_chain();
  const VariantInfo* v = find_variant(implementation);
  if (!v || !serves_bloom(*v)) throw UsageError("bloom: '" + std::string(implementation) + "' does not serve a Gaussian PSF");
  return std::make_unique<VariantBloom>(*v);
}

// A key of what a ground truth depends on: the values and the border (the frame is the truths' own).
std::string truth_key(const EffectSettings& s) {
  std::string key = "bloom";
  for (const auto& [name, value] : s.values) key += " " + name + "=" + value;
  key += " border=" + std::string(name(s.border.mode));
  for (float v : s.border.value) key += " " + format_double(v, 9);
  return key;
}

// The prefilter's output in rgba16f against the double formula: fp32 arithmetic, then GL's
// float-to-half conversion (which may truncate: a whole unit in the last place, 2^-10 relative).
Tolerance prefilter_tolerance() {
  return {.lsb = false, .relative = std::ldexp(1.0, -10) + 1e-6, .absolute = 1e-7,
          .reason = "fp32 prefilter stored in rgba16f: GL's float-to-half conversion may truncate (2^-10 relative)"};
}

// The composite against the double composite of the GPU's own layer: fp32 arithmetic and the
// tonemap's fp32 curve differ from double by far less than a step, but a value next to a rounding
// boundary of the 8-bit picture may land on either side.
Tolerance composite_tolerance() {
  return {.lsb = true, .lsb_limit = 1,
          .reason = "the composite and tonemap in fp32 against double, of the GPU's own layer: one rounding to 8 bits, 1 LSB"};
}

ReferenceImage weighted_sum(const std::vector<Image>& terms, const Config& c) {
  ReferenceImage sum = model::blank(terms.front().width, terms.front().height);
  for (size_t i = 0; i < terms.size(); ++i)
    for (size_t t = 0; t < sum.texels.size(); ++t) sum.texels[t] += c.psf[i].weight * static_cast<double>(terms[i].texels[t]);
  return sum;
}

// What a blur stage must match, given the image it blurred (blur/check.h expected_output): the
// reference for an exact variant (the same for every exact one), an approximation's model of its
// own; computed once per frame and kept with the ground truths, so a sweep of every implementation
// pays for each once. `input_key` names the input (the frame, or a hash of the prefilter's output).
GroundTruths::Truth stage_expectation(GroundTruths& truths, const VariantInfo& v, const BlurSettings& resolved, const Image& input,
                                      const std::string& input_key) {
  std::string key = "bloom stage " + input_key + " border=" + std::string(name(resolved.border.mode)) + " " + value_text(resolved.border.value) +
                    " " + std::string(name(resolved.kernel.type)) +
                    " r=" + std::to_string(resolved.kernel.radius) + " sigma=" + format_double(resolved.kernel.sigma, 17);
  if (is_approximation(v)) {
    key += " model of " + std::string(v.name) + " int=" + std::string(gl::name(resolved.intermediate_format()));
    for (const auto& [knob, value] : resolved.knobs) key += " " + knob + "=" + std::to_string(value.x) + "x" + std::to_string(value.y);
  }
  return truths.get(key, [&] { return std::vector<ReferenceImage>{expected_output(v, resolved, input)}; });
}

// A name of an image's contents (FNV-1a of its bits), for keys of what is computed from it.
std::string contents_key(const Image& image) {
  uint64_t h = 1469598103934665603ull;
  for (float v : image.texels) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    for (int b = 0; b < 4; ++b) h = (h ^ ((bits >> (8 * b)) & 0xffu)) * 1099511628211ull;
  }
  return std::to_string(h);
}

Image to_image(const ReferenceImage& r) {
  Image image(r.width, r.height);
  for (size_t i = 0; i < r.texels.size(); ++i) image.texels[i] = static_cast<float>(r.texels[i]);
  return image;
}

EffectCheck check(const EffectReadback& run, GroundTruths& truths) {
  const EffectSettings& s = *run.settings;
  const Config c = config(s.values, run.size);
  const Image& frame = *run.color;
  const GroundTruths::Truth truths_of_frame = truths.get(truth_key(s), [&] {
    ReferenceImage prefiltered = prefilter(frame, c);
    ReferenceImage layer = exact_layer(prefiltered, c, s.border);
    ReferenceImage picture = composite(frame, prefiltered, layer, c);
    return std::vector<ReferenceImage>{std::move(prefiltered), std::move(layer), std::move(picture)};
  });
  const std::vector<ReferenceImage>& truth = *truths_of_frame;
  const ReferenceImage& exact_prefiltered = truth[0];
  EffectCheck result;
  // What the blur stage read: the prefilter's output as the GPU stored it, or the frame itself.
  Image blooming = frame;
  if (c.prefiltered()) {
    blooming = run.stage_texture(kPrefilteredSlot);
    const Tolerance t = prefilter_tolerance();
    result.stages.push_back({"prefilter", compare_to_reference(blooming, exact_prefiltered, t), t});
  }
  ReferenceImage layer;
  if (s.implementation == kMipChain) {
    ChainCheck chain = check_mip_chain(run, c, blooming, exact_prefiltered);
    for (StageCheck& stage : chain.stages) result.stages.push_back(std::move(stage));
    layer = std::move(chain.layer);
  } else {
    const VariantInfo& variant = *find_variant(s.implementation);
    const double peak = peak_magnitude(blooming);
    const std::string blooming_key = c.prefiltered() ? "prefiltered " + contents_key(blooming) : "frame";
    std::vector<Image> terms;
    for (size_t i = 0; i < c.psf.size(); ++i) {
      const BlurSettings resolved = resolve(variant, term_settings(s, c.psf[i]));
      terms.push_back(run.stage_texture(kTermSlot + static_cast<int>(i)));
      const Tolerance t = tolerance_for(variant, resolved, run.size, peak);
      const GroundTruths::Truth expected = stage_expectation(truths, variant, resolved, blooming, blooming_key);
      result.stages.push_back({c.psf.size() == 1 ? "blur" : "blur " + std::to_string(i + 1), compare_to_reference(terms.back(), expected->front(), t), t});
    }
    layer = weighted_sum(terms, c);
  }
  const Tolerance t = composite_tolerance();
  result.stages.push_back({"composite", compare_to_reference(*run.output, composite(frame, exact_prefiltered, layer, c), t), t});
  result.fidelity = picture_fidelity(*run.output, truth[2]);
  result.truth_picture = std::shared_ptr<const ReferenceImage>(truths_of_frame, &truth[2]);
  result.fidelity.layer = "bloom layer";
  layer_fidelity(layer, truth[1], result.fidelity);
  return result;
}

// The parameters as numbers (an export's recipe): what config() makes of them for this frame.
nlohmann::json recipe_values(const EffectValues& values, glm::ivec2 size) {
  const Config c = config(values, size);
  nlohmann::json psf = nlohmann::json::array();
  for (const PsfTerm& t : c.psf)
    psf.push_back({{"weight", t.weight}, {"sigma_px", t.sigma}, {"radius", fidelity_kernel(t.sigma).radius}});
  return {{"intensity", c.intensity}, {"threshold", c.threshold}, {"knee", c.knee}, {"psf", psf},
          {"psf_note", "a sum of Gaussians: each term's weight (the weights sum to 1) and sigma in pixels of this frame, blurred "
                       "with radius ceil(3 sigma)"}};
}

std::string describe(const EffectSettings& s, glm::ivec2 size) {
  if (s.implementation == kMipChain) return describe_mip_chain(s, size) + ", then the composite";
  const VariantInfo* v = find_variant(s.implementation);
  return "one blur per PSF term by " + s.implementation + (v && is_approximation(*v) ? " (approximate)" : " (exact)") +
         ", then the composite";
}

}  // namespace

Config config(const EffectValues& values, glm::ivec2 size) {
  Config c;
  c.intensity = number(values, kIntensity, 0.0, 1.0);
  c.threshold = number(values, kThreshold, 0.0, kHalfMax);
  c.knee = number(values, kKnee, 0.0, kHalfMax);
  if (c.knee > c.threshold)
    throw UsageError("--knee " + format_double(c.knee) + " is above --threshold " + format_double(c.threshold) +
                     " (the knee is a half width around the threshold)");
  c.psf = psf_terms(parse_psf(values.at(std::string(kPsf.name))), size);
  return c;
}

double prefilter_fraction(double r, double g, double b, const Config& c) {
  const double brightest = std::max({r, g, b});
  if (brightest <= 0.0) return 0.0;
  double q = 0.0;
  if (c.knee > 0.0) {
    q = std::clamp(brightest - c.threshold + c.knee, 0.0, 2.0 * c.knee);
    q = q * q / (4.0 * c.knee);
  }
  return std::max(q, brightest - c.threshold) / brightest;
}

ReferenceImage prefilter(const Image& frame, const Config& c) {
  ReferenceImage out = model::from_image(frame);
  if (!c.prefiltered()) return out;
  for (size_t i = 0; i < out.texels.size(); i += 4) {
    const double f = prefilter_fraction(out.texels[i], out.texels[i + 1], out.texels[i + 2], c);
    for (size_t k = 0; k < 3; ++k) out.texels[i + k] *= f;
    out.texels[i + 3] = 1.0;
  }
  return out;
}

ReferenceImage composite(const Image& frame, const ReferenceImage& prefiltered, const ReferenceImage& layer, const Config& c) {
  ReferenceImage out = model::blank(frame.width, frame.height);
  for (size_t i = 0; i < out.texels.size(); i += 4) {
    for (size_t k = 0; k < 3; ++k)
      out.texels[i + k] = display_value(static_cast<double>(frame.texels[i + k]) + c.intensity * (layer.texels[i + k] - prefiltered.texels[i + k]));
    out.texels[i + 3] = 1.0;
  }
  return out;
}

ReferenceImage exact_layer(const ReferenceImage& prefiltered, const Config& c, const Border& border) {
  const Image input = to_image(prefiltered);  // fp32: the prefilter's exact values round once here, far below fp16's
  ReferenceImage layer = model::blank(prefiltered.width, prefiltered.height);
  for (const PsfTerm& term : c.psf) {
    const ReferenceImage blurred = reference_blur(input, kernel_weights(fidelity_kernel(term.sigma)), border);
    for (size_t i = 0; i < layer.texels.size(); ++i) layer.texels[i] += term.weight * blurred.texels[i];
  }
  return layer;
}

}  // namespace blurlab::bloom

namespace blurlab::effect {
extern const EffectInfo bloom{
    .name = "bloom",
    .summary = "the HDR frame's light spread by a PSF (a Gaussian or a sum of them), composited energy-conserving and tonemapped",
    .parameters = {bloom::kPsf, bloom::kIntensity, bloom::kThreshold, bloom::kKnee},
    .validate = bloom::validate,
    .implementations = bloom::implementations,
    .create = bloom::create,
    .check = bloom::check,
    .describe = bloom::describe,
    .recipe_values = bloom::recipe_values,
};
}  // namespace blurlab::effect
