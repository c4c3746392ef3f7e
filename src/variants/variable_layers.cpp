// variable-layers: blur that varies across the image (blur/radius_map.h) the way shipped depth of
// field has long done it: blur the whole image uniformly at a few radii, then give each pixel a
// blend of the two blurs around its own radius. Hammon, "Practical Post-Process Depth of Field"
// (GPU Gems 3, ch. 28, 2007: Call of Duty 4 blends the sharp image, a small and a large blur by
// each pixel's circle of confusion); Demers, "Depth of Field: A Survey of Techniques" (GPU Gems,
// ch. 23, 2004: the layered methods). Here: 4 layers of the exact kernel at radii round(j R / 4)
// (j = 1..4; layer 0 is the image itself), each an exact separable blur (rows, then columns, with
// that level's weights), blended linearly in r. Exact wherever a pixel's level is a layer's radius;
// elsewhere a mix of two kernels, not the kernel between them: an approximation, checked against
// its CPU model (the layers as the reference blurs them, the same blend) and measured against the
// exact per-pixel kernel. Its cost: 4 uniform blurs, whatever the map.
#include <algorithm>
#include <cmath>

#include "blur/check.h"
#include "blur/model.h"

namespace blurlab {
namespace {

// Its binding units beside the generic ones (gl/bindings.h), above the source, the target, the
// levels and their weights (variable_common.glsl declares them in every pass): the row pass's
// output and the layer a column pass writes; the blend pass fetches the four layers from texture
// units (one owner's slots differ, and six images beside the four generic ones would need 10
// image units; GL guarantees 8).
constexpr gl::NamedUnit kScratch{"SCRATCH", 4, gl::kImageUnit};
constexpr gl::NamedUnit kLayer{"LAYER", 5, gl::kImageUnit};
constexpr std::array<gl::NamedUnit, 4> kLayerUnits{{{"LAYER1", 1, gl::kTextureUnit},
                                                   {"LAYER2", 2, gl::kTextureUnit},
                                                   {"LAYER3", 3, gl::kTextureUnit},
                                                   {"LAYER4", 4, gl::kTextureUnit}}};
constexpr std::array kSlots{kScratch, kLayer, kLayerUnits[0], kLayerUnits[1], kLayerUnits[2], kLayerUnits[3]};

constexpr int kLayers = 4;
int layer_radius(int j, int max_radius) { return (2 * j * max_radius + kLayers) / (2 * kLayers); }

class VariableLayers final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const gl::Format f = setup.settings().input_format;
    for (int pass = 0; pass < 3; ++pass) programs_[static_cast<size_t>(pass)] = &setup.compute("variable_layers.comp", f, f, {{"PASS", std::to_string(pass)}});
  }
  void run(BlurPasses& passes) override {
    const BlurSettings& s = passes.settings();
    const int max_radius = s.kernel.radius;
    const DispatchGrid grid = groups_covering(passes.size(), s.workgroup());
    const gl::Texture& scratch = passes.intermediate(0, gl::Format::rgba32f);
    std::array<const gl::Texture*, kLayers> layers{};
    for (int j = 1; j <= kLayers; ++j) {
      layers[static_cast<size_t>(j - 1)] = &passes.intermediate(j, gl::Format::rgba32f);
      const glm::vec4 radius{static_cast<float>(layer_radius(j, max_radius)), 0.0f, 0.0f, 0.0f};
      passes.dispatch("rows " + std::to_string(j), *programs_[0],
                      {Binding::read(passes.source()), Binding::read(passes.level_weights(), gl::Unit::LevelWeights), Binding::write(scratch, kScratch)}, grid, radius);
      passes.dispatch("columns " + std::to_string(j), *programs_[1],
                      {Binding::read(passes.source()), Binding::read(passes.level_weights(), gl::Unit::LevelWeights), Binding::read(scratch, kScratch),
                       Binding::write(*layers[static_cast<size_t>(j - 1)], kLayer)},
                      grid, radius);
    }
    passes.dispatch("blend", *programs_[2],
                    {Binding::read(passes.source()), Binding::read(passes.radius_levels(), gl::Unit::Levels), Binding::sampled(*layers[0], kLayerUnits[0]),
                     Binding::sampled(*layers[1], kLayerUnits[1]), Binding::sampled(*layers[2], kLayerUnits[2]), Binding::sampled(*layers[3], kLayerUnits[3]),
                     Binding::write(passes.destination())},
                    grid, glm::vec4(static_cast<float>(max_radius), 0.0f, 0.0f, 0.0f));
  }

 private:
  std::array<const gl::Program*, 3> programs_{};
};

ApproxChoice choose(const BlurSettings& s) {
  std::string radii;
  for (int j = 0; j <= kLayers; ++j) radii += (j ? "," : "") + std::to_string(layer_radius(j, s.kernel.radius));
  return {s.kernel.type == KernelType::Gauss ? s.kernel.sigma : 0.0, "layers r=" + radii};
}

