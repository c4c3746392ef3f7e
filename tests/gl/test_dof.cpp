// Depth of field (effects/dof.h) on the HDR scene, gl.Dof*: each technique's passes against its
// CPU model (EffectInfo::check, every stage within its stated tolerance), the techniques against
// the lens itself (the scene rendered over the aperture), and that ground truth: a pinhole's is the
// sharp frame, and it converges as views are added.
//
// Small frames (llvmpipe renders every view of the ground truth): 160x90 with an aperture wide
// enough for circles of up to 11 pixels there (28 mm at f/0.25: the backdrop's circle is the
// default lens's at 1080 rows, f/2, scaled by 90/1080 and by 8).
#include <cmath>
#include <cstdio>

#include "bench/effect_measure.h"
#include "effects/dof.h"
#include "effects/registry.h"
#include "effects/scene_mean.h"
#include "effects/tonemap.h"
#include "gl_fixture.h"
#include "util/strings.h"

namespace blurlab::test {
namespace {

constexpr glm::ivec2 kSize{160, 90};
constexpr double kTime = 1.0;
// The GPU target's margin at depth edges over the best per-pixel gather (at 1920x1080, f/2); the
// gathers' halos cost them as much at this small size and wide aperture.
constexpr double kNearFarMarginDb = 6.0;
// N views against 2N at the views --lens-views auto takes: a tenth of the RMS by which the closest
// technique misses the lens here (more than 25 LSB), so the ground truth can rank them. Points of
// an aperture integrate an edge seen through it (a half-plane over the disk) with an error that
// falls about as N^(-3/4), not faster: this is a bound, not a convergence to zero.
constexpr double kConvergedRmsLsb = 2.5;

const EffectInfo& dof_effect() { return *find_effect("dof"); }

EffectSettings settings(const std::string& implementation, const EffectValues& given) {
  EffectSettings s;
  s.implementation = implementation;
  s.values = resolve_effect(dof_effect(), given);
  return s;
}

const EffectValues kWide = {{"f-number", "0.25"}};

// One frame of the scene through the effect's measurer (no timed frames, one checked run).
struct DofRun {
  gl::ProgramCache programs{gl::ShaderSources::embedded()};
  Scene scene{programs};
  gl::TimerPool timers{gl::make_gl_query_backend(gl_info().software)};
  EffectPipeline pipeline{programs, gl_info().limits, &timers};
  bench::EffectMeasurer measurer{pipeline, timers, bench::TimingPolicy{}};
  bench::EffectInput input{kSize};

