// Every registered variant against the CPU reference: radii, both kernels, every intermediate
// format, both input formats, every knob candidate, sizes that do not fit any workgroup, and
// every border mode.
//
// One test per (variant, radius), named Grid/VariantGrid.MatchesReference/<variant>_r<R> (dashes
// become underscores), and one per (variant, border mode other than clamp), named
// Borders/BorderGrid.MatchesReference/<variant>_border_<mode>; CTest names them gl.<variant>.r<R>
// and gl.<variant>.border_<mode> (tests/gl_grid_tests.cmake), so `ctest -R compute-sliding` runs
// one variant's cases.
//
// A refusal is a failure unless the case expects it: a box-only variant must refuse the
// Gaussian (and only it), an approximation of the Gaussian the box, a float input must refuse an
// rgba8 intermediate, a variant must refuse the border modes it declares
// (VariantInfo::refused_borders) with the reason, and otherwise only declared device limits
// (shared memory, loop counts) may refuse, never the variant's default knobs at the reference
// radii: a variant that stops running fails here.
//
// An approximation is checked against the CPU model of its own algorithm (with the tolerance it
// states), for the Gaussian of sigma = r / 3 each radius asks for.
#include <algorithm>
#include <limits>
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
enum class Expect { Run, RefuseKernel, RefuseFormat, RefuseBorder, RunOrDeclaredLimit };

struct SettingRun {
  BlurSettings settings;
  bool defaults;  // the variant's default knobs
};

// Which knob candidates a run list takes: none, or every `of`-th one from the `part`-th (all:
// part 0 of 1), counting the candidates of all knobs in turn.
struct KnobShare {
  int part = 0, of = 0;
};
constexpr KnobShare kAllKnobs{0, 1};

// Every setting a variant must be right for at one (size, input, kernel, border): each
// intermediate format it can use, and the knob candidates of `knobs`, each with the other knobs
// at their defaults.
std::vector<SettingRun> runs_for(const VariantInfo& v, const Kernel& kernel, const Border& border, gl::Format input,
                                 KnobShare knobs = {}) {
  BlurSettings base;
  base.kernel = kernel;
  base.border = border;
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
  int candidate = 0;
  if (knobs.of > 0)
    for (const Knob& k : v.knobs)
      for (size_t i = 1; i < k.candidates.size(); ++i)
        if (candidate++ % knobs.of == knobs.part) {
          BlurSettings s = base;
          s.knobs[std::string(k.name)] = k.candidates[i];
          runs.push_back({s, false});
        }
  return runs;
}

bool refuses_border(const VariantInfo& v, BorderMode mode) {
  return std::any_of(v.refused_borders.begin(), v.refused_borders.end(), [&](const auto& refused) { return refused.first == mode; });
}

Expect expectation(const VariantInfo& v, const SettingRun& run) {
  const BlurSettings resolved = resolve(v, run.settings);
  if (is_blur(v) && v.kernels == KernelSupport::BoxOnly && resolved.kernel.type != KernelType::Box) return Expect::RefuseKernel;
  if (is_blur(v) && v.kernels == KernelSupport::GaussOnly && resolved.kernel.type != KernelType::Gauss) return Expect::RefuseKernel;
  if (v.uses_intermediate && gl::info(resolved.input_format).is_float && resolved.intermediate_format() == gl::Format::rgba8)
    return Expect::RefuseFormat;
  if (refuses_border(v, resolved.border.mode)) return Expect::RefuseBorder;
  if (run.defaults && resolved.kernel.radius <= kReferenceRadius) return Expect::Run;
  return Expect::RunOrDeclaredLimit;
}

// 2D variants cost (2r+1)^2 taps (or (r+1)^2 bilinear fetches) per pixel, which a CPU rasterizer
// pays in full: past ~300 loop iterations per invocation they run at 131x97 only.
bool reduced_size(const VariantInfo& v, const BlurSettings& s) {
  return v.loop_iterations && v.loop_iterations(resolve(v, s), {517, 389}) > 300.0;
}

// Blurs a source with settings and checks each output against the CPU reference, with the
// targets poisoned, counting what ran and what was refused.
class Checker {
 public:
  explicit Checker(const VariantInfo& variant) : variant_(variant), programs_(gl::ShaderSources::embedded()), pipeline_(programs_, gl_info().limits) {}

