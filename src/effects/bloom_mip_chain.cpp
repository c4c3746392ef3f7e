// bloom's mip chain, the engines' way (Jimenez, SIGGRAPH 2014; Unreal, Unity, Filament do the
// same): the light that blooms is halved level by level with a 13-tap filter, then summed back up
// level by level with 3x3 tents, each level's sum weighted; the composite takes the tent of level 1.
// Its shader is glsl/effects/bloom_mip_chain.comp, which says the passes' formulas.
//
// It serves a Gaussian PSF, or a sum of them, approximately: the response of level l (l downs, then
// l tents back up) is close to a Gaussian whose variance per axis is the sum of its filters',
// 1.75 texels^2 of level j for a down from j and 0.6875 texels^2 of level j + 1 for a tent into j
// (the tent's 0.5 and a half-texel bilinear phase's 0.1875): V_l = 1.5 (4^l - 1) pixels^2, sigma
// 2.1, 4.7, 9.7, 19.6, 39.2, 78.4, ... (which says how many levels a PSF needs). The level weights
// a_l are chosen so that the sum of the levels' responses, a_l each, comes closest (least squares
// over the plane, the responses computed through the chain's own filters and averaged over an
// impulse's phases on the coarsest grid) to the PSF, with a_l >= 0 and sum a_l = 1 (energy-conserving).
// A level's response is not exactly Gaussian (at the centre about 4% below the Gaussian of its
// variance, and nothing beyond about 3.6 sigma): what that costs on the shipped frame is its
// fidelity against the ground truth, measured like every other.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>

#include "blur/model.h"
#include "effects/bloom.h"
#include "util/error.h"
#include "util/strings.h"