  explicit DofRun(const EffectValues& values) {
    input.render(scene, programs, kTime, effect_camera(dof_effect(), resolve_effect(dof_effect(), values), kSize));
  }
  report::EffectMeasurement measure(const std::string& implementation, const EffectValues& values) {
    return measurer.measure(input, dof_effect(), settings(implementation, values), true, 0);
  }
};

std::string stages_text(const EffectCheck& check) {
  std::string text;
  for (const StageCheck& s : check.stages)
    text += "\n  " + s.stage + (s.result.ok ? " ok " : " FAILED ") + s.result.text() + ", " + s.result.worst_text() + " [" + s.tolerance.reason + "]";
  return text;
}

void expect_every_stage_within(const report::EffectMeasurement& m) {
  ASSERT_FALSE(m.unsupported) << m.settings.implementation << " refused: " << m.unsupported->reason;
  ASSERT_TRUE(m.check);
  EXPECT_TRUE(m.check->ok()) << m.settings.implementation << ":" << stages_text(*m.check);
  EXPECT_GE(m.check->stages.size(), 3u);
}

class Dof : public GlTest {};

// The engines' technique, pass by pass against its model (the ground truth averages few views
// here: this test is about the passes, the lens's fidelity is below).
TEST_F(Dof, NearFarMatchesItsModel) {
  EffectValues values = kWide;
  values["lens-views"] = "16";
  DofRun run(values);
  const report::EffectMeasurement m = run.measure(std::string(dof::kNearFar), values);
  expect_every_stage_within(m);
  // Its fields hold something: a frame with circles of up to 11 pixels has far and near texels.
  const Image far = run.pipeline.download(dof::kFarSlot), near = run.pipeline.download(dof::kNearSlot);
  int far_texels = 0, near_texels = 0;
  for (size_t i = 3; i < far.texels.size(); i += 4) {
    far_texels += far.texels[i] > 0.0f;
    near_texels += near.texels[i] > 0.0f;
  }
  EXPECT_GT(far_texels, static_cast<int>(far.texels.size() / 8)) << "the backdrop lies in the far field";
  EXPECT_GT(near_texels, 0) << "the nearest objects lie in the near field";
}

// A variable-radius variant fed the circles (the levels made on the GPU, in place of a map): the
// levels, the variant's blur at them, the tonemap.
class DofVariant : public GlTestWithParam<std::string> {};

TEST_P(DofVariant, MatchesItsReference) {
  EffectValues values = kWide;
  values["lens-views"] = "16";
  DofRun run(values);
  expect_every_stage_within(run.measure(GetParam(), values));
}

INSTANTIATE_TEST_SUITE_P(Dof, DofVariant, ::testing::Values("variable-naive", "variable-sat", "variable-pyramid", "variable-layers"),
                         [](const auto& p) {
                           std::string name = p.param;
                           for (char& ch : name)
                             if (ch == '-') ch = '_';
                           return name;
                         });

// Every technique against the lens: the per-pixel gathers spread sharp objects over the blurred
// backdrop and cut blurred ones off, which the near and far fields do not, so near-far comes closer
// to the lens at depth edges than the best of them.
TEST_F(Dof, NearFarIsCloserToTheLensAtDepthEdgesThanEveryPerPixelGather) {
  DofRun run(kWide);
  double best_gather = -INFINITY;
  std::string best;
  std::optional<EffectFidelity> near_far;
  for (const std::string& implementation : dof_effect().implementations()) {
    const report::EffectMeasurement m = run.measure(implementation, kWide);
    expect_every_stage_within(m);
    const EffectFidelity& f = m.check->fidelity;
    std::printf("%-18s frame %5.1f dB max %3.0f LSB   %s %5.1f dB max %3.0f LSB (%zu pixels)\n", implementation.c_str(), f.psnr_db, f.max_lsb,
                f.region.c_str(), f.region_psnr_db, f.region_max_lsb, f.region_pixels);
    EXPECT_GT(f.region_pixels, static_cast<size_t>(kSize.x * kSize.y / 20)) << "the scene has depth edges";
    if (implementation == dof::kNearFar) {
      near_far = f;
    } else if (f.region_psnr_db > best_gather) {
      best_gather = f.region_psnr_db;
      best = implementation;
    }
  }
  ASSERT_TRUE(near_far);
  EXPECT_GE(near_far->region_psnr_db, best_gather + kNearFarMarginDb) << "best per-pixel gather: " << best;
}

// The ground truth of a pinhole (a lens of no aperture): every view is the frame's camera, so the
// mean is the frame itself, bit for bit, and so is its picture.
TEST_F(Dof, PinholesGroundTruthIsTheSharpFrame) {
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  Scene scene(programs);
  dof::Lens pinhole;
  pinhole.f_number = INFINITY;  // aperture 0
  bench::EffectInput input(kSize);
  input.render(scene, programs, kTime, pinhole.camera());
  const std::vector<SceneCamera> views = dof::lens_views(pinhole, 8);
  for (const SceneCamera& v : views) ASSERT_EQ(v.lens_offset, glm::vec2(0.0f));
  const Image mean = input.scene_mean(views);
  const Image& frame = input.color_pixels();
  ASSERT_EQ(mean.texels.size(), frame.texels.size());
  for (size_t i = 0; i < mean.texels.size(); ++i)
    if (i % 4 != 3) {
      ASSERT_EQ(mean.texels[i], frame.texels[i]) << "texel " << i / 4;
    }
}

// The ground truth converges: the RMS difference of the pictures of N and 2N views shrinks as N
// grows, and at the views --lens-views auto takes here (the aperture sampled a pixel apart at the
// largest circle) the picture of N views and of 2N differ by at most kConvergedRmsLsb RMS.
TEST_F(Dof, GroundTruthConverges) {
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  Scene scene(programs);
  const dof::Config c = dof::config(resolve_effect(dof_effect(), kWide), kSize);
  bench::EffectInput input(kSize);
  input.render(scene, programs, kTime, c.lens.camera());
  const auto picture = [&](int n) {
    const Image mean = input.scene_mean(dof::lens_views(c.lens, n));
    std::vector<double> out(mean.texels.size());
    for (size_t i = 0; i < out.size(); ++i) out[i] = to_unorm8(display_value(mean.texels[i]));
    return out;
  };
  const auto rms = [](const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0.0;
    size_t count = 0;
    for (size_t i = 0; i < a.size(); ++i)
      if (i % 4 != 3) {
        sum += (a[i] - b[i]) * (a[i] - b[i]);
        ++count;
      }
    return std::sqrt(sum / count);
  };
  // v / 8, v / 4, v / 2, v and 2v views, v the auto count: each doubling closer than the last.
  std::vector<std::vector<double>> pictures;
  for (int n : {c.views / 8, c.views / 4, c.views / 2, c.views, 2 * c.views}) pictures.push_back(picture(n));
  std::vector<double> differences;
  for (size_t i = 1; i < pictures.size(); ++i) {
    differences.push_back(rms(pictures[i - 1], pictures[i]));
    std::printf("views x%zu: RMS %.3f LSB\n", i, differences.back());
  }
  for (size_t i = 1; i < differences.size(); ++i) EXPECT_LT(differences[i], differences[i - 1]) << "doubling " << i;
  EXPECT_LE(differences.back(), kConvergedRmsLsb) << c.views << " views against " << 2 * c.views;
}

}  // namespace
}  // namespace blurlab::test

