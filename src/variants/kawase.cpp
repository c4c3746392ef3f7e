// kawase: the Kawase blur (Masaki Kawase, "Frame buffer postprocessing effects in DOUBLE-S.T.E.A.L",
// GDC 2003), the bloom filter of many engines: passes at full resolution, each the average of four
// bilinear fetches at the diagonal offsets (+-(o + 1/2), +-(o + 1/2)) texels, with the offset o
// growing from pass to pass. Each fetch lands on the corner between four texels, so the texture
// units average a 2x2 block with weights 1/2 per axis (exact in their 8-bit weights): a pass reads
// 16 texels for the price of 4 fetches.
//
// The sigma it stands in for: along each axis a pass's kernel is 1/4 at -o-1, -o, o and o+1, of
// variance ((o+1)^2 + o^2 + o^2 + (o+1)^2) / 4 = o^2 + o + 1/2, and the variances of passes run one
// after another add up (the 2D kernel is separable: the four fetches are all sign combinations).
// For a requested sigma the passes take offsets 0, 1, 2, ... while their variances fit under
// sigma^2, then one more pass whose offset brings the total closest to sigma^2 (the classic
// 0, 1, 2, 2, 3 sequence is sigma 5.3). The declared sigma is the square root of that total.
#include <cmath>
#include <vector>

#include "blur/check.h"
#include "blur/model.h"
#include "util/strings.h"

namespace blurlab {
namespace {

// Passes at full resolution: sigma 42.7 (r = 128) takes 18; 32 reach sigma 104.
constexpr int kMaxPasses = 32;

double pass_variance(int offset) { return offset * offset + offset + 0.5; }

std::vector<int> offsets_for(double sigma) {
  const double target = sigma * sigma;
  std::vector<int> offsets;
  double total = 0.0;
  int next = 0;
  while (total + pass_variance(next) <= target) {
    total += pass_variance(next);
    offsets.push_back(next++);
  }
  // One more pass, of the offset (up to `next`) that lands closest to sigma^2, if that is closer
  // than stopping here; at least one pass (offset 0: sigma 0.71, Kawase's smallest blur).
  int best = -1;
  double best_miss = offsets.empty() ? INFINITY : target - total;
  for (int o = 0; o <= next; ++o)
    if (const double miss = std::abs(target - total - pass_variance(o)); miss < best_miss) {
      best_miss = miss;
      best = o;
    }
  if (best >= 0) offsets.push_back(best);
  return offsets;
}

double sigma_of(const std::vector<int>& offsets) {
  double total = 0.0;
  for (int o : offsets) total += pass_variance(o);
  return std::sqrt(total);
}

ApproxChoice choose(const BlurSettings& s) {
  const std::vector<int> offsets = offsets_for(s.kernel.sigma);
  std::string list;
  for (int o : offsets) list += (list.empty() ? "" : ",") + std::to_string(o);
  return {sigma_of(offsets), std::to_string(offsets.size()) + (offsets.size() == 1 ? " pass, offset " : " passes, offsets ") + list};
}

// Three programs at most (from the source, between intermediates, into the destination); the
// offset is a value of the pass (u_pass.x), not a program each.
class Kawase final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    const gl::Format io = s.input_format, mid = s.intermediate_format();
    offsets_ = offsets_for(s.kernel.sigma);
    first_ = &setup.compute("kawase.comp", io, mid);
    middle_ = &setup.compute("kawase.comp", mid, mid);
    last_ = &setup.compute("kawase.comp", mid, io);
    only_ = &setup.compute("kawase.comp", io, io);
  }

  void run(BlurPasses& passes) override {
    const gl::Texture* src = &passes.source();
    const glm::ivec2 wg = passes.settings().workgroup();
    const size_t n = offsets_.size();
    for (size_t k = 0; k < n; ++k) {
      const bool last = k + 1 == n;
      const gl::Program& program = n == 1 ? *only_ : k == 0 ? *first_ : last ? *last_ : *middle_;
      const gl::Texture& dst = last ? passes.destination() : passes.intermediate(static_cast<int>(k % 2));
      passes.dispatch("p" + std::to_string(k + 1), program, {Binding::sampled_linear(*src), Binding::write(dst)},
                      groups_covering(passes.size(), wg), glm::vec4(static_cast<float>(offsets_[k]), 0.0f, 0.0f, 0.0f));
      src = &dst;
    }
  }