namespace blurlab::bloom {

namespace {

constexpr int kMaxLevels = 12;
constexpr int kGroup = 16;  // every pass: 16x16 outputs a workgroup

double level_variance(int level) { return 1.5 * (std::pow(4.0, level) - 1.0); }

glm::ivec2 half_of(glm::ivec2 size) { return {(size.x + 1) / 2, (size.y + 1) / 2}; }

using Plan = MipChainPlan;

// The chain along one axis, for an impulse: the 13-tap filter's marginal (texels 2j - 2 .. 2j + 3
// weighted 1, 3, 4, 4, 3, 1 / 16) and the tent's four texels (glsl: tent_taps). The 2D filters are
// close to the products of these (the tent is one; the 13-tap differs from its marginal's square by
// a quarter of (inner box - outer boxes' mean)^2, small), so the fit works on the axis and squares.
std::vector<double> down_1d(const std::vector<double>& a) {
  const int n = static_cast<int>(a.size()), m = (n + 1) / 2;
  static const double w[6] = {1.0 / 16, 3.0 / 16, 4.0 / 16, 4.0 / 16, 3.0 / 16, 1.0 / 16};
  std::vector<double> out(static_cast<size_t>(m), 0.0);
  for (int j = 0; j < m; ++j)
    for (int t = 0; t < 6; ++t) out[static_cast<size_t>(j)] += w[t] * a[static_cast<size_t>(std::clamp(2 * j - 2 + t, 0, n - 1))];
  return out;
}

// The tent's six weights on level l + 1 for output texel x of level l, scale s, and the first of
// them (glsl: tent_taps).
int tent_taps(int x, double s, double taps[6]) {
  const bool is_odd = (x & 1) != 0;
  const int first = (x >> 1) - (is_odd ? 2 : 3);
  const double p = x * 0.5 - 0.25 - first;
  std::fill(taps, taps + 6, 0.0);
  for (auto [q, w] : {std::pair{p - s, 0.25}, std::pair{p, 0.5}, std::pair{p + s, 0.25}}) {
    const double i = std::floor(q);
    const int k = static_cast<int>(i);
    taps[k] += w * (1.0 - (q - i));
    taps[k + 1] += w * (q - i);
  }
  return first;
}

std::vector<double> tent_1d(const std::vector<double>& a, int n, double s) {
  const int m = static_cast<int>(a.size());
  std::vector<double> out(static_cast<size_t>(n), 0.0);
  for (int x = 0; x < n; ++x) {
    double taps[6];
    const int first = tent_taps(x, s, taps);
    for (int d = 0; d < 6; ++d) out[static_cast<size_t>(x)] += taps[d] * a[static_cast<size_t>(std::clamp(first + d, 0, m - 1))];
  }
  return out;
}

// The least squares fit's terms: over impulses at every phase of the chain's grid (sampled), the
// mean inner products of the levels' responses with each other (gram) and with the PSF (cross), each
// a 2D inner product as the square of its axis's (the PSF's Gaussians are the exact kernels the
// ground truth convolves with, kernel_weights(fidelity_kernel(sigma))).
void fit_terms(int levels, double scale, const Config& c, std::vector<std::vector<double>>& gram, std::vector<double>& cross) {
  double widest = 0.0;
  for (const PsfTerm& t : c.psf) widest = std::max(widest, t.sigma);
  const int step = 1 << levels;
  const int half = static_cast<int>(std::ceil(4.0 * std::max(std::sqrt(level_variance(levels)), widest))) + 4 * step;
  const int n = ((2 * half) / step + 2) * step;  // a multiple of the coarsest level's texel
  std::vector<std::vector<double>> psf;
  for (const PsfTerm& t : c.psf) psf.push_back(kernel_weights(fidelity_kernel(t.sigma)));
  const size_t count = static_cast<size_t>(levels) + 1;  // level 0, the light itself, then levels 1..L
  std::vector<std::vector<double>> gram_1d(count, std::vector<double>(count, 0.0));
  std::vector<std::vector<double>> cross_1d(count, std::vector<double>(c.psf.size(), 0.0));
  const int phases = std::min(step, 32);
  for (int ph = 0; ph < phases; ++ph) {
    const int at = n / 2 + ph * (step / phases);
    std::vector<std::vector<double>> down{std::vector<double>(static_cast<size_t>(n), 0.0)};
    down[0][static_cast<size_t>(at)] = 1.0;
    for (int l = 1; l <= levels; ++l) down.push_back(down_1d(down.back()));
    std::vector<std::vector<double>> response{down[0]};
    for (int l = 1; l <= levels; ++l) {
      std::vector<double> r = down[static_cast<size_t>(l)];
      for (int k = l - 1; k >= 0; --k) r = tent_1d(r, static_cast<int>(down[static_cast<size_t>(k)].size()), scale);
      response.push_back(std::move(r));
    }
    for (size_t a = 0; a < count; ++a) {
      for (size_t b = 0; b < count; ++b)
        for (int x = 0; x < n; ++x) gram_1d[a][b] += response[a][static_cast<size_t>(x)] * response[b][static_cast<size_t>(x)] / phases;
      for (size_t i = 0; i < psf.size(); ++i) {
        const int r = static_cast<int>(psf[i].size() / 2);
        for (int d = -r; d <= r; ++d)
          cross_1d[a][i] += response[a][static_cast<size_t>(at + d)] * psf[i][static_cast<size_t>(d + r)] / phases;
      }
    }
  }
  gram.assign(count, std::vector<double>(count, 0.0));
  cross.assign(count, 0.0);
  for (size_t a = 0; a < count; ++a) {
    for (size_t b = 0; b < count; ++b) gram[a][b] = gram_1d[a][b] * gram_1d[a][b];
    for (size_t i = 0; i < c.psf.size(); ++i) cross[a] += c.psf[i].weight * cross_1d[a][i] * cross_1d[a][i];
  }
}

// Solves the square system m x = v in place (Gaussian elimination, partial pivoting); false when
// it is singular.
bool solve(std::vector<std::vector<double>> m, std::vector<double>& v) {
  const size_t n = v.size();
  for (size_t col = 0; col < n; ++col) {
    size_t pivot = col;
    for (size_t row = col + 1; row < n; ++row)
      if (std::abs(m[row][col]) > std::abs(m[pivot][col])) pivot = row;
    if (std::abs(m[pivot][col]) < 1e-300) return false;
    std::swap(m[pivot], m[col]);
    std::swap(v[pivot], v[col]);
    for (size_t row = 0; row < n; ++row) {
      if (row == col) continue;
      const double f = m[row][col] / m[col][col];
      for (size_t k = col; k < n; ++k) m[row][k] -= f * m[col][k];
      v[row] -= f * v[col];
    }
  }
  for (size_t i = 0; i < n; ++i) v[i] /= m[i][i];
  return true;
}

// min over a >= 0 with sum a = 1 of |sum_l a_l R_l - PSF|^2 = a'Ga - 2 b'a + const, exactly: the
// minimum lies on some face of the simplex, where the levels with a_l > 0 solve the equality-
// constrained problem's KKT system [G 1; 1' 0] [a; mu] = [b; 1]. With a dozen levels at most, every
// face (every subset of levels) is tried and the best feasible one kept.
std::vector<double> fit_weights(int levels, double scale, const Config& c, double& cost_out) {
  const size_t n = static_cast<size_t>(levels) + 1;
  std::vector<std::vector<double>> g;
  std::vector<double> b;
  fit_terms(levels, scale, c, g, b);
  std::vector<double> best(n, 0.0);
  double best_cost = INFINITY;
  for (uint32_t subset = 1; subset < (1u << n); ++subset) {
    std::vector<size_t> free;
    for (size_t i = 0; i < n; ++i)
      if (subset & (1u << i)) free.push_back(i);
    const size_t k = free.size();
    std::vector<std::vector<double>> m(k + 1, std::vector<double>(k + 1, 0.0));
    std::vector<double> v(k + 1, 1.0);
    for (size_t i = 0; i < k; ++i) {
      for (size_t j = 0; j < k; ++j) m[i][j] = g[free[i]][free[j]];
      m[i][k] = m[k][i] = 1.0;
      v[i] = b[free[i]];
    }
    m[k][k] = 0.0;
    if (!solve(m, v)) continue;
    if (std::any_of(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), [](double x) { return x < 0.0; })) continue;
    std::vector<double> a(n, 0.0);
    for (size_t i = 0; i < k; ++i) a[free[i]] = v[i];
    double cost = 0.0;
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) cost += a[i] * g[i][j] * a[j];
      cost -= 2.0 * b[i] * a[i];
    }
    if (cost < best_cost) {
      best_cost = cost;
      best = a;
    }
  }
  cost_out = best_cost;
  return best;
}

