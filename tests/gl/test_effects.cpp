// Effects on the GL device: the HDR scene they take, and every implementation of bloom run on it,
// each stage checked against the CPU given the stage's own input (EffectInfo::check) and the
// shipped frame measured against the CPU ground truth. A break in the prefilter, the blur stage,
// the mip chain's weights, the composite or the tonemap fails a stage's check.
#include <algorithm>
#include <cmath>

#include "bench/effect_measure.h"
#include "blur/registry.h"
#include "effects/bloom.h"
#include "effects/registry.h"
#include "gl/timer_pool.h"
#include "gl_fixture.h"
#include "scene/scene.h"

namespace blurlab::test {
namespace {

// Small frames: the CPU ground truth and llvmpipe's shaders stay quick; 96x54 has 3x4 and 6x4
// workgroups of 16x16 with partial ones at the right and bottom, and a mip chain of several levels.
constexpr glm::ivec2 kFrame{96, 54};

class Effects : public GlTest {};

TEST_F(Effects, HdrSceneHasLightsFarAboveWhiteAndADepth) {
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  Scene scene(programs);
  bench::EffectInput input({160, 90});
  scene.render_hdr(input.color, input.depth, 1.0);
  const Image& color = input.color_pixels();
  const Image& depth = input.depth_pixels();
  float brightest = 0.0f, darkest = 1e9f;
  for (size_t i = 0; i < color.texels.size(); ++i)
    if (i % 4 != 3) {
      brightest = std::max(brightest, color.texels[i]);
      darkest = std::min(darkest, color.texels[i]);
    }
  EXPECT_GT(brightest, 20.0f) << "the emissive faces: lights for bloom to spread";
  EXPECT_LE(brightest, static_cast<float>(Scene::kMaxEmission) * 1.2f);
  EXPECT_GE(darkest, 0.0f);
  // Depth: the backdrop at the far plane (1), the icosahedra nearer, between the camera's planes.
  float nearest = 1.0f;
  size_t far = 0;
  for (size_t i = 0; i < depth.texel_count(); ++i) {
    nearest = std::min(nearest, depth.texels[i * 4]);
    far += depth.texels[i * 4] == 1.0f;
  }
  EXPECT_GT(far, depth.texel_count() / 10);
  const SceneCamera camera;
  EXPECT_GT(camera.view_depth(nearest), 5.0);  // the grid lies at z = 0 .. -1.5, 7.5 from the eye
  EXPECT_LT(camera.view_depth(nearest), 8.0);
}

struct BloomCase {
  std::string implementation;
  std::map<std::string, std::string> values;
};
void PrintTo(const BloomCase& c, std::ostream* os) { *os << c.implementation; }

// Runs bloom through the measurer's checked path (poisoned textures, one run, EffectInfo::check).
report::EffectMeasurement checked_bloom(const std::string& implementation, const std::map<std::string, std::string>& values,
                                        double time = 1.0) {
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  gl::TimerPool timers(gl::make_gl_query_backend(true));
  EffectPipeline pipeline(programs, gl_info().limits, &timers);
  bench::EffectMeasurer measurer(pipeline, timers, {});
  Scene scene(programs);
  bench::EffectInput input(kFrame);
  scene.render_hdr(input.color, input.depth, time);
  const EffectInfo& bloom = *find_effect("bloom");
  EffectSettings settings;
  settings.implementation = implementation;
  settings.values = resolve_effect(bloom, EffectValues(values.begin(), values.end()));
  settings.border = {BorderMode::Clamp, {}};
  return measurer.measure(input, bloom, settings, true, 0);
}

// Every stage within its tolerance; an exact blur stage's picture within 1 LSB of the ground truth;
// with `judged`, an approximation's too within a loose bound (a bloom of this PSF at all).
void expect_checked(const report::EffectMeasurement& m, bool judged = true) {
  ASSERT_FALSE(m.unsupported) << m.settings.implementation << " refused: " << m.unsupported->reason;
  ASSERT_TRUE(m.check);
  for (const StageCheck& s : m.check->stages)
    EXPECT_TRUE(s.result.ok) << m.settings.implementation << " stage " << s.stage << ": " << s.result.text() << ", " << s.result.worst_text()
                             << " (" << s.tolerance.reason << ")";
  const EffectFidelity& f = m.check->fidelity;
  const VariantInfo* v = find_variant(m.settings.implementation);
  // An exact blur stage: the shipped frame within 1 LSB of the ground truth (its stages' fp16
  // stores and fp32 sums move the picture by far less than a step; one rounding to 8 bits).
  if (v && !is_approximation(*v)) {
    EXPECT_LE(f.max_lsb, 1.0) << m.settings.implementation;
  }
  if (!judged) return;
  // A bloom of this PSF at all (the worst here, the mip chain's sum with a 1.5-pixel term on 54
  // rows, is 29.6 dB; a composite that drops the layer is below 20).
  EXPECT_GT(f.psnr_db, 25.0) << m.settings.implementation << ": not a bloom of this PSF at all";
  EXPECT_LT(f.layer_rms_relative, v && !is_approximation(*v) ? 0.005 : 0.2) << m.settings.implementation;
}

class BloomImplementations : public GlTestWithParam<BloomCase> {};

TEST_P(BloomImplementations, EveryStageMatchesTheCpuAndTheFrameTheGroundTruth) { expect_checked(checked_bloom(GetParam().implementation, GetParam().values)); }

std::vector<BloomCase> every_implementation() {
  std::vector<BloomCase> cases;
  for (const std::string& name : find_effect("bloom")->implementations()) {
    // A PSF of 3 pixels: every variant runs it within llvmpipe's limits, and the mip chain's
    // levels reach it (its first level's response is 2.1 pixels wide).
    cases.push_back({name, {{"psf", "gauss:3"}}});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Bloom, BloomImplementations, ::testing::ValuesIn(every_implementation()), [](const auto& p) {
  std::string name = p.param.implementation;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
});

// The threshold's soft knee (a prefilter pass), a sum of Gaussians (a blur per term), and wide
// terms: the exact path, the FFT, an approximation and the mip chain.
TEST_F(Effects, BloomWithThresholdAndSumOfGaussians) {
  for (const char* implementation : {"compute-separable", "fft", "recursive-gaussian", "mip-chain"}) {
    const report::EffectMeasurement m =
        checked_bloom(implementation, {{"psf", "sum:0.5@1.5,0.3@5,0.2@12"}, {"threshold", "1"}, {"knee", "0.5"}, {"intensity", "0.3"}});
    expect_checked(m);
    ASSERT_TRUE(m.check);
    EXPECT_EQ(m.check->stages.front().stage, "prefilter") << implementation;
  }
}

// The radius limit does not cap an effect: a PSF of 5% of a 4K frame's height (r = 324) runs on
// the variants whose cost does not grow with r, and the others refuse it with the numbers (on a
// 96x54 frame, a sigma in pixels: 110, r = 330; so wide a PSF on so small a frame is mostly
// border, so only the stages and the exact FFT's picture are judged).
TEST_F(Effects, WidePsfRunsWhereTheCostDoesNotGrowWithTheRadius) {
  for (const char* implementation : {"fft", "mip-chain"}) expect_checked(checked_bloom(implementation, {{"psf", "gauss:110"}}), false);
  const report::EffectMeasurement refused = checked_bloom("compute-separable", {{"psf", "gauss:110"}});
  ASSERT_TRUE(refused.unsupported);
  EXPECT_EQ(refused.unsupported->limit, Limit::Reach);
  EXPECT_EQ(refused.unsupported->needed, 330.0);
  EXPECT_EQ(refused.unsupported->available, 128.0);
}

}  // namespace
}  // namespace blurlab::test
