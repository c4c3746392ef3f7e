// Every registered variant against the CPU reference: radii, both kernels, every intermediate
// format, both input formats, every knob candidate, and sizes that do not fit any workgroup.
//
// One test per (variant, radius), named Grid/VariantGrid.MatchesReference/<variant>_r<R> (dashes
// become underscores); CTest names them gl.<variant>.r<R> (tests/gl_grid_tests.cmake), so
// `ctest -R compute-sliding` runs one variant's cases.
//
// A refusal is a failure unless the case expects it: a box-only variant must refuse the
// Gaussian (and only it), a float input must refuse an rgba8 intermediate, and otherwise only
// declared device limits (shared memory, loop counts) may refuse, never the variant's default
// knobs at the reference radii: a variant that stops running fails here.
#include <algorithm>
#include <random>
#include <sstream>

#include "blur/check.h"
#include "blur/pipeline.h"
#include "blur/reference.h"
#include "blur/registry.h"
#include "gl_fixture.h"
#include "util/strings.h"

namespace blurlab::test {
namespace {

// Noise with hard edges: every wrong tap, offset or border shows. rgba8 inputs are quantized
// by the upload; rgba16f inputs are linear-light HDR values up to 4.
Image test_image(glm::ivec2 size, gl::Format format, unsigned seed) {
  Image image(size.x, size.y);
  std::mt19937 rng(seed);
  const float peak = format == gl::Format::rgba8 ? 1.0f : 4.0f;
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (int y = 0; y < size.y; ++y)
    for (int x = 0; x < size.x; ++x)
      for (int c = 0; c < 4; ++c) {
        const bool block = ((x / 9) + (y / 7) + c) % 3 == 0;
        image.at(x, y, c) = peak * (block ? 1.0f : 0.0f) * 0.7f + peak * 0.3f * u(rng);
      }
  return image;
}

// Radii up to this one must run with the default knobs at every size: the reference radii.
constexpr int kReferenceRadius = 16;

// What a run expects of the pipeline.
enum class Expect { Run, RefuseKernel, RefuseFormat, RunOrDeclaredLimit };

struct SettingRun {
  BlurSettings settings;
  bool defaults;  // the variant's default knobs
};

// Every setting a variant must be right for at one (size, input, kernel): each intermediate
// format it can use, and, with `with_knobs`, each knob candidate with the other knobs at their
// defaults.
std::vector<SettingRun> runs_for(const VariantInfo& v, const Kernel& kernel, gl::Format input, bool with_knobs) {
  BlurSettings base;
  base.kernel = kernel;
  base.input_format = input;
  std::vector<SettingRun> runs;
  if (v.uses_intermediate) {
    for (const auto& f : gl::kFormats) {
      BlurSettings s = base;
      s.intermediate = f.format;
      runs.push_back({s, true});
    }
  } else {
    runs.push_back({base, true});
  }
  if (with_knobs)
    for (const Knob& k : v.knobs)
      for (size_t i = 1; i < k.candidates.size(); ++i) {
        BlurSettings s = base;
        s.knobs[std::string(k.name)] = k.candidates[i];
        runs.push_back({s, false});
      }
  return runs;
}

Expect expectation(const VariantInfo& v, const SettingRun& run) {
  const BlurSettings resolved = resolve(v, run.settings);
  if (is_blur(v) && v.kernels == KernelSupport::BoxOnly && resolved.kernel.type != KernelType::Box) return Expect::RefuseKernel;
  if (v.uses_intermediate && gl::info(resolved.input_format).is_float && resolved.intermediate_format() == gl::Format::rgba8)
    return Expect::RefuseFormat;
  if (run.defaults && resolved.kernel.radius <= kReferenceRadius) return Expect::Run;
  return Expect::RunOrDeclaredLimit;
}

// 2D variants cost (2r+1)^2 taps (or (r+1)^2 bilinear fetches) per pixel, which a CPU rasterizer
// pays in full: past ~300 loop iterations per invocation they run at 131x97 only.
bool reduced_size(const VariantInfo& v, const BlurSettings& s) {
  return v.loop_iterations && v.loop_iterations(resolve(v, s), {517, 389}) > 300.0;
}

struct GridCase {
  const VariantInfo* variant;
  int radius;
};

class VariantGrid : public GlTestWithParam<GridCase> {};

TEST_P(VariantGrid, MatchesReference) {
  const VariantInfo& variant = *GetParam().variant;
  const int radius = GetParam().radius;
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  BlurPipeline pipeline(programs, gl_info().limits);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float poison_float[4] = {nan, nan, nan, nan};
  const float poison_unorm[4] = {1.0f, 0.0f, 1.0f, 0.5f};
  int checked = 0, refused = 0;

  // r = 128, the largest radius, on the smaller sizes only (it is mostly about refusals and
  // limits: shared memory, loop counts).
  std::vector<glm::ivec2> sizes{{517, 389}, {131, 97}, {1, 1}, {3, 2}};
  if (radius == kMaxRadius) sizes.erase(sizes.begin());
  for (glm::ivec2 size : sizes)
    for (gl::Format input : {gl::Format::rgba8, gl::Format::rgba16f}) {
      gl::Texture source(size.x, size.y, input), destination(size.x, size.y, input);
      source.upload(test_image(size, input, static_cast<unsigned>(size.x * 31 + size.y + radius)));
      const Image uploaded = source.download();  // exactly what the GPU blurs
      for (KernelType type : {KernelType::Box, KernelType::Gauss}) {
        const Kernel kernel = make_kernel(type, radius, std::nullopt);
        // Knobs change how, not what: their candidates run once per size, at rgba8, with a kernel
        // the variant supports.
        const KernelType knob_kernel = variant.kernels == KernelSupport::BoxOnly ? KernelType::Box : KernelType::Gauss;
        const bool with_knobs = (size.x == 517 || radius == kMaxRadius) && input == gl::Format::rgba8 && type == knob_kernel;
        std::optional<ReferenceImage> reference;
        for (const SettingRun& run : runs_for(variant, kernel, input, with_knobs)) {
          // Naive 2D at large r runs at 131x97 only; everything else at every size.
          if (reduced_size(variant, run.settings) && size.x * size.y > 131 * 97) continue;
          const BlurSettings resolved = resolve(variant, run.settings);
          const std::string what = std::string(variant.name) + " " + describe(variant, resolved) + " " + size_text(size);
          const Expect expect = expectation(variant, run);
          const auto reason = pipeline.configure(variant, run.settings, size);
          if (expect == Expect::RefuseKernel || expect == Expect::RefuseFormat) {
            ++refused;
            ASSERT_TRUE(reason) << what << " must be refused";
            EXPECT_NE(reason->find(expect == Expect::RefuseKernel ? "box kernel only" : "rgba8 intermediate"), std::string::npos)
                << what << " refused for another reason: " << *reason;
            continue;
          }
          if (reason) {
            ++refused;
            EXPECT_EQ(expect, Expect::RunOrDeclaredLimit) << what << " refused: " << *reason;
            continue;
          }
          if (!reference) reference = reference_blur(uploaded, kernel_weights(reference_kernel(variant, resolved)), resolved.border);
          pipeline.run(source, destination);  // allocates intermediates, then poison everything
          pipeline.poison_intermediates(poison_float);
          gl::fill(destination, gl::info(input).is_float ? poison_float : poison_unorm);
          pipeline.run(source, destination);
          const Tolerance tolerance = tolerance_for(variant, resolved, size, peak_magnitude(uploaded));
          const CheckResult result = compare_to_reference(destination.download(), *reference, tolerance);
          EXPECT_TRUE(result.ok) << what << ": " << result.text() << ", " << result.worst_fraction << "x tolerance at ("
                                 << result.worst_x << "," << result.worst_y << ") channel " << result.worst_channel << " ["
                                 << tolerance.reason << "]";
          ++checked;
        }
      }
    }
  if (radius <= kReferenceRadius) {
    EXPECT_GT(checked, 0) << "nothing of " << variant.name << " ran at r = " << radius;
  }
  RecordProperty("checked", checked);
  RecordProperty("refused", refused);
}

std::vector<GridCase> grid() {
  std::vector<GridCase> cases;
  for (const VariantInfo* v : variants())
    for (int r : {0, 1, 2, 7, 16, 33, 64, kMaxRadius}) cases.push_back({v, r});
  return cases;
}

std::string grid_name(const ::testing::TestParamInfo<GridCase>& p) {
  std::string name(p.param.variant->name);
  std::replace(name.begin(), name.end(), '-', '_');
  return name + "_r" + std::to_string(p.param.radius);
}

INSTANTIATE_TEST_SUITE_P(Grid, VariantGrid, ::testing::ValuesIn(grid()), grid_name);

}  // namespace
}  // namespace blurlab::test
