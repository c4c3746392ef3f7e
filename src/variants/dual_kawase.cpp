// dual-kawase: the dual filter of Marius Bjorge, "Bandwidth-efficient rendering" (SIGGRAPH 2015),
// as Android's compositor and KDE's KWin blur wide regions: N downsampling passes, each writing a
// level of half the size, then N upsampling passes back to full size. Most passes run at a
// fraction of the resolution, so a wide blur costs little more than a narrow one.
//
// The passes, as KWin writes them, with h half a texel of the pass's target times the offset o:
//   down: 4 x the fetch at the target texel's centre + the four at (+-h, +-h), / 8;
//   up:   the four fetches at (+-2h, 0), (0, +-2h) + 2 x the four at (+-h, +-h), / 12.
// In texel units of the level read: down, the target texel i sits on the corner 2i + 1 between two
// source texels and h = o; up, target texel i sits at (i + 1/2) / 2 and h = o / 4. Levels are
// ceil(size / 2), with exactly that 2:1 mapping: at an odd size the last texel of a level reads
// past the edge (clamped) rather than the mapping stretching by size / ceil(size / 2), which would
// make the bilinear weights fractions the texture units' 8-bit weights round. With offsets in steps
// of 1/2 every fetch blends at fractions that are multiples of 1/8: exact in 8-bit weights.
//
// The sigma it stands in for, from the kernel's variance. The weights of one output over the input
// are those of a random walk from the output down the passes: at each pass it moves to a fetch
// position with probability the fetch's weight, then to one of the two texels of each axis a
// bilinear fetch blends (probability its weight). Every pass is centred (the taps are symmetric
// about the target texel's centre, and a bilinear fetch's mean is its position), so the position
// is a martingale and the variance of the walk's end, the kernel's variance, is the sum of the
// passes' variances: sum over the taps of weight x (offset^2 + t (1 - t)), t the fetch's fraction,
// per axis, in units of the level's texels; a pass reading level l counts 4^l times that in texels
// of the image. Down passes read level l = 0..N-1, up passes level l + 1, so
//   sigma^2 = sum_{l=0..N-1} 4^l (var_down + 4 var_up).
// (Up passes have two phases, even and odd target texels; they are mirror images, of one variance.)
// For a requested sigma the variant picks the levels N and the offset o (1 to 3, in steps of 1/2)
// whose sigma is closest; at the image's borders the clamp makes the kernel narrower.
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "blur/check.h"
#include "blur/model.h"
#include "util/strings.h"