 private:
  std::vector<int> offsets_;
  const gl::Program *first_ = nullptr, *middle_ = nullptr, *last_ = nullptr, *only_ = nullptr;
};

// The passes as the GPU runs them, each stored in the intermediate format but the last.
ReferenceImage model_blur(const Image& input, const BlurSettings& s) {
  const std::vector<int> offsets = offsets_for(s.kernel.sigma);
  ReferenceImage image = model::from_image(input);
  for (size_t k = 0; k < offsets.size(); ++k) {
    const double d = offsets[k] + 0.5;
    ReferenceImage out = model::blank(image.width, image.height);
    model::parallel_rows(image.height, [&](int y0, int y1) {
      for (int y = y0; y < y1; ++y)
        for (int x = 0; x < image.width; ++x)
          for (int c = 0; c < 4; ++c) {
            const double px = x + 0.5, py = y + 0.5;
            out.texels[(static_cast<size_t>(y) * image.width + x) * 4 + c] =
                0.25 * (model::bilinear(image, px - d, py - d, c, s.border) + model::bilinear(image, px + d, py - d, c, s.border) +
                        model::bilinear(image, px - d, py + d, c, s.border) + model::bilinear(image, px + d, py + d, c, s.border));
          }
    });
    image = std::move(out);
    if (k + 1 < offsets.size()) model::store(image, s.intermediate_format());
  }
  return image;
}

// fp32 roundings of a pass: each 2D bilinear fetch three lerps (two roundings each), three adds
// and the scale.
constexpr double kPassTerms = 4 * 6 + 4;

Tolerance tolerance(const BlurSettings& s, glm::ivec2 size, double input_peak) {
  const std::vector<int> offsets = offsets_for(s.kernel.sigma);
  ModelErrorBound bound(s.input_format, input_peak);
  for (size_t k = 0; k < offsets.size(); ++k) {
    const gl::Format src = k == 0 ? s.input_format : s.intermediate_format();
    bound.filtered_fetches(src, std::max(size.x, size.y) + offsets[k] + 1.0);
    bound.fp32(kPassTerms);
    if (k + 1 < offsets.size()) bound.store(s.intermediate_format());
  }
  return bound.tolerance(std::to_string(offsets.size()) + " Kawase passes");
}

std::optional<Refusal> check(const BlurSettings& s, glm::ivec2 /*size*/, const gl::GlLimits& /*limits*/) {
  const size_t passes = offsets_for(s.kernel.sigma).size();
  if (passes > kMaxPasses)
    return Refusal{Limit::Reach,
                   "sigma " + format_double(s.kernel.sigma, 4) + " needs " + std::to_string(passes) + " passes at full resolution, more than " +
                       std::to_string(kMaxPasses) + " (dual-kawase blurs wide at a fraction of the cost)",
                   static_cast<double>(passes), static_cast<double>(kMaxPasses)};
  return std::nullopt;
}

}  // namespace

namespace variant {
extern const VariantInfo kawase{
    .name = "kawase",
    .stage = Stage::Compute,
    .summary = "approximate Gaussian: Kawase passes of four bilinear fetches at growing diagonal offsets, chosen for sigma",
    .role = Role::Approximation,
    .kernels = KernelSupport::GaussOnly,
    .uses_intermediate = true,
    .hardware_filtering = true,
    .knobs = {knobs::workgroup({{16, 16}, {8, 8}, {64, 4}, {256, 1}})},
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new Kawase); },
    .approximation = {.choose = choose, .model = model_blur, .tolerance = tolerance},
};
}  // namespace variant
}  // namespace blurlab