Plan make_plan(const Config& c, glm::ivec2 size) {
  double widest = 0.0;
  for (const PsfTerm& t : c.psf) widest = std::max(widest, t.sigma);
  Plan p;
  p.sizes.push_back(size);
  // Levels up to the first whose response is twice as wide as the widest term (beyond it a level
  // can only widen the fit's tail), and no further than the chain's texels halve.
  for (int l = 1; l <= kMaxLevels; ++l) {
    const glm::ivec2 previous = p.sizes.back();
    if (previous.x == 1 && previous.y == 1) break;
    p.sizes.push_back(half_of(previous));
    if (std::sqrt(level_variance(l)) >= 2.0 * widest) break;
  }
  // The tent scale with the best fit, from half the tent to twice it in steps of 1/20 (each scale
  // stretches every level's response: with the weights it covers the octave between two levels).
  std::vector<double> a;
  double best = INFINITY;
  for (int step = 10; step <= 40; ++step) {
    double cost = 0.0;
    std::vector<double> weights = fit_weights(p.levels(), step / 20.0, c, cost);
    if (cost < best) {
      best = cost;
      a = std::move(weights);
      p.tent_scale = step / 20.0;
    }
  }
  p.weights = a;
  // The coarsest levels the fit left out cost passes for nothing.
  while (p.levels() > 1 && p.weights.back() == 0.0) {
    p.weights.pop_back();
    p.sizes.pop_back();
  }
  return p;
}

