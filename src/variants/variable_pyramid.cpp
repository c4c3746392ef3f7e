// variable-pyramid: blur that varies across the image (blur/radius_map.h) from a mip pyramid, the
// way engines blur by a per-pixel amount cheaply (a mip chain sampled at a per-pixel level of
// detail, as textureLod with a computed LOD; e.g. Unity's and Unreal's "mip blur" of scene colour
// for rough refractions and UI backdrops): levels 1..K of 2x2 means, then each pixel blends the two
// levels whose blend has its kernel's variance, each read bilinearly. An approximation of both kernels: checked
// against its CPU model (below, the same passes in double, rounding where the GPU stores), and
// measured (fidelity) against the exact per-pixel kernel (reference_variable_blur). Its cost does
// not grow with r: the levels add up to a third of the image, and each pixel reads 8 texels.
#include <algorithm>
#include <cmath>

#include "blur/check.h"
#include "blur/model.h"

namespace blurlab {
namespace {

// Its binding unit beside the generic ones (gl/bindings.h): the pyramid's levels side by side
// (above the levels and their weights, which variable_common.glsl declares in every pass).
constexpr gl::NamedUnit kAtlas{"ATLAS", 4, gl::kImageUnit};
constexpr std::array kSlots{kAtlas};

glm::ivec2 level_size(glm::ivec2 size, int k) { return {(size.x + (1 << k) - 1) >> k, (size.y + (1 << k) - 1) >> k}; }
// The atlas of levels 1..K side by side (at least 1x1, for a binding when K = 0).
glm::ivec2 atlas_size(glm::ivec2 size, int levels) {
  glm::ivec2 atlas{0, 1};
  for (int k = 1; k <= levels; ++k) atlas = {atlas.x + level_size(size, k).x, std::max(atlas.y, level_size(size, k).y)};
  return {std::max(atlas.x, 1), atlas.y};
}
// Gauss: sigma per level (sigma_r = this r); box: 0 (the shader's u_pass.y).
double sigma_per_level(const BlurSettings& s) {
  return s.kernel.type == KernelType::Gauss && s.kernel.radius > 0 ? s.kernel.sigma / s.kernel.radius : 0.0;
}
// Level k read bilinearly at pixel centres blurs by a kernel of variance 4^(k-1) texels^2 (level 0,
// the source, by none): the mean of 2^k x 2^k texels adds (4^k - 1) / 12 along each axis, and the
// interpolation between level texels 2^k apart, over the 2^k phases of the pixels' centres,
// 4^k / 6 + 1/12 (the mean of t (1 - t) over t = (i + 1/2) / 2^k is 1/6 + 1 / (12 4^k)).
double level_variance(int k) { return k == 0 ? 0.0 : std::ldexp(1.0, 2 * (k - 1)); }

// The variance of the kernel of a pixel of level r, along each axis: the box's ((2r + 1)^2 - 1) / 12
// = r (r + 1) / 3, the Gaussian's sigma_r^2.
double kernel_variance(const BlurSettings& s, int r) {
  const double per_level = sigma_per_level(s);
  return per_level > 0.0 ? (per_level * r) * (per_level * r) : r * (r + 1.0) / 3.0;
}

// K: the levels the widest kernel (level R) needs, the first whose variance reaches its kernel's.
int level_count(const BlurSettings& s) {
  const double widest = kernel_variance(s, s.kernel.radius);
  int k = 0;
  while (level_variance(k) < widest) ++k;
  return k;
}

// The two levels a pixel blends, k and k + 1, and the weight t of k + 1: the blend whose variance,
// (1 - t) V(k) + t V(k + 1), is its kernel's (the two are centred alike), the widest level alone
// past it. Matching the width instead (lod = log2(2r + 1)) blurred by sqrt(3) too much: 25-31 dB.
struct LevelBlend {
  int k;
  double t;
};
LevelBlend level_blend(const BlurSettings& s, int r, int levels) {
  const double v = kernel_variance(s, r);
  int k = 0;
  while (k < levels && level_variance(k + 1) <= v) ++k;
  if (k == levels) return {k, 0.0};
  return {k, (v - level_variance(k)) / (level_variance(k + 1) - level_variance(k))};
}

class VariablePyramid final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const gl::Format f = setup.settings().input_format;
    down_ = &setup.compute("variable_pyramid.comp", f, f, {{"PASS", "0"}});
    blend_ = &setup.compute("variable_pyramid.comp", f, f, {{"PASS", "1"}});
  }
  void run(BlurPasses& passes) override {
    const BlurSettings& s = passes.settings();
    const glm::ivec2 size = passes.size();
    const int levels = level_count(s);
    const gl::Texture& atlas = passes.intermediate(0, gl::Format::rgba32f, atlas_size(size, levels));
    const Binding atlas_rw = Binding::read_write(atlas, kAtlas);
    for (int k = 1; k <= levels; ++k)
      passes.dispatch("down " + std::to_string(k), *down_, {Binding::read(passes.source()), atlas_rw},
                      groups_covering(level_size(size, k), {8, 8}, k), glm::vec4(static_cast<float>(k), 0.0f, 0.0f, 0.0f));
    passes.dispatch("blend", *blend_,
                    {Binding::read(passes.source()), Binding::read(atlas, kAtlas), Binding::read(passes.radius_levels(), gl::Unit::Levels),
                     Binding::write(passes.destination())},
                    groups_covering(size, s.workgroup()),
                    glm::vec4(static_cast<float>(s.kernel.radius), static_cast<float>(sigma_per_level(s)), static_cast<float>(levels), 0.0f));
  }

