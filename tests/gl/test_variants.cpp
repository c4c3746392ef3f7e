// Every registered variant against the CPU reference: radii, both kernels, every intermediate
// format, both input formats, knob candidates, and sizes that do not fit any workgroup.
#include <algorithm>
#include <random>
#include <sstream>

#include "blur/check.h"
#include "blur/pipeline.h"
#include "blur/reference.h"
#include "blur/registry.h"
#include "gl_fixture.h"

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

struct VariantRun {
  const VariantInfo* variant;
  BlurSettings settings;
};

// Every setting a variant must be right for at one (size, input, kernel): each intermediate
// format it can use, and each knob candidate with the other knobs at their defaults.
std::vector<VariantRun> runs_for(const Kernel& kernel, gl::Format input, bool with_knobs) {
  std::vector<VariantRun> runs;
  for (const VariantInfo* v : variants()) {
    BlurSettings base;
    base.kernel = kernel;
    base.input_format = input;
    std::vector<BlurSettings> list;
    if (v->uses_intermediate) {
      for (const auto& f : gl::kFormats) {
        BlurSettings s = base;
        s.intermediate = f.format;
        list.push_back(s);
      }
    } else {
      list.push_back(base);
    }
    if (with_knobs && kernel.type == KernelType::Gauss) {  // knobs change how, not what: one kernel
      for (size_t i = 1; i < v->workgroups.size(); ++i) { BlurSettings s = base; s.workgroup = v->workgroups[i]; list.push_back(s); }
      for (size_t i = 1; i < v->unrolls.size(); ++i) { BlurSettings s = base; s.unroll = v->unrolls[i]; list.push_back(s); }
      for (size_t i = 1; i < v->segments.size(); ++i) { BlurSettings s = base; s.segment = v->segments[i]; list.push_back(s); }
      for (size_t i = 1; i < v->cache_bits.size(); ++i) { BlurSettings s = base; s.cache_bits = v->cache_bits[i]; list.push_back(s); }
    }
    for (const BlurSettings& s : list) runs.push_back({v, s});
  }
  return runs;
}

// 2D variants cost (2r+1)^2 taps (or (r+1)^2 bilinear fetches) per pixel, which a CPU rasterizer
// pays in full: past ~300 loop iterations per invocation they run at 131x97 only.
bool reduced_size(const VariantInfo& v, const BlurSettings& s) {
  return v.loop_iterations && v.loop_iterations(resolve(v, s), {517, 389}) > 300.0;
}

class VariantsMatchReference : public GlTestWithParam<int> {};

TEST_P(VariantsMatchReference, AtRadius) {
  const int radius = GetParam();
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  BlurPipeline pipeline(programs, gl_info().limits);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float poison_float[4] = {nan, nan, nan, nan};
  const float poison_unorm[4] = {1.0f, 0.0f, 1.0f, 0.5f};
  int checked = 0, unsupported = 0;

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
        const ReferenceImage reference = reference_blur(uploaded, kernel_weights(kernel));
        const ReferenceImage identity = reference_blur(uploaded, {1.0});
        const bool with_knobs = size.x == 517 && input == gl::Format::rgba8;
        for (const VariantRun& run : runs_for(kernel, input, with_knobs)) {
          // Naive 2D at large r runs at 131x97 only; everything else at every size.
          if (reduced_size(*run.variant, run.settings) && size.x * size.y > 131 * 97) continue;
          const BlurSettings resolved = resolve(*run.variant, run.settings);
          const std::string what = std::string(run.variant->name) + " " + describe(*run.variant, resolved) + " " +
                                   std::to_string(size.x) + "x" + std::to_string(size.y);
          const auto reason = pipeline.configure(*run.variant, run.settings, size);
          if (reason) {
            ++unsupported;
            // Only declared limits may refuse: box-only kernels, rgba8 intermediates for HDR,
            // or the variant's own check; never a plain supported setting.
            EXPECT_TRUE(run.variant->kernels == KernelSupport::BoxOnly || run.variant->check || run.variant->loop_iterations ||
                        (gl::info(input).is_float && resolved.intermediate_format() == gl::Format::rgba8))
                << what << " refused: " << *reason;
            continue;
          }
          pipeline.run(source, destination);  // allocates intermediates, then poison everything
          pipeline.poison_intermediates(poison_float);
          gl::fill(destination, gl::info(input).is_float ? poison_float : poison_unorm);
          pipeline.run(source, destination);
          const Tolerance tolerance = tolerance_for(*run.variant, resolved, size, peak_magnitude(uploaded));
          const CheckResult result =
              compare_to_reference(destination.download(), run.variant->is_blur ? reference : identity, tolerance);
          EXPECT_TRUE(result.ok) << what << ": " << result.text() << ", " << result.worst_fraction << "x tolerance at ("
                                 << result.worst_x << "," << result.worst_y << ") channel " << result.worst_channel << " ["
                                 << tolerance.reason << "]";
          ++checked;
        }
      }
    }
  EXPECT_GT(checked, 0);
  RecordProperty("checked", checked);
  RecordProperty("unsupported", unsupported);
}

INSTANTIATE_TEST_SUITE_P(Radii, VariantsMatchReference, ::testing::Values(0, 1, 2, 7, 16, 33, 64, kMaxRadius),
                         [](const auto& p) { return "r" + std::to_string(p.param); });

}  // namespace
}  // namespace blurlab::test