  // Every run of `runs` on `source` (its texels read back in `uploaded`), all of one kernel and border.
  void check(const gl::Texture& source, gl::Texture& destination, const Image& uploaded, const std::vector<SettingRun>& runs) {
    const glm::ivec2 size{source.width(), source.height()};
    const gl::Format input = source.format();
    std::optional<ReferenceImage> reference;
    std::optional<gl::Format> reference_intermediate;  // an approximation's model's
    for (const SettingRun& run : runs) {
      // Naive 2D at large r runs at 131x97 only; everything else at every size.
      if (reduced_size(variant_, run.settings) && size.x * size.y > 131 * 97) continue;
      const BlurSettings resolved = resolve(variant_, run.settings);
      const std::string what = std::string(variant_.name) + " " + describe(variant_, resolved) + " " + size_text(size);
      const Expect expect = expectation(variant_, run);
      const auto reason = pipeline_.configure(variant_, run.settings, size);
      if (expect == Expect::RefuseKernel || expect == Expect::RefuseFormat || expect == Expect::RefuseBorder) {
        ++refused;
        ASSERT_TRUE(reason) << what << " must be refused";
        const char* why = expect == Expect::RefuseKernel ? "kernel only"
                          : expect == Expect::RefuseFormat ? "rgba8 intermediate"
                                                           : "border ";
        EXPECT_NE(reason->find(why), std::string::npos) << what << " refused for another reason: " << *reason;
        continue;
      }
      if (reason) {
        ++refused;
        EXPECT_EQ(expect, Expect::RunOrDeclaredLimit) << what << " refused: " << *reason;
        continue;
      }
      // One reference per (kernel, border): the runs share both. An approximation's is the output of
      // its CPU model, which also depends on the intermediate format (not on knobs: they change
      // how, not what; the models do not read them).
      const std::optional<gl::Format> intermediate =
          is_approximation(variant_) ? std::optional(resolved.intermediate_format()) : std::nullopt;
      if (!reference || intermediate != reference_intermediate) {
        reference = expected_output(variant_, resolved, uploaded);
        reference_intermediate = intermediate;
      }
      pipeline_.run(source, destination);  // allocates intermediates, then poison everything
      pipeline_.poison_intermediates(kPoisonFloat);
      gl::fill(destination, gl::info(input).is_float ? kPoisonFloat : kPoisonUnorm);
      pipeline_.run(source, destination);
      const Tolerance tolerance = tolerance_for(variant_, resolved, size, peak_magnitude(uploaded));
      const CheckResult result = compare_to_reference(destination.download(), *reference, tolerance);
      EXPECT_TRUE(result.ok) << what << ": " << result.text() << ", " << result.worst_fraction << "x tolerance at ("
                             << result.worst_x << "," << result.worst_y << ") channel " << result.worst_channel << " ["
                             << tolerance.reason << "]";
      ++checked;
    }
  }

  int checked = 0, refused = 0;

 private:
  static constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
  static constexpr float kPoisonFloat[4] = {kNan, kNan, kNan, kNan};
  static constexpr float kPoisonUnorm[4] = {1.0f, 0.0f, 1.0f, 0.5f};
  const VariantInfo& variant_;
  gl::ProgramCache programs_;
  BlurPipeline pipeline_;
};

// The source of one (size, input format): the test image uploaded, and read back as the GPU sees it.
struct Source {
  Source(glm::ivec2 size, gl::Format input, unsigned seed) : texture(size.x, size.y, input), destination(size.x, size.y, input) {
    texture.upload(test_image(size, input, seed));
    uploaded = texture.download();
  }
  gl::Texture texture, destination;
  Image uploaded;
};

// Knobs change how, not what: their candidates run with a kernel the variant supports.
KernelType knob_kernel(const VariantInfo& v) { return v.kernels == KernelSupport::BoxOnly ? KernelType::Box : KernelType::Gauss; }

struct GridCase {
  const VariantInfo* variant;
  int radius;
};

class VariantGrid : public GlTestWithParam<GridCase> {};