 private:
  const gl::Program* down_ = nullptr;
  const gl::Program* blend_ = nullptr;
};

ApproxChoice choose(const BlurSettings& s) {
  // The kernel it stands in for varies per pixel: its largest, and the pyramid's depth.
  return {s.kernel.type == KernelType::Gauss ? s.kernel.sigma : 0.0, std::to_string(level_count(s)) + " levels, blended by variance"};
}

// The model: the same levels (2x2 means with each level's border rule, stored in fp32) and the
// same blend, in double.
ReferenceImage model_blur(const Image& input, const BlurSettings& s) {
  const glm::ivec2 size{input.width, input.height};
  const int levels = level_count(s);
  std::vector<ReferenceImage> level{model::from_image(input)};
  for (int k = 1; k <= levels; ++k) {
    const glm::ivec2 n = level_size(size, k);
    ReferenceImage next = model::blank(n.x, n.y);
    const ReferenceImage& prev = level.back();
    for (int y = 0; y < n.y; ++y)
      for (int x = 0; x < n.x; ++x)
        for (int c = 0; c < 4; ++c) {
          double sum = 0.0;
          for (int j = 0; j < 2; ++j)
            for (int i = 0; i < 2; ++i) sum += model::texel(prev, 2 * x + i, 2 * y + j, c, s.border);
          next.texels[(static_cast<size_t>(y) * n.x + x) * 4 + c] = model::stored(sum * 0.25, gl::Format::rgba32f);
        }
    level.push_back(std::move(next));
  }
  const std::vector<uint8_t> levels_of = radius_levels(s.radius_map.get(), size, s.kernel.radius);
  ReferenceImage out = model::blank(size.x, size.y);
  model::parallel_rows(size.y, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y)
      for (int x = 0; x < size.x; ++x) {
        const auto [k, t] = level_blend(s, levels_of[static_cast<size_t>(y) * size.x + x], levels);
        for (int c = 0; c < 4; ++c) {
          const auto sample = [&](int at) {
            const double scale = std::ldexp(1.0, -at);
            return model::bilinear(level[static_cast<size_t>(at)], (x + 0.5) * scale, (y + 0.5) * scale, c, s.border);
          };
          double v = sample(k);
          if (k < levels && t > 0.0) v = (1.0 - t) * v + t * sample(k + 1);
          out.texels[(static_cast<size_t>(y) * size.x + x) * 4 + c] = v;
        }
      }
  });
  return out;
}

Tolerance tolerance(const BlurSettings& s, glm::ivec2 /*size*/, double input_peak) {
  ModelErrorBound bound(s.input_format, input_peak);
  // Each level: 3 adds and a scaling of values up to the peak in fp32, stored in rgba32f; the errors
  // of a level pass on averaged (gain 1).
  for (int k = 1; k <= level_count(s); ++k) {
    bound.fp32(4.0);
    bound.store(gl::Format::rgba32f);
  }
  // The blend: two bilinear reads (3 lerps of 3 roundings each, the fractions exact), the blend's
  // lerp, and its weight from the fp32 variance (a few roundings of the weight, times the two
  // levels' difference, at most twice the peak: counted, generously, as 64 roundings).
  bound.fp32(2.0 * 9.0 + 3.0 + 64.0);
  return bound.tolerance("pyramid of 2x2 means in fp32, two levels blended per pixel");
}

// The levels (each read once, written once in rgba32f, a third of the image in all), then the
// blend: the source and the level per pixel, every level once, the output written.
WorkBound own_bound(const BlurSettings& s, glm::ivec2 size) {
  const double in = gl::info(s.input_format).bytes_per_texel, pixels = static_cast<double>(size.x) * size.y;
  WorkBound b;
  glm::ivec2 prev = size;
  double level_texels = 0.0;
  for (int k = 1; k <= level_count(s); ++k) {
    const glm::ivec2 n = level_size(size, k);
    b.bytes += pass_bytes(prev, k == 1 ? s.input_format : gl::Format::rgba32f, n, gl::Format::rgba32f);
    b.fmas += 4.0 * 4.0 * n.x * n.y;
    level_texels += static_cast<double>(n.x) * n.y;
    prev = n;
  }
  // The blend's 8 fetches per pixel land on levels a quarter the size or smaller: at least, every
  // level is read once (about a third of the image in rgba32f).
  b.bytes += pixels * (in + 4.0 + in) + level_texels * 16.0;
  b.fmas += 4.0 * 7.0 * pixels;  // two bilinear reads (3 lerps each) and the blend
  return b;
}

}  // namespace

namespace variant {
extern const VariantInfo variable_pyramid{
    .name = "variable-pyramid",
    .stage = Stage::Compute,
    .family = Family::VariableRadius,
    .summary = "approximate per-pixel radius (--radius-map): a mip pyramid of 2x2 means, two levels blended by each pixel's kernel width",
    .role = Role::Approximation,
    .knobs = {knobs::workgroup({{16, 16}, {8, 8}})},
    .create = [] { return std::unique_ptr<Blur>(new VariablePyramid); },
    .variable_radius = true,
    .approximation = {.choose = choose, .model = model_blur, .tolerance = tolerance},
    .own_bound = own_bound,
    .slots = kSlots,
};
}  // namespace variant
}  // namespace blurlab