// The fit takes a fraction of a second for wide PSFs: each (PSF, size) is planned once per process.
Plan plan(const Config& c, glm::ivec2 size) {
  static std::mutex mutex;
  static std::map<std::string, Plan> plans;
  std::string key = std::to_string(size.x) + "x" + std::to_string(size.y);
  for (const PsfTerm& t : c.psf) key += " " + format_double(t.weight, 17) + "@" + format_double(t.sigma, 17);
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = plans.find(key);
  if (it == plans.end()) it = plans.emplace(key, make_plan(c, size)).first;
  return it->second;
}

// Workgroups covering a level of the chain, with their formula in the frame's W x H: level l is
// ceil(W / 2^l) x ceil(H / 2^l) (half_of, level by level), so ceil(W / (kGroup 2^l)) groups wide.
DispatchGrid groups(glm::ivec2 size, int level = 0) { return groups_covering(size, {kGroup, kGroup}, level); }

class MipChainBloom final : public Effect {
 public:
  std::optional<Refusal> prepare(EffectSetup& setup) override {
    const EffectSettings& s = setup.settings();
    if (s.border.mode != BorderMode::Clamp)
      return Refusal{Limit::Border,
                     "the mip chain's levels read their neighbours clamped: a level of odd size cannot wrap or mirror as the frame "
                     "does, so it blurs with the clamp border only (given " + std::string(name(s.border.mode)) + ")"};
    config_ = config(s.values, setup.size());
    plan_ = plan(config_, setup.size());
    const std::string prefilter = config_.prefiltered() ? "1" : "0";
    prefilter_ = config_.prefiltered() ? &setup.compute("effects/bloom.comp", {{"BLOOM_PASS", "0"}, {"PREFILTER", "1"}})
                                       : nullptr;
    down_ = &setup.compute("effects/bloom_mip_chain.comp", {{"CHAIN_PASS", "0"}, {"PREFILTER", prefilter}});
    up_first_ = &setup.compute("effects/bloom_mip_chain.comp", {{"CHAIN_PASS", "1"}, {"UP_FIRST", "1"}, {"PREFILTER", prefilter}});
    up_ = &setup.compute("effects/bloom_mip_chain.comp", {{"CHAIN_PASS", "1"}, {"UP_FIRST", "0"}, {"PREFILTER", prefilter}});
    char level0[32];
    std::snprintf(level0, sizeof level0, "%.9g", static_cast<double>(static_cast<float>(plan_.weights[0])));
    composite_ = &setup.compute("effects/bloom_mip_chain.comp", {{"CHAIN_PASS", "2"}, {"PREFILTER", prefilter}, {"LEVEL0_WEIGHT", level0}});
    return std::nullopt;
  }

  void run(EffectPasses& p) override {
    const float scale = static_cast<float>(plan_.tent_scale);
    const glm::vec4 values{static_cast<float>(config_.intensity), static_cast<float>(config_.threshold),
                           static_cast<float>(config_.knee), scale};
    const gl::Texture* level = &p.color();
    if (prefilter_) {
      const gl::Texture& prefiltered = p.texture(kPrefilteredSlot, gl::Format::rgba16f, p.size(), "bloom prefiltered");
      p.dispatch("prefilter", *prefilter_, {Binding::read(p.color()), Binding::write(prefiltered)}, groups(p.size()), values);
      level = &prefiltered;
    }
    const int n = plan_.levels();
    std::vector<const gl::Texture*> down(static_cast<size_t>(n) + 1, nullptr);
    down[0] = level;
    for (int l = 1; l <= n; ++l) {
      const glm::ivec2 size = plan_.sizes[static_cast<size_t>(l)];
      down[static_cast<size_t>(l)] = &p.texture(kDownSlot + l, gl::Format::rgba16f, size, "bloom down " + std::to_string(l));
      p.dispatch("down " + std::to_string(l), *down_, {Binding::sampled_linear(*down[static_cast<size_t>(l) - 1]), Binding::write(*down[static_cast<size_t>(l)])},
                 groups(size, l));
    }
    const gl::Texture* above = nullptr;
    for (int l = n; l >= 1; --l) {
      const glm::ivec2 size = plan_.sizes[static_cast<size_t>(l)];
      const gl::Texture& up = p.texture(kUpSlot + l, gl::Format::rgba16f, size, "bloom up " + std::to_string(l));
      const glm::vec4 weight{static_cast<float>(plan_.weights[static_cast<size_t>(l)]), scale, 0.0f, 0.0f};
      if (!above)
        p.dispatch("up " + std::to_string(l), *up_first_, {Binding::read(*down[static_cast<size_t>(l)]), Binding::write(up)}, groups(size, l), weight);
      else
        p.dispatch("up " + std::to_string(l), *up_,
                   {Binding::sampled(*above), Binding::read(*down[static_cast<size_t>(l)]), Binding::write(up)}, groups(size, l), weight);
      above = &up;
    }
    p.dispatch("composite", *composite_, {Binding::sampled(*above), Binding::read(p.color()), Binding::write(p.output())}, groups(p.size()),
               values);
  }