// Clamp-to-edge borders (the default) over the whole grid; BorderGrid below covers the other modes.
TEST_P(VariantGrid, MatchesReference) {
  const VariantInfo& variant = *GetParam().variant;
  const int radius = GetParam().radius;
  Checker checker(variant);
  // r = 128, the largest radius, on the smaller sizes only (it is mostly about refusals and
  // limits: shared memory, loop counts).
  std::vector<glm::ivec2> sizes{{517, 389}, {131, 97}, {1, 1}, {3, 2}};
  if (radius == kMaxRadius) sizes.erase(sizes.begin());
  for (glm::ivec2 size : sizes)
    for (gl::Format input : {gl::Format::rgba8, gl::Format::rgba16f}) {
      Source source(size, input, static_cast<unsigned>(size.x * 31 + size.y + radius));
      for (KernelType type : {KernelType::Box, KernelType::Gauss}) {
        // Knob candidates run once per size, at rgba8.
        const bool with_knobs = (size.x == 517 || radius == kMaxRadius) && input == gl::Format::rgba8 && type == knob_kernel(variant);
        const auto runs = runs_for(variant, make_kernel(type, radius, std::nullopt), Border{}, input, with_knobs ? kAllKnobs : KnobShare{});
        checker.check(source.texture, source.destination, source.uploaded, runs);
        if (HasFatalFailure()) return;
      }
    }
  if (radius <= kReferenceRadius) {
    EXPECT_GT(checker.checked, 0) << "nothing of " << variant.name << " ran at r = " << radius;
  }
  RecordProperty("checked", checker.checked);
  RecordProperty("refused", checker.refused);
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

// The border modes other than clamp, for every blur, on a smaller grid than clamp's: each mode is
// a program of its own and compiling dominates the time here, so all runs take r = 9 (an apron of
// 18, wider than a 16-texel workgroup) and share their programs across sizes:
//  - 131x97 (several workgroups, tiles and segments, partial ones at the edges), rgba8: both
//    kernels, every intermediate format, and a quarter of the knob candidates (another quarter
//    for each mode, so each candidate runs with one mode other than clamp);
//  - 3x2 and 1x1: taps far past the image, reflected again and again: both inputs, both kernels,
//    and every intermediate format for the float input (HDR values, fp32 sums).
// The constant differs per channel, and is above 1 for the HDR input.
struct BorderCase {
  const VariantInfo* variant;
  BorderMode mode;
};

class BorderGrid : public GlTestWithParam<BorderCase> {};

TEST_P(BorderGrid, MatchesReference) {
  const VariantInfo& variant = *GetParam().variant;
  const BorderMode mode = GetParam().mode;
  Checker checker(variant);
  auto border = [&](gl::Format input) {
    return Border{mode, mode != BorderMode::Constant ? Rgba{}
                        : input == gl::Format::rgba8 ? Rgba{0.8f, 0.2f, 0.55f, 1.0f}
                                                     : Rgba{3.5f, 0.2f, 0.55f, 1.0f}};
  };
  constexpr int kRadius = 9;
  const KnobShare knob_share{static_cast<int>(mode) - 1, static_cast<int>(kBorderModes.size()) - 1};  // the modes after clamp
  for (glm::ivec2 size : {glm::ivec2(131, 97), glm::ivec2(3, 2), glm::ivec2(1, 1)})
    for (gl::Format input : {gl::Format::rgba8, gl::Format::rgba16f}) {
      const bool large = size.x > 3;
      if (large && input != gl::Format::rgba8) continue;
      Source source(size, input, static_cast<unsigned>(size.x * 31 + size.y + static_cast<int>(mode)));
      for (KernelType type : {KernelType::Box, KernelType::Gauss}) {
        const bool knobs = large && type == knob_kernel(variant);
        std::vector<SettingRun> runs =
            runs_for(variant, make_kernel(type, kRadius, std::nullopt), border(input), input, knobs ? knob_share : KnobShare{});
        if (!large && input == gl::Format::rgba8)  // its intermediate formats ran at 131x97
          runs.erase(std::remove_if(runs.begin(), runs.end(),
                                    [&](const SettingRun& run) { return run.settings.intermediate && run.settings.intermediate != input; }),
                     runs.end());
        checker.check(source.texture, source.destination, source.uploaded, runs);
        if (HasFatalFailure()) return;
      }
    }
  if (!refuses_border(variant, mode)) {
    EXPECT_GT(checker.checked, 0) << "nothing of " << variant.name << " ran with border " << name(mode);
  }
  RecordProperty("checked", checker.checked);
  RecordProperty("refused", checker.refused);
}

std::vector<BorderCase> border_grid() {
  std::vector<BorderCase> cases;
  for (const VariantInfo* v : variants())
    if (is_blur(*v))
      for (BorderMode mode : kBorderModes)
        if (mode != BorderMode::Clamp) cases.push_back({v, mode});
  return cases;
}

std::string border_grid_name(const ::testing::TestParamInfo<BorderCase>& p) {
  std::string variant(p.param.variant->name);
  std::replace(variant.begin(), variant.end(), '-', '_');
  return variant + "_border_" + std::string(name(p.param.mode));
}

INSTANTIATE_TEST_SUITE_P(Borders, BorderGrid, ::testing::ValuesIn(border_grid()), border_grid_name);

// recursive-gaussian-blocks splits each line into blocks (the workgroup's width) and carries their
// states by a scan: lines of one texel (1xN, Nx1), lines shorter than the blocks, lines that are not
// a multiple of them, both input formats, sigma 2 and 40, every workgroup; each must run.
TEST(RecursiveGaussianBlocks, LinesOfEveryShape) {
  const VariantInfo& variant = *find_variant("recursive-gaussian-blocks");
  Checker checker(variant);
  for (glm::ivec2 size : {glm::ivec2(1, 300), glm::ivec2(300, 1), glm::ivec2(300, 37)})
    for (gl::Format input : {gl::Format::rgba8, gl::Format::rgba16f}) {
      Source source(size, input, static_cast<unsigned>(size.x * 31 + size.y));
      for (double sigma : {2.0, 40.0}) {
        // Every workgroup at 300x37: 300 and 37 texels in 128, 256, 64 and 512 blocks (odd lengths),
        // 4, 8, 2 and 1 columns side by side.
        const bool knobs = size.y == 37 && input == gl::Format::rgba8;
        std::vector<SettingRun> runs =
            runs_for(variant, make_kernel(KernelType::Gauss, std::nullopt, sigma), Border{}, input, knobs ? kAllKnobs : KnobShare{});
        checker.check(source.texture, source.destination, source.uploaded, runs);
        if (HasFatalFailure()) return;
      }
    }
  EXPECT_EQ(checker.refused, 3 * 2) << "only rgba8 intermediates of the rgba16f input may be refused";
  EXPECT_GT(checker.checked, 0);
}

// The box walks cut each line into segments, each loading its own apron, and each segment into
// chunks that start from their own sums (compute-sliding-tiles, box-iterated); compute-box-blocked
// cuts its columns into walks of `rows` rows, each with its own warm-up. The grid's images (517x389
// at most) take one segment per line at the defaults, so here lines of 2100 texels in both
// directions, with chunks (31) and walks (16 rows) short enough for several segments per line in
// each (a past bug: later segments skipping their start-up rows); every run must pass.
TEST(BoxWalks, SeveralSegmentsPerLine) {
  struct Case {
    const char* variant;
    KernelType type;
    const char* knob;
    int value;
  };
  for (const Case& c : {Case{"compute-sliding-tiles", KernelType::Box, "chunk", 31}, Case{"box-iterated", KernelType::Gauss, "chunk", 31},
                        Case{"compute-box-blocked", KernelType::Box, "rows", 16}}) {
    const VariantInfo& variant = *find_variant(c.variant);
    Checker checker(variant);
    for (glm::ivec2 size : {glm::ivec2(300, 2100), glm::ivec2(2100, 300)}) {
      Source source(size, gl::Format::rgba8, static_cast<unsigned>(size.x + size.y));
      BlurSettings s;
      s.kernel = c.type == KernelType::Box ? make_kernel(KernelType::Box, 8, std::nullopt) : make_kernel(KernelType::Gauss, std::nullopt, 8.0);
      s.input_format = gl::Format::rgba8;
      s.knobs[c.knob] = KnobValue{c.value, 0};
      checker.check(source.texture, source.destination, source.uploaded, {SettingRun{s, false}});
      if (HasFatalFailure()) return;
    }
    EXPECT_EQ(checker.checked, 2) << c.variant;
    EXPECT_EQ(checker.refused, 0) << c.variant;
  }
}

}  // namespace
}  // namespace blurlab::test