ReferenceImage model_blur(const Image& input, const BlurSettings& s) {
  const glm::ivec2 size{input.width, input.height};
  std::vector<ReferenceImage> layers{model::from_image(input)};
  for (int j = 1; j <= kLayers; ++j)
    layers.push_back(reference_blur(input, kernel_weights(level_kernel(s.kernel, layer_radius(j, s.kernel.radius))), s.border));
  const std::vector<uint8_t> levels = radius_levels(s.radius_map.get(), size, s.kernel.radius);
  ReferenceImage out = model::blank(size.x, size.y);
  for (size_t i = 0; i < levels.size(); ++i) {
    const int r = levels[i];
    int j = kLayers;
    while (j > 0 && layer_radius(j, s.kernel.radius) > r) --j;
    for (int c = 0; c < 4; ++c) {
      double v = layers[static_cast<size_t>(j)].texels[i * 4 + static_cast<size_t>(c)];
      if (j < kLayers) {
        const int lo = layer_radius(j, s.kernel.radius), hi = layer_radius(j + 1, s.kernel.radius);
        const double t = static_cast<double>(r - lo) / (hi - lo);
        v = (1.0 - t) * v + t * layers[static_cast<size_t>(j + 1)].texels[i * 4 + static_cast<size_t>(c)];
      }
      out.texels[i * 4 + static_cast<size_t>(c)] = v;
    }
  }
  return out;
}

Tolerance tolerance(const BlurSettings& s, glm::ivec2 /*size*/, double input_peak) {
  // Each layer: 2r+1 fp32 terms along the rows, stored in rgba32f, 2r+1 along the columns, stored
  // in rgba32f (weights rounded to float: one rounding each, counted with the terms); then the
  // blend: 3 roundings. The model's layers are the reference's (double, unrounded).
  const double taps = 2.0 * s.kernel.radius + 1.0;
  ModelErrorBound bound(s.input_format, input_peak);
  bound.fp32(2.0 * taps);
  bound.store(gl::Format::rgba32f);
  bound.fp32(2.0 * taps);
  bound.store(gl::Format::rgba32f);
  bound.fp32(3.0);
  return bound.tolerance("4 exact separable layers in fp32, two blended per pixel");
}

// Four separable blurs through an rgba32f scratch into rgba32f layers (2(2 rho_j + 1) taps a
// channel each), then the blend: the source, two layers and the level per pixel, the output.
WorkBound own_bound(const BlurSettings& s, glm::ivec2 size) {
  const double pixels = static_cast<double>(size.x) * size.y, in = gl::info(s.input_format).bytes_per_texel;
  WorkBound b;
  for (int j = 1; j <= kLayers; ++j) {
    b.bytes += pass_bytes(size, s.input_format, size, gl::Format::rgba32f) + pass_bytes(size, gl::Format::rgba32f, size, gl::Format::rgba32f);
    b.fmas += 4.0 * 2.0 * (2.0 * layer_radius(j, s.kernel.radius) + 1.0) * pixels;
  }
  b.bytes += pixels * (in + 2.0 * 16.0 + 4.0 + in);
  b.fmas += 4.0 * pixels;
  return b;
}

double loop_iterations(const BlurSettings& s, glm::ivec2 /*size*/) { return 2.0 * s.kernel.radius + 1.0; }

// What a run of it keeps beyond what every run does, per texel: on the GPU the rgba32f scratch and
// four rgba32f layers (80 bytes), for its check the CPU model's source and four layers as double
// RGBA (160). Counted as one intermediate of 16 it was a third of what it took: 340 bytes per
// texel measured on llvmpipe (1024x1024 less 256x256), 120 estimated; 344 now.
double intermediate_bytes(const BlurSettings& /*s*/, glm::ivec2 size) {
  return (5.0 * 16.0 + 5.0 * 32.0) * static_cast<double>(size.x) * size.y;
}

}  // namespace

namespace variant {
extern const VariantInfo variable_layers{
    .name = "variable-layers",
    .stage = Stage::Compute,
    .family = Family::VariableRadius,
    .summary = "approximate per-pixel radius (--radius-map): 4 uniform blurs at radii jR/4, two blended per pixel (GPU Gems 3 ch. 28)",
    .role = Role::Approximation,
    .knobs = {knobs::workgroup({{16, 16}, {8, 8}})},
    .loop_iterations = loop_iterations,
    .create = [] { return std::unique_ptr<Blur>(new VariableLayers); },
    .variable_radius = true,
    .approximation = {.choose = choose, .model = model_blur, .tolerance = tolerance},
    .own_bound = own_bound,
    .intermediate_bytes = intermediate_bytes,
    .slots = kSlots,
};
}  // namespace variant
}  // namespace blurlab