 private:
  Config config_;
  Plan plan_;
  const gl::Program* prefilter_ = nullptr;
  const gl::Program* down_ = nullptr;
  const gl::Program* up_first_ = nullptr;
  const gl::Program* up_ = nullptr;
  const gl::Program* composite_ = nullptr;
};

// The CPU model of the passes, in double, from the level each reads.
double clamped(const ReferenceImage& level, int x, int y, int c) {
  return level.at(std::clamp(x, 0, level.width - 1), std::clamp(y, 0, level.height - 1), c);
}

ReferenceImage model_down(const ReferenceImage& level, glm::ivec2 size) {
  ReferenceImage out = model::blank(size.x, size.y);
  const auto box = [&](int cx, int cy, int c) {  // the 2x2 texels around corner (cx, cy)
    return 0.25 * (clamped(level, cx - 1, cy - 1, c) + clamped(level, cx, cy - 1, c) + clamped(level, cx - 1, cy, c) + clamped(level, cx, cy, c));
  };
  for (int y = 0; y < size.y; ++y)
    for (int x = 0; x < size.x; ++x)
      for (int c = 0; c < 3; ++c) {
        const int cx = 2 * x + 1, cy = 2 * y + 1;
        double sum = 0.125 * (box(cx - 1, cy - 1, c) + box(cx + 1, cy - 1, c) + box(cx - 1, cy + 1, c) + box(cx + 1, cy + 1, c));
        sum += 0.125 * box(cx, cy, c);
        sum += 0.0625 * (box(cx, cy - 2, c) + box(cx - 2, cy, c) + box(cx + 2, cy, c) + box(cx, cy + 2, c));
        sum += 0.03125 * (box(cx - 2, cy - 2, c) + box(cx + 2, cy - 2, c) + box(cx - 2, cy + 2, c) + box(cx + 2, cy + 2, c));
        out.texels[(static_cast<size_t>(y) * size.x + x) * 4 + c] = sum;
      }
  for (size_t i = 3; i < out.texels.size(); i += 4) out.texels[i] = 1.0;
  return out;
}

// The tent of `above` at level `size`, scale s (glsl: tent), in double: the weights as the GPU
// gets the scale (a float).
ReferenceImage model_tent(const ReferenceImage& above, glm::ivec2 size, double scale) {
  const double s = static_cast<double>(static_cast<float>(scale));
  ReferenceImage out = model::blank(size.x, size.y);
  for (int y = 0; y < size.y; ++y) {
    double wy[6];
    const int fy = tent_taps(y, s, wy);
    for (int x = 0; x < size.x; ++x) {
      double wx[6];
      const int fx = tent_taps(x, s, wx);
      for (int c = 0; c < 3; ++c) {
        double sum = 0.0;
        for (int dy = 0; dy < 6; ++dy)
          for (int dx = 0; dx < 6; ++dx) sum += wx[dx] * wy[dy] * clamped(above, fx + dx, fy + dy, c);
        out.texels[(static_cast<size_t>(y) * size.x + x) * 4 + c] = sum;
      }
    }
  }
  for (size_t i = 3; i < out.texels.size(); i += 4) out.texels[i] = 1.0;
  return out;
}