namespace blurlab {
namespace {

constexpr int kMaxLevels = 12;  // sigma ~ 2900 at offset 1: beyond any request (levels of 1x1 repeat)
constexpr std::array<double, 5> kOffsets = {1.0, 1.5, 2.0, 2.5, 3.0};

struct Tap {
  double x, y, weight;
};

// The taps of a pass about the target texel's centre, in texel units of the level read.
std::vector<Tap> down_taps(double offset) {
  const double h = offset;
  return {{0, 0, 4.0 / 8}, {-h, -h, 1.0 / 8}, {h, h, 1.0 / 8}, {h, -h, 1.0 / 8}, {-h, h, 1.0 / 8}};
}
std::vector<Tap> up_taps(double offset) {
  const double h = offset / 4;
  return {{-2 * h, 0, 1.0 / 12}, {-h, h, 2.0 / 12}, {0, 2 * h, 1.0 / 12}, {h, h, 2.0 / 12},
          {2 * h, 0, 1.0 / 12},  {h, -h, 2.0 / 12}, {0, -2 * h, 1.0 / 12}, {-h, -h, 2.0 / 12}};
}

// A pass's variance along x, for a target centre at `centre` (texel units of the level read):
// sum of weight x (offset^2 + t (1 - t)), t the fraction the fetch at centre + offset blends at.
double pass_variance(const std::vector<Tap>& taps, double centre) {
  double variance = 0.0;
  for (const Tap& t : taps) {
    const double p = centre + t.x - 0.5, frac = p - std::floor(p);
    variance += t.weight * (t.x * t.x + frac * (1.0 - frac));
  }
  return variance;
}

double sigma_of(int levels, double offset) {
  const double down = pass_variance(down_taps(offset), 1.0);  // target centres sit on corners
  const double up = 0.5 * (pass_variance(up_taps(offset), 0.25) + pass_variance(up_taps(offset), 0.75));
  double variance = 0.0;
  for (int l = 0; l < levels; ++l) variance += std::pow(4.0, l) * (down + 4.0 * up);
  return std::sqrt(variance);
}

struct Choice {
  int levels = 1;
  double offset = 1.0;
  double sigma = 0.0;
};

// The (levels, offset) whose sigma is closest to the request on a log scale; of equals, fewer
// levels, then the smaller offset.
Choice choice_for(double sigma) {
  Choice best;
  double best_miss = INFINITY;
  for (int levels = 1; levels <= kMaxLevels; ++levels)
    for (double offset : kOffsets) {
      const double s = sigma_of(levels, offset), miss = std::abs(std::log(s / sigma));
      if (miss < best_miss - 1e-12) {
        best_miss = miss;
        best = {levels, offset, s};
      }
    }
  return best;
}

ApproxChoice choose(const BlurSettings& s) {
  const Choice c = choice_for(s.kernel.sigma);
  char text[64];
  std::snprintf(text, sizeof text, "%d level%s, offset %g", c.levels, c.levels == 1 ? "" : "s", c.offset);
  return {c.sigma, text};
}

glm::ivec2 half_size(glm::ivec2 size) { return {(size.x + 1) / 2, (size.y + 1) / 2}; }

std::string offset_literal(double offset) {
  char literal[32];
  std::snprintf(literal, sizeof literal, "%.1f", offset);  // steps of 1/2: exact
  return literal;
}

class DualKawase final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    const gl::Format io = s.input_format, mid = s.intermediate_format();
    choice_ = choice_for(s.kernel.sigma);
    const std::string offset = offset_literal(choice_.offset);
    first_down_ = &setup.compute("dual_kawase.comp", io, mid, {{"DK_UP", "0"}, {"DK_OFFSET", offset}});
    down_ = &setup.compute("dual_kawase.comp", mid, mid, {{"DK_UP", "0"}, {"DK_OFFSET", offset}});
    up_ = &setup.compute("dual_kawase.comp", mid, mid, {{"DK_UP", "1"}, {"DK_OFFSET", offset}});
    last_up_ = &setup.compute("dual_kawase.comp", mid, io, {{"DK_UP", "1"}, {"DK_OFFSET", offset}});
  }

  // Level l (1..N) lives in intermediate slot l - 1: written by down pass l, read by down pass
  // l + 1, then overwritten by the up pass from level l + 1, read by the up pass to level l - 1.
  void run(BlurPasses& passes) override {
    const glm::ivec2 wg = passes.settings().workgroup();
    std::vector<const gl::Texture*> levels{&passes.source()};
    glm::ivec2 size = passes.size();
    for (int l = 1; l <= choice_.levels; ++l) {
      size = half_size(size);
      levels.push_back(&passes.intermediate(l - 1, std::nullopt, size));
      passes.dispatch("d" + std::to_string(l), l == 1 ? *first_down_ : *down_,
                      {Binding::sampled_linear(*levels[static_cast<size_t>(l - 1)]), Binding::write(*levels[static_cast<size_t>(l)])},
                      groups_covering(size, wg));
    }
    for (int l = choice_.levels - 1; l >= 0; --l) {
      const gl::Texture& target = l == 0 ? passes.destination() : *levels[static_cast<size_t>(l)];
      passes.dispatch("u" + std::to_string(l), l == 0 ? *last_up_ : *up_,
                      {Binding::sampled_linear(*levels[static_cast<size_t>(l + 1)]), Binding::write(target)},
                      groups_covering({target.width(), target.height()}, wg));
    }
  }

 private:
  Choice choice_;
  const gl::Program *first_down_ = nullptr, *down_ = nullptr, *up_ = nullptr, *last_up_ = nullptr;
};

