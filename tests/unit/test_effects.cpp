// The effects' rules that need no GL: the tonemap, bloom's parameters and PSFs, its CPU ground
// truth against independent computations, the mip chain's fitted plan, and the report's answer.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "blur/kernel.h"
#include "blur/reference.h"
#include "effects/bloom.h"
#include "effects/registry.h"
#include "effects/tonemap.h"
#include "image/srgb.h"
#include "report/effect_report.h"
#include "util/error.h"

namespace blurlab {
namespace {

// Narkowicz's fit, written out here from his article (0.6 x, then x (2.51 x + 0.03) / (x (2.43 x
// + 0.59) + 0.14)), independently of src/effects/tonemap.cpp.
double narkowicz(double x) {
  x *= 0.6;
  return std::min(1.0, std::max(0.0, x * (2.51 * x + 0.03) / (x * (2.43 * x + 0.59) + 0.14)));
}

TEST(Tonemap, IsNarkowiczsFitThenSrgb) {
  for (double x : {0.0, 1e-4, 0.01, 0.18, 0.5, 1.0, 2.0, 5.0, 11.0, 50.0, 100.0}) {
    EXPECT_NEAR(tonemap_aces(x), narkowicz(x), 1e-15) << x;
    EXPECT_NEAR(display_value(x), linear_to_srgb(narkowicz(x)), 1e-15) << x;
  }
  EXPECT_EQ(tonemap_aces(-3.0), 0.0);
  // 1.0 of radiance shows at 0.6731 tonemapped (0.6 * 1.536 / (0.6 * 2.048 + 0.14)).
  EXPECT_NEAR(tonemap_aces(1.0), 0.9216 / 1.3688, 1e-12);
  // Monotonic up to white, white from aces_white_radiance() on (about 12).
  double last = -1.0;
  for (double x = 0.0; x < 20.0; x += 0.01) {
    EXPECT_GE(tonemap_aces(x), last) << x;
    last = tonemap_aces(x);
  }
  const double white = aces_white_radiance();
  EXPECT_NEAR(white, 12.07, 0.01);
  EXPECT_LT(tonemap_aces(white * 0.999), 1.0);
  EXPECT_EQ(tonemap_aces(white * 1.001), 1.0);
}

EffectValues bloom_values(std::map<std::string, std::string> given) {
  return resolve_effect(*find_effect("bloom"), EffectValues(given.begin(), given.end()));
}

std::string config_error(std::map<std::string, std::string> given, glm::ivec2 size = {1920, 1080}) {
  try {
    bloom::config(bloom_values(std::move(given)), size);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(Bloom, PsfTermsInPixelsOrPercentOfTheHeightNormalised) {
  const bloom::Config c = bloom::config(bloom_values({{"psf", "gauss:2%"}}), {1920, 1080});
  ASSERT_EQ(c.psf.size(), 1u);
  EXPECT_DOUBLE_EQ(c.psf[0].sigma, 21.6);
  EXPECT_DOUBLE_EQ(c.psf[0].weight, 1.0);
  const bloom::Config sum = bloom::config(bloom_values({{"psf", "sum:3@1%, 1@12.5"}}), {800, 600});
  ASSERT_EQ(sum.psf.size(), 2u);
  EXPECT_DOUBLE_EQ(sum.psf[0].sigma, 6.0);
  EXPECT_DOUBLE_EQ(sum.psf[0].weight, 0.75);
  EXPECT_DOUBLE_EQ(sum.psf[1].sigma, 12.5);
  EXPECT_DOUBLE_EQ(sum.psf[1].weight, 0.25);
  // The defaults: no threshold, 5% of the light blooms, sigma 2% of the height.
  const bloom::Config d = bloom::config(bloom_values({}), {3840, 2160});
  EXPECT_DOUBLE_EQ(d.intensity, 0.05);
  EXPECT_FALSE(d.prefiltered());
  EXPECT_DOUBLE_EQ(d.psf[0].sigma, 43.2);
}

TEST(Bloom, RefusesWhatCannotBeABloomWithTheNumbers) {
  EXPECT_EQ(config_error({{"intensity", "nan"}}), "--intensity 'nan' is not a number");
  EXPECT_EQ(config_error({{"intensity", "-0.1"}}), "--intensity -0.1 is out of range 0..1");
  EXPECT_EQ(config_error({{"intensity", "1.5"}}), "--intensity 1.5 is out of range 0..1");
  EXPECT_EQ(config_error({{"threshold", "-1"}}), "--threshold -1 is out of range 0..65504");
  EXPECT_EQ(config_error({{"threshold", "1"}, {"knee", "2"}}), "--knee 2 is above --threshold 1 (the knee is a half width around the threshold)");
  EXPECT_EQ(config_error({{"psf", "gauss:0"}}), "--psf 'gauss:0': sigma 0 must be above 0");
  EXPECT_EQ(config_error({{"psf", "gauss:inf"}}), "--psf 'gauss:inf': sigma 'inf' is not a number");
  EXPECT_EQ(config_error({{"psf", "sum:"}}), "--psf 'sum:': a sum needs at least one term");
  EXPECT_EQ(config_error({{"psf", "sum:0@3,0@4"}}), "--psf 'sum:0@3,0@4': the weights sum to 0 (no light to spread)");
  EXPECT_EQ(config_error({{"psf", "sum:-1@3,2@4"}}), "--psf 'sum:-1@3,2@4': weight -1 is negative (a PSF spreads light, it takes none)");
  EXPECT_EQ(config_error({{"psf", "sum:1@1,1@2,1@3,1@4,1@5,1@6,1@7"}}), "--psf: 7 terms, at most 6");
  EXPECT_EQ(config_error({{"psf", "box:3"}}), "--psf 'box:3' is neither gauss:SIGMA nor sum:W@SIGMA,...");
  // 5% of a 4K frame's height (r = 324) runs; 8% (r = 519) is past every variant's reach.
  EXPECT_EQ(config_error({{"psf", "gauss:5%"}}, {3840, 2160}), "accepted");
  EXPECT_EQ(config_error({{"psf", "gauss:8%"}}, {3840, 2160}),
            "--psf: sigma 172.8 px (8% of 2160 rows) needs radius 519 (3 sigma), above 512");
}

TEST(Bloom, SoftKneePrefilter) {
  bloom::Config off;
  EXPECT_DOUBLE_EQ(bloom::prefilter_fraction(0.3, 0.2, 0.1, off), 1.0);  // no threshold: all of it
  bloom::Config hard;
  hard.threshold = 1.0;
  EXPECT_DOUBLE_EQ(bloom::prefilter_fraction(0.9, 0.5, 0.1, hard), 0.0);
  EXPECT_DOUBLE_EQ(bloom::prefilter_fraction(4.0, 1.0, 0.0, hard), 0.75);  // (4 - 1) / 4
  bloom::Config soft = hard;
  soft.knee = 0.5;
  EXPECT_DOUBLE_EQ(bloom::prefilter_fraction(0.4, 0.0, 0.0, soft), 0.0);          // below threshold - knee
  EXPECT_DOUBLE_EQ(bloom::prefilter_fraction(1.0, 0.0, 0.0, soft), 0.125);        // (0.5)^2 / 2 at the threshold
  EXPECT_DOUBLE_EQ(bloom::prefilter_fraction(2.0, 0.0, 0.0, soft), 0.5);          // above: (2 - 1) / 2
  EXPECT_DOUBLE_EQ(bloom::prefilter_fraction(0.0, 0.0, 0.0, soft), 0.0);
  // Continuous where the knee ends, and never above 1 (what blooms is taken from the frame).
  EXPECT_NEAR(bloom::prefilter_fraction(1.5 - 1e-9, 0, 0, soft), bloom::prefilter_fraction(1.5 + 1e-9, 0, 0, soft), 1e-8);
  for (double b = 0.0; b < 10.0; b += 0.01) EXPECT_LE(bloom::prefilter_fraction(b, 0, 0, soft), 1.0);
}

Image random_hdr_frame(glm::ivec2 size, unsigned seed, double peak) {
  Image image(size.x, size.y);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (size_t i = 0; i < image.texels.size(); ++i) image.texels[i] = i % 4 == 3 ? 1.0f : static_cast<float>(peak * std::pow(u(rng), 6.0));
  return image;
}

// The ground truth's layer against the direct 2D sum of each Gaussian term, written here.
TEST(Bloom, GroundTruthLayerIsTheDirectConvolutionWithThePsf) {
  const Image frame = random_hdr_frame({23, 17}, 7, 100.0);
  const bloom::Config c = bloom::config(bloom_values({{"psf", "sum:2@1.5,1@4"}}), {23, 17});
  const Border border{BorderMode::Clamp, {}};
  const ReferenceImage layer = bloom::exact_layer(bloom::prefilter(frame, c), c, border);
  for (int y = 0; y < 17; ++y)
    for (int x = 0; x < 23; ++x)
      for (int ch = 0; ch < 3; ++ch) {
        double expected = 0.0;
        for (const bloom::PsfTerm& t : c.psf) {
          const std::vector<double> w = kernel_weights(fidelity_kernel(t.sigma));
          const int r = static_cast<int>(w.size() / 2);
          for (int j = -r; j <= r; ++j)
            for (int i = -r; i <= r; ++i)
              expected += t.weight * w[static_cast<size_t>(i + r)] * w[static_cast<size_t>(j + r)] *
                          frame.at(std::clamp(x + i, 0, 22), std::clamp(y + j, 0, 16), ch);
        }
        EXPECT_NEAR(layer.at(x, y, ch), expected, 1e-9 * std::max(1.0, expected)) << x << "," << y;
      }
}

// Energy-conserving: a PSF that spreads nothing back where it was (a flat frame) leaves the frame
// as it is; the picture is the tonemapped frame.
TEST(Bloom, CompositeOfAFlatFrameIsTheFrameShown) {
  Image frame(9, 5);
  for (size_t i = 0; i < frame.texels.size(); ++i) frame.texels[i] = i % 4 == 3 ? 1.0f : 3.0f;
  const bloom::Config c = bloom::config(bloom_values({{"psf", "gauss:2"}, {"intensity", "0.7"}, {"threshold", "1"}, {"knee", "0.5"}}), {9, 5});
  const ReferenceImage prefiltered = bloom::prefilter(frame, c);
  const ReferenceImage picture = bloom::composite(frame, prefiltered, bloom::exact_layer(prefiltered, c, {BorderMode::Clamp, {}}), c);
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 9; ++x) EXPECT_NEAR(picture.at(x, y, 1), display_value(3.0), 1e-12);
}

TEST(MipChain, PlanIsEnergyConservingAndTracksSigma) {
  for (double sigma : {3.0, 10.0, 14.4, 21.6, 43.2}) {
    const bloom::Config c = bloom::config(bloom_values({{"psf", "gauss:" + std::to_string(sigma)}}), {3840, 2160});
    const bloom::MipChainPlan p = bloom::mip_chain_plan(c, {3840, 2160});
    double total = 0.0, mean_sigma = 0.0;
    for (size_t l = 0; l < p.weights.size(); ++l) {
      EXPECT_GE(p.weights[l], 0.0);
      total += p.weights[l];
      mean_sigma += p.weights[l] * std::sqrt(1.5 * (std::pow(4.0, static_cast<double>(l)) - 1.0));
    }
    EXPECT_NEAR(total, 1.0, 1e-12) << sigma;
    EXPECT_EQ(p.weights.size(), p.sizes.size());
    // The weighted levels' sigma (at tent scale 1) lies within a factor of 2 of the PSF's: the fit
    // puts the light on the levels around it, not everywhere.
    EXPECT_GT(mean_sigma, sigma / 2.0) << sigma;
    EXPECT_LT(mean_sigma, sigma * 2.0) << sigma;
    EXPECT_GE(p.tent_scale, 0.5);
    EXPECT_LE(p.tent_scale, 2.0);
    // Each level halves the one before it, rounding up.
    for (size_t l = 1; l < p.sizes.size(); ++l) EXPECT_EQ(p.sizes[l], (p.sizes[l - 1] + 1) / 2);
  }
}

report::EffectMeasurement effect_row(const std::string& implementation, double ms, double max_lsb, double psnr, bool ok = true) {
  report::EffectMeasurement m;
  m.effect = find_effect("bloom");
  m.settings.implementation = implementation;
  m.settings.values = bloom_values({});
  m.size = {64, 32};
  m.span_order = {"total", "blur", "blur h", "composite"};
  m.spans_ms = {{"total", {ms, ms}}, {"blur", {ms * 0.75}}, {"blur h", {ms * 0.5}}, {"composite", {ms * 0.25}}};
  EffectCheck check;
  check.stages.push_back({"blur", CheckResult{}, Tolerance{}});
  check.stages.back().result.ok = ok;
  check.fidelity.max_lsb = max_lsb;
  check.fidelity.psnr_db = psnr;
  m.check = check;
  return m;
}

TEST(EffectReport, ConcludesTheFastestWithinOneLsbAndAtTheBar) {
  report::Report r;
  r.effect_rows = {effect_row("fft", 2.0, 1, 66.0), effect_row("compute-separable", 1.5, 1, 70.0), effect_row("dual-kawase", 0.5, 40, 44.0),
                   effect_row("mip-chain", 0.8, 30, 47.0), effect_row("kawase", 0.1, 1, 80.0, /*ok=*/false)};
  const std::vector<report::EffectConclusion> c = report::conclude_effects(r);
  ASSERT_EQ(c.size(), 1u);
  ASSERT_TRUE(c[0].within_one_lsb && c[0].above_bar);
  EXPECT_EQ(c[0].within_one_lsb->settings.implementation, "compute-separable");  // kawase failed its check
  EXPECT_EQ(c[0].above_bar->settings.implementation, "mip-chain");              // dual-kawase is below 45 dB
  // A stage's time counts its passes once: "blur h" is inside "blur".
  const report::EffectStages s = report::effect_stages(r.effect_rows[0]);
  EXPECT_DOUBLE_EQ(*s.blur_ms, 1.5);
  EXPECT_DOUBLE_EQ(*s.composite_ms, 0.5);
  EXPECT_FALSE(s.prefilter_ms);
}

// The fidelity numbers against an independent count: one texel of one channel 4 steps off in a
// 2x2 frame of 3 colour channels: max 4, RMS sqrt(16 / 12), PSNR 20 log10(255 / that).
TEST(EffectReport, PictureFidelityCountsStepsOfTheShippedFrame) {
  Image shipped(2, 2);
  ReferenceImage truth{2, 2, std::vector<double>(16, 0.5)};
  for (size_t i = 0; i < 16; ++i) shipped.texels[i] = static_cast<float>(to_unorm8(0.5) / 255.0);
  shipped.texels[5] += 4.0f / 255.0f;
  shipped.texels[3] = 0.0f;  // alpha is not compared
  const EffectFidelity f = picture_fidelity(shipped, truth);
  EXPECT_DOUBLE_EQ(f.max_lsb, 4.0);
  EXPECT_NEAR(f.rms_lsb, std::sqrt(16.0 / 12.0), 1e-12);
  EXPECT_NEAR(f.psnr_db, 20.0 * std::log10(255.0 / std::sqrt(16.0 / 12.0)), 1e-9);
}

}  // namespace
}  // namespace blurlab