// A pass's output in rgba16f against the model of it from the level(s) it read as the GPU stored
// them: positive weights, so every error is relative to the output: fp32 sums (a few dozen roundings
// of 2^-24), a down pass's filtered fetches of rgba16f, which a texture unit may round to half after
// filtering (2^-11 each, weights summing to 1), then GL's float-to-half conversion of the store,
// which may truncate (2^-10).
Tolerance pass_tolerance() {
  return {.lsb = false, .relative = std::ldexp(1.0, -10) + std::ldexp(1.0, -11) + 64.0 * std::ldexp(1.0, -24), .absolute = 1e-6,
          .reason = "one pass of positive weights in fp32 (a down pass's fetches filtered in rgba16f may round to half: 2^-11), stored "
                    "in rgba16f (GL may truncate to half: 2^-10); relative to the output"};
}

ReferenceImage from(const Image& image) { return model::from_image(image); }

}  // namespace

std::unique_ptr<Effect> create_mip_chain() { return std::make_unique<MipChainBloom>(); }

MipChainPlan mip_chain_plan(const Config& c, glm::ivec2 size) { return plan(c, size); }

ChainCheck check_mip_chain(const EffectReadback& run, const Config& c, const Image& blooming, const ReferenceImage& light) {
  const Plan p = plan(c, run.size);
  const Tolerance t = pass_tolerance();
  ChainCheck result;
  ReferenceImage level = from(blooming);
  std::vector<ReferenceImage> down{level};
  for (int l = 1; l <= p.levels(); ++l) {
    const Image gpu = run.stage_texture(kDownSlot + l);
    result.stages.push_back({"down " + std::to_string(l), compare_to_reference(gpu, model_down(down.back(), p.sizes[static_cast<size_t>(l)]), t), t});
    down.push_back(from(gpu));
  }
  std::optional<ReferenceImage> above;
  for (int l = p.levels(); l >= 1; --l) {
    const glm::ivec2 size = p.sizes[static_cast<size_t>(l)];
    ReferenceImage expected = above ? model_tent(*above, size, p.tent_scale) : model::blank(size.x, size.y);
    const double a = static_cast<double>(static_cast<float>(p.weights[static_cast<size_t>(l)]));  // as the GPU gets it
    for (size_t i = 0; i < expected.texels.size(); ++i)
      expected.texels[i] = (i % 4 == 3) ? 1.0 : expected.texels[i] + a * down[static_cast<size_t>(l)].texels[i];
    const Image gpu = run.stage_texture(kUpSlot + l);
    result.stages.push_back({"up " + std::to_string(l), compare_to_reference(gpu, expected, t), t});
    above = from(gpu);
  }
  // The composite's layer: level 1's tent and a_0 of the light itself (as the composite computes it
  // from the frame, the prefilter's formula).
  result.layer = model_tent(*above, run.size, p.tent_scale);
  const double a0 = static_cast<double>(static_cast<float>(p.weights[0]));
  for (size_t i = 0; i < result.layer.texels.size(); ++i)
    if (i % 4 != 3) result.layer.texels[i] += a0 * light.texels[i];
  return result;
}

std::string describe_mip_chain(const EffectSettings& settings, glm::ivec2 size) {
  const Plan p = plan(config(settings.values, size), size);
  std::string weights;
  for (int l = 0; l <= p.levels(); ++l) {
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%s%.3f", l > 0 ? " " : "", p.weights[static_cast<size_t>(l)]);
    weights += buffer;
  }
  char scale[32];
  std::snprintf(scale, sizeof scale, "%.2f", p.tent_scale);
  return "the mip chain: " + std::to_string(p.levels()) + " levels down by 13 taps and up by tents of scale " + scale + ", weighted (levels 0.." + std::to_string(p.levels()) + ") " + weights;
}

}  // namespace blurlab::bloom