// One pass of the model: `taps` about each target texel's centre, mapped into `source`.
ReferenceImage model_pass(const ReferenceImage& source, glm::ivec2 target_size, const std::vector<Tap>& taps, bool up,
                          const Border& border) {
  ReferenceImage out = model::blank(target_size.x, target_size.y);
  model::parallel_rows(target_size.y, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y)
      for (int x = 0; x < target_size.x; ++x) {
        const double cx = up ? (x + 0.5) * 0.5 : 2.0 * x + 1.0, cy = up ? (y + 0.5) * 0.5 : 2.0 * y + 1.0;
        for (int c = 0; c < 4; ++c) {
          double sum = 0.0;
          for (const Tap& t : taps) sum += t.weight * model::bilinear(source, cx + t.x, cy + t.y, c, border);
          out.texels[(static_cast<size_t>(y) * target_size.x + x) * 4 + c] = sum;
        }
      }
  });
  return out;
}

ReferenceImage model_blur(const Image& input, const BlurSettings& s) {
  const Choice choice = choice_for(s.kernel.sigma);
  const gl::Format mid = s.intermediate_format();
  std::vector<ReferenceImage> levels{model::from_image(input)};
  for (int l = 1; l <= choice.levels; ++l) {
    const ReferenceImage& source = levels.back();
    levels.push_back(model_pass(source, half_size({source.width, source.height}), down_taps(choice.offset), false, s.border));
    model::store(levels.back(), mid);
  }
  for (int l = choice.levels - 1; l >= 0; --l) {
    const glm::ivec2 size{levels[static_cast<size_t>(l)].width, levels[static_cast<size_t>(l)].height};
    levels[static_cast<size_t>(l)] = model_pass(levels[static_cast<size_t>(l + 1)], size, up_taps(choice.offset), true, s.border);
    if (l > 0) model::store(levels[static_cast<size_t>(l)], mid);
  }
  return std::move(levels.front());
}

// fp32 roundings of a pass: each 2D bilinear fetch three lerps (two roundings each), then a
// multiply-add per fetch and the scale.
double pass_terms(size_t fetches) { return fetches * 6.0 + fetches * 2.0 + 1.0; }

Tolerance tolerance(const BlurSettings& s, glm::ivec2 size, double input_peak) {
  const Choice choice = choice_for(s.kernel.sigma);
  const gl::Format mid = s.intermediate_format();
  std::vector<glm::ivec2> levels{size};
  for (int l = 1; l <= choice.levels; ++l) levels.push_back(half_size(levels.back()));
  ModelErrorBound bound(s.input_format, input_peak);
  for (int pass = 0; pass < 2 * choice.levels; ++pass) {
    const bool down = pass < choice.levels;
    // The level read: down passes read levels 0..N-1, up passes N..1.
    const glm::ivec2 read = levels[static_cast<size_t>(down ? pass : 2 * choice.levels - pass)];
    bound.filtered_fetches(pass == 0 ? s.input_format : mid, std::max(read.x, read.y) + 2.0 * choice.offset + 1.0);
    bound.fp32(pass_terms(down ? 5 : 8));
    if (pass + 1 < 2 * choice.levels) bound.store(mid);
  }
  return bound.tolerance(std::to_string(choice.levels) + " levels down and up");
}

std::optional<Refusal> check(const BlurSettings& s, glm::ivec2 /*size*/, const gl::GlLimits& /*limits*/) {
  const Choice c = choice_for(s.kernel.sigma);
  if (c.sigma < s.kernel.sigma / 1.5)
    return Refusal{Limit::Reach,
                   "sigma " + format_double(s.kernel.sigma, 4) + " is beyond " + std::to_string(kMaxLevels) + " levels (sigma " +
                       format_double(c.sigma, 4) + ")",
                   s.kernel.sigma, 1.5 * c.sigma};
  return std::nullopt;
}

}  // namespace

namespace variant {
extern const VariantInfo dual_kawase{
    .name = "dual-kawase",
    .stage = Stage::Compute,
    .summary = "approximate Gaussian: Bjorge's dual filter, N half-size downsampling passes then N upsampling passes",
    .role = Role::Approximation,
    .kernels = KernelSupport::GaussOnly,
    .uses_intermediate = true,
    .hardware_filtering = true,
    .knobs = {knobs::workgroup({{16, 16}, {8, 8}, {64, 4}, {256, 1}})},
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new DualKawase); },
    .approximation = {.choose = choose, .model = model_blur, .tolerance = tolerance},
};
}  // namespace variant
}  // namespace blurlab
