// Every registered variant against the CPU reference. Four kinds of case per variant (CTest names
// in tests/gl_grid_tests.cmake; `ctest -R 'gl\.compute-sliding\.'` runs one variant's):
//  - gl.<variant>.r<R>, R in 0, 1, 2, 7, 16, 33, 64, 128: the default knobs at 517x389 (odd: partial
//    workgroups, tiles and segments; the default intermediate format), 131x97, 3x2 and 1x1 (taps
//    far past the image; every intermediate format), both input formats, both kernels;
//  - gl.<variant>.knobs: every knob candidate (the other knobs at their defaults, or changed as little
//    as this device needs) at 517x389 and r = 33 (r = 7 where 33 does not run); each must be checked;
//  - gl.<variant>.walks: the default knobs at 2111x307 and 307x2111 (r = 7 with one kernel, 33 with
//    the other), so every walk (segments, strips, tiles, blocks of a line) has several parts per
//    line in both directions;
//  - gl.<variant>.border_<mode>: the border modes other than clamp (BorderGrid below);
//  - gl.<variant>.large_gauss: the exact Gaussian at r = 64, 90, 128, default knobs and each weight
//    mode (LargeGaussGrid below).
//
// A refusal is a failure unless the case expects it, by its kind and its numbers (blur/refusal.h):
//  - the kernel a variant does not blur (Limit::Kernel), an rgba8 intermediate for float input
//    (Limit::Format) and the border modes it declares (Limit::Border) must be refused, for that
//    reason and no other;
//  - the default knobs at radii up to kReferenceRadius must run, and above it refuse exactly where
//    kExpectedRefusals below says (a variant's reach; llvmpipe's limits);
//  - otherwise (knob candidates, other devices) only the device's limits may refuse, and only with
//    numbers that hold: what the variant declares it needs (shared memory, loop iterations)
//    against what this device has; and a candidate's reach (its structure covers so far) with a
//    need past what is available.
// Knob values that do not go together (Limit::Knobs) or are out of range (Limit::Setting) always fail:
// a candidate must run with the other knobs at their defaults.
//
// An approximation is checked against the CPU model of its own algorithm (with the tolerance it
// states), for the Gaussian of sigma = r / 3 each radius asks for.
#include <algorithm>
#include <limits>
#include <map>
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

Image test_image(glm::ivec2 size, gl::Format format, unsigned seed) { return blocks_under_noise(size, format, seed, {9, 7}); }

// Radii up to this one must run with the default knobs at every size: the reference radii.
constexpr int kReferenceRadius = 16;

// The refusals the grid expects with the default knobs, from the smallest radius on (an
// approximation: sigma = r / 3): the variant's own reach on every device, and the device's limits
// on the reference device, llvmpipe (32 KiB of shared memory, loops stopped after 65535
// iterations). Elsewhere a device limit is accepted when its numbers hold. From `from` on the
// variant must refuse for that limit, and below it must not: a variant whose limits change
// updates this list.
struct ExpectedRefusal {
  std::string_view variant;
  Limit limit;
  int from;
};
const std::vector<ExpectedRefusal> kExpectedRefusals = {
    {"compute-box-prefix", Limit::Reach, 128},  // its 256-column workgroup leaves no tile beside a 256-column apron
    {"frag-naive", Limit::LoopIterations, 128},  // (2r+1)^2 taps
    {"compute-naive", Limit::LoopIterations, 128},
    {"variable-naive", Limit::LoopIterations, 128},  // the largest level's (2R+1)^2 taps
    {"compute-naive-lds", Limit::SharedMemory, 33},  // the (8 + 2r)^2 tile
    {"compute-strip-regblock", Limit::SharedMemory, 33},  // the ring of 2r + 64 rows
    {"compute-inline-persistent", Limit::SharedMemory, 64},
    {"compute-inline-regblock", Limit::SharedMemory, 64},
    {"compute-inline-lds", Limit::SharedMemory, 65},  // its 8x(128 + 2r) fp32 tile fits r <= 64
};

bool reference_device() {
  const gl::GlLimits& limits = gl_info().limits;
  return limits.max_compute_shared_memory == 32768 && limits.max_loop_iterations == 65535;
}

// The refusal the grid expects of a variant's default knobs at a radius, if any.
const ExpectedRefusal* expected_refusal(const VariantInfo& v, int radius) {
  for (const ExpectedRefusal& e : kExpectedRefusals)
    if (e.variant == v.name && radius >= e.from && (e.limit == Limit::Reach || reference_device())) return &e;
  return nullptr;
}

// A case that checked nothing (every run refused) passes having proved nothing: it is reported
// skipped, with its reason, so ctest counts it (SKIP_REGULAR_EXPRESSION, tests/gl_grid_tests.cmake).
// On the reference device kExpectedRefusals says what must refuse: a case it expects to check
// there fails instead. Elsewhere a declared device limit may refuse every run.
void end_unchecked(const VariantInfo& v, const std::vector<int>& radii) {
  std::string expected;
  bool all_expected = true;
  for (int r : radii) {
    const ExpectedRefusal* e = expected_refusal(v, r);
    if (!e) all_expected = false;
    else if (expected.empty()) expected = std::string(name(e->limit)) + " from r = " + std::to_string(e->from);
  }
  if (reference_device() && !all_expected) {
    ADD_FAILURE() << v.name << " checked nothing, though kExpectedRefusals expects it to run here";
    return;
  }
  GTEST_SKIP() << v.name << " checked nothing: every run refused on this device"
               << (expected.empty() ? " (declared device limits)" : " (" + expected + ", as kExpectedRefusals says)");
}

// kExpectedRefusals is kept by hand, so that a variant refusing more than it did fails the grid;
// this keeps it equal to what the registry declares (VariantInfo::check, shared memory, loop
// iterations) for the default knobs on the reference device, at the grid's radii (rgba8, its
// default intermediate, the grid's large image): the first radius each variant refuses and why.
TEST(ExpectedRefusals, AreWhatTheRegistryDeclaresForTheReferenceDevice) {
  gl::GlLimits limits = gl_info().limits;
  limits.max_compute_shared_memory = 32768;  // llvmpipe's, as reference_device() reads them
  limits.max_loop_iterations = 65535;
  const std::vector<int> radii = {0, 1, 2, 7, 16, 33, 64, kMaxDirectRadius};
  for (const VariantInfo* v : variants()) {
    if (!is_blur(*v)) continue;
    std::optional<std::pair<int, Limit>> derived;
    for (int r : radii) {
      for (KernelType type : {KernelType::Box, KernelType::Gauss}) {
        if ((type == KernelType::Box && v->kernels == KernelSupport::GaussOnly) ||
            (type == KernelType::Gauss && v->kernels == KernelSupport::BoxOnly))
          continue;
        BlurSettings s;
        s.kernel = make_kernel(type, r, std::nullopt);
        if (const auto refusal = unsupported_reason(*v, resolve(*v, s), {517, 389}, limits)) {
          derived = {r, refusal->limit};
          break;
        }
      }
      if (derived) break;
    }
    const ExpectedRefusal* listed = nullptr;
    for (const ExpectedRefusal& e : kExpectedRefusals)
      if (e.variant == v->name) listed = &e;
    if (!listed) {
      EXPECT_FALSE(derived) << v->name << " refuses its default knobs from r = " << derived->first << " (" << name(derived->second)
                            << ") on the reference device, which kExpectedRefusals does not list";
      continue;
    }
    // The list says from which radius on; the grid's first radius at or past it is where it shows.
    const int first = *std::find_if(radii.begin(), radii.end(), [&](int r) { return r >= listed->from; });
    ASSERT_TRUE(derived) << v->name << ": kExpectedRefusals lists a refusal from r = " << listed->from << " the registry does not declare";
    EXPECT_EQ(derived->first, first) << v->name << ": the registry refuses from grid radius " << derived->first << ", the list from "
                                     << listed->from;
    EXPECT_EQ(derived->second, listed->limit) << v->name << ": the registry refuses for " << name(derived->second) << ", the list says "
                                              << name(listed->limit);
  }
}

// What a run expects of the pipeline.
enum class Expect { Run, RefuseKernel, RefuseFormat, RefuseBorder, RunOrDeclaredLimit };

struct SettingRun {
  BlurSettings settings;
  bool defaults;  // the variant's default knobs
};

// Every intermediate format a variant can use (or its one setting), at its default knobs.
std::vector<SettingRun> default_runs(const VariantInfo& v, const Kernel& kernel, const Border& border, gl::Format input) {
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
  return runs;
}

// One knob candidate of a variant: the knob and the index of the value in its candidates.
struct Candidate {
  const Knob* knob;
  size_t index;
  std::string text() const { return std::string(knob->name) + "=" + knob->text(knob->candidates[index]); }
};

// The candidates other than the defaults, every `of`-th from the `part`-th (all: part 0 of 1). A
// knob whose default changes with the radius gives all of its candidates: its first is not the
// default everywhere, and each then runs beside the other knobs' defaults at the case's radius.
std::vector<Candidate> candidates(const VariantInfo& v, int part = 0, int of = 1) {
  std::vector<Candidate> list;
  int n = 0;
  for (const Knob& k : v.knobs)
    for (size_t i = k.default_by_radius.empty() ? 1 : 0; i < k.candidates.size(); ++i)
      if (n++ % of == part) list.push_back({&k, i});
  return list;
}

SettingRun candidate_run(const Candidate& c, const Kernel& kernel, const Border& border, gl::Format input) {
  BlurSettings s;
  s.kernel = kernel;
  s.border = border;
  s.input_format = input;
  s.knobs[std::string(c.knob->name)] = c.knob->candidates[c.index];
  return {s, false};
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

// Why `refusal` is not one of the device's limits as this variant declares them, or "" when it is:
// the numbers must be what the variant declares it needs and what this device has.
std::string not_a_device_limit(const VariantInfo& v, const BlurSettings& s, glm::ivec2 size, const Refusal& r) {
  const gl::GlLimits& limits = gl_info().limits;
  const auto numbers = [&](double needed, double available) -> std::string {
    if (r.needed != needed || r.available != available)
      return "its numbers " + format_double(r.needed) + " / " + format_double(r.available) + " are not the declared " +
             format_double(needed) + " / " + format_double(available);
    if (!(r.needed > r.available)) return "it needs no more than is available";
    return "";
  };
  switch (r.limit) {
    case Limit::SharedMemory:
      if (!v.shared_memory) return "the variant declares no shared memory";
      return numbers(static_cast<double>(v.shared_memory(s).bytes), limits.max_compute_shared_memory);
    case Limit::LoopIterations:
      if (!v.loop_iterations || limits.max_loop_iterations == 0) return "no loop limit applies";
      return numbers(v.loop_iterations(s, size), static_cast<double>(limits.max_loop_iterations));
    case Limit::Invocations:
      if (r.available != limits.max_compute_invocations && r.available != limits.max_compute_workgroup_size[0] &&
          r.available != limits.max_compute_workgroup_size[1])
        return "its available " + format_double(r.available) + " is none of the device's workgroup limits";
      return r.needed > r.available ? "" : "it needs no more than is available";
    case Limit::TextureSize:
      return numbers(std::max(size.x, size.y), limits.max_texture_size);
    case Limit::Extension:
      if (!v.extension || v.extension(s) != r.extension) return "the variant does not declare " + r.extension;
      return device_has_extension(limits, r.extension) ? "the device has " + r.extension : "";
    default:
      return "limit '" + std::string(name(r.limit)) + "' is not the device's";
  }
}

// Why a refusal in a run that may meet declared limits is not one, or "".
std::string undeclared(const VariantInfo& v, const SettingRun& run, glm::ivec2 size, const Refusal& r) {
  const BlurSettings s = resolve(v, run.settings);
  if (run.defaults) {
    const ExpectedRefusal* expected = expected_refusal(v, s.kernel.radius);
    if (expected && expected->limit != r.limit)
      return "kExpectedRefusals says " + std::string(name(expected->limit)) + " here, not " + std::string(name(r.limit));
    if (!expected && (r.limit == Limit::Reach || reference_device()))
      return "kExpectedRefusals expects no refusal of the default knobs at r = " + std::to_string(s.kernel.radius);
  }
  if (r.limit == Limit::Reach) return r.needed > r.available ? "" : "a reach that needs no more than is available";
  return not_a_device_limit(v, s, size, r);
}

// A variant's taps per output, as far as the grid is concerned: its own minimal arithmetic
// (VariantInfo::own_bound: 4 channels x the taps each output weights) and its bilinear fetches, per
// texel of the large image it would blur (517x389; the walks' long lines). Past 300 (direct 2D sums
// from r = 8, 2D bilinear fetches from r = 33, separable passes at r = 128) a CPU rasterizer pays
// too much for the large images: those settings run at 131x97 and smaller only. Counted at that
// size, not a smaller one: an FFT's work per texel falls with the image (a 1024-point transform
// for every 64-texel line would count 1152 per texel at 64x64, 166 at 517x389).
bool reduced_size(const VariantInfo& v, const BlurSettings& s, glm::ivec2 size = {517, 389}) {
  if (!v.own_bound) return false;
  const WorkBound work = v.own_bound(resolve(v, s), size);
  return (work.fmas / 4.0 + work.bilinear_fetches) / (size.x * size.y) > 300.0;
}

// The source of one (size, input format): the test image uploaded, and read back as the GPU sees it.
struct Source {
  Source(glm::ivec2 size, gl::Format input, unsigned seed) : texture(size.x, size.y, input), destination(size.x, size.y, input) {
    texture.upload(test_image(size, input, seed));
    uploaded = texture.download();
  }
  Source(const Image& image, gl::Format input) : texture(image.width, image.height, input), destination(image.width, image.height, input) {
    texture.upload(image);
    uploaded = texture.download();
  }
  gl::Texture texture, destination;
  Image uploaded;
  const int serial = ++count;  // tells the sources apart for the references computed from them
  static inline int count = 0;
};

// Blurs a source with settings and checks each output against the CPU reference, with the
// targets poisoned, counting what ran and what was refused.
class Checker {
 public:
  explicit Checker(const VariantInfo& variant) : variant_(variant), programs_(gl::ShaderSources::embedded()), pipeline_(programs_, gl_info().limits) {}

  // One run on `source`; true when it ran and was checked.
  bool check(Source& source, const SettingRun& run) {
    const glm::ivec2 size{source.texture.width(), source.texture.height()};
    const gl::Format input = source.texture.format();
    const BlurSettings resolved = resolve(variant_, run.settings);
    const std::string what = std::string(variant_.name) + " " + describe(variant_, resolved) + " " + size_text(size);
    const Expect expect = expectation(variant_, run);
    const auto refusal = pipeline_.configure(variant_, run.settings, size);
    if (expect == Expect::RefuseKernel || expect == Expect::RefuseFormat || expect == Expect::RefuseBorder) {
      ++refused;
      EXPECT_TRUE(refusal) << what << " must be refused";
      const Limit limit = expect == Expect::RefuseKernel ? Limit::Kernel : expect == Expect::RefuseFormat ? Limit::Format : Limit::Border;
      if (refusal) {
        EXPECT_EQ(refusal->limit, limit) << what << " refused for another reason: " << refusal->reason;
      }
      return false;
    }
    if (refusal) {
      ++refused;
      if (expect == Expect::Run) {
        ADD_FAILURE() << what << " must run, refused: " << refusal->reason;
      } else if (const std::string why = undeclared(variant_, run, size, *refusal); !why.empty()) {
        ADD_FAILURE() << what << " refused (" << name(refusal->limit) << "): " << refusal->reason << " -- not a declared limit: " << why;
      }
      return false;
    }
    if (const ExpectedRefusal* e = run.defaults ? expected_refusal(variant_, resolved.kernel.radius) : nullptr; e && !stale_reported_) {
      ADD_FAILURE() << what << " ran, but kExpectedRefusals says it refuses for " << name(e->limit) << " from r = " << e->from
                    << ": update the list";
      stale_reported_ = true;
    }
    // An approximation's expected output is its CPU model's, which also depends on the
    // intermediate format and may read a knob (dual-kawase's up-stage rounds its staged levels).
    const Key key{source.serial, resolved.kernel, resolved.border,
                  is_approximation(variant_) ? std::optional(resolved.intermediate_format()) : std::nullopt,
                  is_approximation(variant_) ? resolved.knobs : KnobValues{}};
    if (!reference_ || reference_key_ != key) {
      reference_ = expected_output(variant_, resolved, source.uploaded);
      reference_key_ = key;
    }
    // One run, every intermediate poisoned as the run first takes it and the destination before:
    // a read of a texel no pass wrote shows.
    pipeline_.poison_intermediates_when_taken(kPoisonFloat);
    gl::fill(source.destination, gl::info(input).is_float ? kPoisonFloat : kPoisonUnorm);
    pipeline_.run(source.texture, source.destination);
    const Tolerance tolerance = tolerance_for(variant_, resolved, size, peak_magnitude(source.uploaded));
    const CheckResult result = compare_to_reference(source.destination.download(), *reference_, tolerance);
    EXPECT_TRUE(result.ok) << what << ": " << result.text() << ", " << result.worst_fraction << "x tolerance at (" << result.worst_x
                           << "," << result.worst_y << ") channel " << result.worst_channel << " [" << tolerance.reason << "]";
    ++checked;
    return true;
  }

  void check(Source& source, const std::vector<SettingRun>& runs) {
    for (const SettingRun& run : runs) check(source, run);
  }

  int checked = 0, refused = 0;

 private:
  static constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
  static constexpr float kPoisonFloat[4] = {kNan, kNan, kNan, kNan};
  static constexpr float kPoisonUnorm[4] = {1.0f, 0.0f, 1.0f, 0.5f};
  const VariantInfo& variant_;
  bool stale_reported_ = false;
  gl::ProgramCache programs_;
  BlurPipeline pipeline_;
  // One reference per source, kernel and border (and an approximation's intermediate format and knobs).
  using Key = std::tuple<int, Kernel, Border, std::optional<gl::Format>, KnobValues>;
  std::optional<ReferenceImage> reference_;
  std::optional<Key> reference_key_;
};

// Knobs change how, not what: their candidates run with a kernel the variant supports.
KernelType knob_kernel(const VariantInfo& v) { return v.kernels == KernelSupport::BoxOnly ? KernelType::Box : KernelType::Gauss; }

std::vector<KernelType> kernels_of(const VariantInfo& v) {
  if (v.kernels == KernelSupport::BoxOnly) return {KernelType::Box};
  if (v.kernels == KernelSupport::GaussOnly) return {KernelType::Gauss};
  return {KernelType::Box, KernelType::Gauss};
}

std::string test_name(const VariantInfo& v, const std::string& suffix) {
  std::string name(v.name);
  std::replace(name.begin(), name.end(), '-', '_');
  return name + "_" + suffix;
}

struct GridCase {
  const VariantInfo* variant;
  int radius;
};

class VariantGrid : public GlTestWithParam<GridCase> {};

// Clamp-to-edge borders (the default) with the default knobs; the cases below cover knobs, walks
// and the other border modes.
TEST_P(VariantGrid, MatchesReference) {
  const VariantInfo& variant = *GetParam().variant;
  const int radius = GetParam().radius;
  Checker checker(variant);
  // Formats change the rounding and the texel's size (a raw tile's width), not the walk: every
  // input and intermediate format runs at a small and a large radius (2 and 33: one tile apron
  // past 64), the others take rgba8 with its default intermediate (each format is a program of
  // its own, and compiling programs is most of the grid's time on a CPU rasterizer).
  const bool every_format = radius == 2 || radius == 33;
  for (glm::ivec2 size : {glm::ivec2(517, 389), glm::ivec2(131, 97), glm::ivec2(1, 1), glm::ivec2(3, 2)})
    for (gl::Format input : {gl::Format::rgba8, gl::Format::rgba16f}) {
      if (!every_format && input != gl::Format::rgba8) continue;
      Source source(size, input, static_cast<unsigned>(size.x * 31 + size.y + radius));
      for (KernelType type : {KernelType::Box, KernelType::Gauss}) {
        std::vector<SettingRun> runs = default_runs(variant, make_kernel(type, radius, std::nullopt), Border{}, input);
        const gl::Format default_intermediate = resolve(variant, BlurSettings{.input_format = input}).intermediate_format();
        // The large image is about tiles, segments and partial workgroups, which the intermediate
        // format does not change: it takes the variant's default one (the others run below it).
        const bool large = size.x * size.y > 131 * 97;
        std::erase_if(runs, [&](const SettingRun& run) {
          const bool other_format = resolve(variant, run.settings).intermediate_format() != default_intermediate;
          return (large && reduced_size(variant, run.settings)) || (other_format && (large || !every_format));
        });
        checker.check(source, runs);
        if (HasFatalFailure()) return;
      }
    }
  if (radius <= kReferenceRadius) {
    EXPECT_GT(checker.checked, 0) << "nothing of " << variant.name << " ran at r = " << radius;
  } else if (checker.checked == 0) {
    end_unchecked(variant, {radius});
    return;
  }
  RecordProperty("checked", checker.checked);
  RecordProperty("refused", checker.refused);
}

std::vector<GridCase> grid() {
  std::vector<GridCase> cases;
  for (const VariantInfo* v : variants())
    for (int r : {0, 1, 2, 7, 16, 33, 64, kMaxDirectRadius, kMaxRadius})
      // the copy pass has no radius; past kMaxDirectRadius only the variants that reach so far
      if ((is_blur(*v) || r == 0) && r <= v->max_radius) cases.push_back({v, r});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Grid, VariantGrid, ::testing::ValuesIn(grid()),
                         [](const auto& p) { return test_name(*p.param.variant, "r" + std::to_string(p.param.radius)); });

// The exact Gaussian at large radii, where unrolled sums of hundreds of taps once fell off a cliff
// on a GPU (docs/PERFORMANCE.md): every exact variant that blurs Gaussians at r = 90 (the grid has
// 64 and 128) with its default knobs, and, where it has a `weights` knob, each of its weight modes
// at r = 64, 90 and 128 (the defaults there are chosen per radius). rgba8 at 517x389: several
// workgroups, tiles and segments a line, partial ones at the edges. Refusals as the grid's.
class LargeGaussGrid : public GlTestWithParam<const VariantInfo*> {};

TEST_P(LargeGaussGrid, MatchesReference) {
  const VariantInfo& variant = *GetParam();
  Checker checker(variant);
  Source source({517, 389}, gl::Format::rgba8, 90);
  const Knob* weights = find_knob(variant, "weights");
  std::vector<int> tried;  // the radii with runs: 90, and 64 and 128 for a variant with weight modes
  for (int radius : {64, 90, kMaxDirectRadius}) {
    const Kernel kernel = make_kernel(KernelType::Gauss, radius, std::nullopt);
    std::vector<SettingRun> runs;
    if (radius == 90) runs.push_back({BlurSettings{.kernel = kernel}, true});
    if (weights)
      for (KnobValue mode : weights->candidates) {
        SettingRun run{BlurSettings{.kernel = kernel}, mode == weights->default_value(radius)};
        run.settings.knobs[std::string(weights->name)] = mode;
        if (!(radius == 90 && run.defaults)) runs.push_back(run);
      }
    if (!runs.empty()) tried.push_back(radius);
    checker.check(source, runs);
    if (HasFatalFailure()) return;
  }
  if (checker.checked == 0) {
    end_unchecked(variant, tried);
    return;
  }
  RecordProperty("checked", checker.checked);
  RecordProperty("refused", checker.refused);
}

std::vector<const VariantInfo*> exact_gaussians() {
  std::vector<const VariantInfo*> list;
  for (const VariantInfo* v : variants())
    if (is_blur(*v) && !is_approximation(*v) && !v->variable_radius && v->kernels == KernelSupport::BoxAndGauss) list.push_back(v);
  return list;
}

INSTANTIATE_TEST_SUITE_P(LargeGauss, LargeGaussGrid, ::testing::ValuesIn(exact_gaussians()),
                         [](const auto& p) { return test_name(*p.param, "large_gauss"); });

// Every knob candidate at an odd size that takes several workgroups, tiles and segments, at a radius
// past 64-wide tiles (2r = 66), or a small one where the candidate cannot run that. A candidate runs with the other knobs at their defaults where
// the device can run that; otherwise (a candidate tuned for a GPU's larger shared memory) with the
// fewest other knobs changed to candidates of theirs that it can. Each candidate must be checked at
// least once; only a device that lacks an extension a candidate needs (declared, and checked) may
// refuse it everywhere.
class KnobGrid : public GlTestWithParam<const VariantInfo*> {};

// The knobs a candidate runs with on this device at `kernel`, or nullopt when no combination with up
// to two other knobs changed is supported.
std::optional<KnobValues> runnable_knobs(const VariantInfo& v, const Candidate& c, const Kernel& kernel, glm::ivec2 size) {
  std::vector<Candidate> others;
  for (const Candidate& o : candidates(v))
    if (o.knob != c.knob) others.push_back(o);
  const auto supported = [&](const std::vector<const Candidate*>& changed) -> std::optional<KnobValues> {
    BlurSettings s = candidate_run(c, kernel, Border{}, gl::Format::rgba8).settings;
    for (const Candidate* o : changed) {
      if (s.knobs.count(std::string(o->knob->name))) return std::nullopt;  // one value per knob
      s.knobs[std::string(o->knob->name)] = o->knob->candidates[o->index];
    }
    if (unsupported_reason(v, resolve(v, s), size, gl_info().limits)) return std::nullopt;
    return s.knobs;
  };
  if (auto knobs = supported({})) return knobs;
  for (const Candidate& a : others)
    if (auto knobs = supported({&a})) return knobs;
  for (size_t i = 0; i < others.size(); ++i)
    for (size_t j = i + 1; j < others.size(); ++j)
      if (auto knobs = supported({&others[i], &others[j]})) return knobs;
  return std::nullopt;
}

TEST_P(KnobGrid, EveryCandidateMatchesReference) {
  const VariantInfo& variant = *GetParam();
  Checker checker(variant);
  const glm::ivec2 size{517, 389};
  Source source(size, gl::Format::rgba8, 7);
  std::optional<Source> small_source;
  constexpr glm::ivec2 kReducedSize{131, 97};  // reduced_size()'s image
  constexpr int kSmall = 7, kLarge = 33;  // the grid's radii: their default programs are compiled once
  for (const Candidate& c : candidates(variant)) {
    const KernelType type = knob_kernel(variant);
    const std::optional<KnobValues> knobs = runnable_knobs(variant, c, make_kernel(type, kSmall, std::nullopt), size);
    if (!knobs) {
      const SettingRun alone = candidate_run(c, make_kernel(type, kSmall, std::nullopt), Border{}, gl::Format::rgba8);
      const auto refusal = unsupported_reason(variant, resolve(variant, alone.settings), size, gl_info().limits);
      const bool missing_extension =
          refusal && refusal->limit == Limit::Extension && not_a_device_limit(variant, resolve(variant, alone.settings), size, *refusal).empty();
      if (!missing_extension)
        ADD_FAILURE() << variant.name << " " << c.text() << " runs in no setting with up to two other knobs changed: "
                      << (refusal ? refusal->reason : "?");
      continue;
    }
    // At the large radius, where a candidate's tiles, strips or segments meet an apron wider than
    // 64; at the small one only where the large one does not run (each is a program of its own).
    // A candidate too costly for a CPU rasterizer at the large image at both radii (an FFT's 2048
    // points on 389-texel lines) runs at the small radius on the grid's reduced image.
    int checked = 0;
    for (int radius : {kLarge, kSmall}) {
      SettingRun run = candidate_run(c, make_kernel(type, radius, std::nullopt), Border{}, gl::Format::rgba8);
      run.settings.knobs = *knobs;
      if (reduced_size(variant, run.settings)) continue;
      if (checker.check(source, run)) ++checked;
      if (HasFatalFailure()) return;
      if (checked > 0) break;
    }
    if (checked == 0) {
      SettingRun run = candidate_run(c, make_kernel(type, kSmall, std::nullopt), Border{}, gl::Format::rgba8);
      run.settings.knobs = *knobs;
      if (!small_source) small_source.emplace(kReducedSize, gl::Format::rgba8, 7);
      if (!unsupported_reason(variant, resolve(variant, run.settings), kReducedSize, gl_info().limits) && checker.check(*small_source, run))
        ++checked;
      if (HasFatalFailure()) return;
    }
    EXPECT_GT(checked, 0) << variant.name << " " << c.text() << " was never run and checked";
  }
  RecordProperty("checked", checker.checked);
  RecordProperty("refused", checker.refused);
}

std::vector<const VariantInfo*> with_knob_candidates() {
  std::vector<const VariantInfo*> list;
  for (const VariantInfo* v : variants())
    if (!candidates(*v).empty()) list.push_back(v);
  return list;
}

INSTANTIATE_TEST_SUITE_P(Knobs, KnobGrid, ::testing::ValuesIn(with_knob_candidates()),
                         [](const auto& p) { return test_name(*p.param, "knobs"); });

// Images longer than any walk's default part in each direction: segments down columns, strips
// and tiles along rows, the blocks of a line, each several times per line, so a part that skips
// its start-up (the warm-up of a running sum, the prologue of a ring) shows.
class WalkGrid : public GlTestWithParam<const VariantInfo*> {};

TEST_P(WalkGrid, LongLinesMatchReference) {
  const VariantInfo& variant = *GetParam();
  Checker checker(variant);
  for (glm::ivec2 size : {glm::ivec2(2111, 307), glm::ivec2(307, 2111)}) {
    Source source(size, gl::Format::rgba8, static_cast<unsigned>(size.x));
    // The grid's radii (their programs are compiled once), each with one of the variant's kernels:
    // the walk is the same for both, and lines this long make every run costly on a CPU.
    const std::vector<KernelType> kernels = kernels_of(variant);
    for (auto [radius, type] : {std::pair{7, kernels.front()}, std::pair{33, kernels.back()}}) {
      SettingRun run{BlurSettings{}, true};
      run.settings.kernel = make_kernel(type, radius, std::nullopt);
      if (reduced_size(variant, run.settings, size)) continue;
      checker.check(source, run);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(checker.checked, 0) << "nothing of " << variant.name << " ran on long lines";
  RecordProperty("checked", checker.checked);
}

std::vector<const VariantInfo*> all_variants() { return {variants().begin(), variants().end()}; }

INSTANTIATE_TEST_SUITE_P(Walks, WalkGrid, ::testing::ValuesIn(all_variants()), [](const auto& p) { return test_name(*p.param, "walks"); });

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
  const int part = static_cast<int>(mode) - 1, of = static_cast<int>(kBorderModes.size()) - 1;  // the modes after clamp
  for (glm::ivec2 size : {glm::ivec2(131, 97), glm::ivec2(3, 2), glm::ivec2(1, 1)})
    for (gl::Format input : {gl::Format::rgba8, gl::Format::rgba16f}) {
      const bool large = size.x > 3;
      if (large && input != gl::Format::rgba8) continue;
      Source source(size, input, static_cast<unsigned>(size.x * 31 + size.y + static_cast<int>(mode)));
      for (KernelType type : {KernelType::Box, KernelType::Gauss}) {
        const Kernel kernel = make_kernel(type, kRadius, std::nullopt);
        std::vector<SettingRun> runs = default_runs(variant, kernel, border(input), input);
        // The border rule is where a pass reads, whatever the format it reads: the default
        // intermediate (the grid's r2 and r33 cases run the others, each a program of its own).
        const gl::Format default_intermediate = resolve(variant, BlurSettings{.input_format = input}).intermediate_format();
        std::erase_if(runs, [&](const SettingRun& run) { return resolve(variant, run.settings).intermediate_format() != default_intermediate; });
        if (large && type == knob_kernel(variant))
          for (const Candidate& c : candidates(variant, part, of)) runs.push_back(candidate_run(c, kernel, border(input), input));
        checker.check(source, runs);
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

INSTANTIATE_TEST_SUITE_P(Borders, BorderGrid, ::testing::ValuesIn(border_grid()),
                         [](const auto& p) { return test_name(*p.param.variant, "border_" + std::string(name(p.param.mode))); });

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
        // 4, 2, 8 and 1 columns side by side.
        const Kernel kernel = make_kernel(KernelType::Gauss, std::nullopt, sigma);
        std::vector<SettingRun> runs = default_runs(variant, kernel, Border{}, input);
        if (size.y == 37 && input == gl::Format::rgba8)
          for (const Candidate& c : candidates(variant)) runs.push_back(candidate_run(c, kernel, Border{}, input));
        checker.check(source, runs);
        if (HasFatalFailure()) return;
      }
    }
  EXPECT_EQ(checker.refused, 3 * 2) << "only rgba8 intermediates of the rgba16f input may be refused";
  EXPECT_GT(checker.checked, 0);
}

// dual-kawase's structures, each against its model: every level count (sigma 1 to 42: 1 to 5
// levels; 6 would need sigma 48, past r = 128), sizes whose levels round up (517x389, 33x17) or stay
// 1x1, every border mode, the downsampling levels as separate passes and fused into one dispatch
// (whose tiles of each level are computed by the last workgroup to finish their children, found
// with counters), and the up chain's blocks and fp16 staging. One pipeline runs every case, so each
// fused run starts from the counters the previous one left: they must be zero again. Every border
// with the down chain fused and in passes; every knob set at 2 and 5 levels with clamp and wrap
// (programs dominate the time on llvmpipe: each setting compiles its own); at 517x389 (slow there)
// only sigma 4 and 25.
TEST(DualKawase, EveryLevelCountSizeBorderAndChain) {
  const VariantInfo& variant = *find_variant("dual-kawase");
  Checker checker(variant);
  const auto knobs = [](bool fused, int block, int fp16) {
    return KnobValues{{"down-chain", KnobValue{fused ? 1 : 0, 0}}, {"up-block", KnobValue{block, 0}}, {"up-stage", KnobValue{fp16, 0}}};
  };
  for (glm::ivec2 size : {glm::ivec2(33, 17), glm::ivec2(1, 1), glm::ivec2(517, 389)}) {
    const bool large = size.x > 100;
    Source source(size, gl::Format::rgba8, static_cast<unsigned>(size.x * 7 + size.y));
    for (double sigma : large ? std::vector<double>{4.0, 25.0} : std::vector<double>{1.0, 4.0, 6.0, 12.0, 25.0, 42.0})
      for (BorderMode mode : kBorderModes) {
        BlurSettings s;
        s.kernel = make_kernel(KernelType::Gauss, std::nullopt, sigma);
        s.border.mode = mode;
        if (mode == BorderMode::Constant) s.border.value = {1.0f, 0.5f, 0.0f, 1.0f};
        s.input_format = gl::Format::rgba8;
        std::vector<KnobValues> sets = {knobs(true, 2, 0)};
        if (!large || mode == BorderMode::Clamp || mode == BorderMode::Wrap) sets.push_back(knobs(false, 2, 0));
        if ((mode == BorderMode::Clamp || mode == BorderMode::Wrap) && (sigma == 4.0 || sigma == 25.0))
          sets.insert(sets.end(), {knobs(true, 4, 1), knobs(false, 4, 1), knobs(true, 4, 0)});
        for (const KnobValues& k : sets) {
          s.knobs = k;
          EXPECT_TRUE(checker.check(source, SettingRun{s, false})) << "sigma " << sigma << " " << name(mode) << " " << size.x << "x" << size.y;
          if (HasFatalFailure()) return;
        }
      }
  }
}

// The down passes at integer offsets fetch each corner of their tile once into shared memory
// (glsl/dual_kawase.comp, DK_DOWN_SHARED): o = 2 (sigma 10, 3 levels), o = 1 (sigma 6, 3 levels)
// and o = 3 (sigma 6.5, 2 levels: centres and diagonal corners apart), at an odd size whose levels
// round, every border, and workgroups whose tiles are square, wide and small; each against the CPU
// model of the five-fetch pass (a corner misplaced by one is tens of LSB off).
TEST(DualKawase, DownPassesShareTheirCorners) {
  const VariantInfo& variant = *find_variant("dual-kawase");
  Checker checker(variant);
  const glm::ivec2 size{131, 97};  // levels 66x49, 33x25, 17x13
  Source source(size, gl::Format::rgba8, 131u * 5 + 97);
  // Every border and tile shape at o = 3 (its halo the widest); o = 1 and 2 at clamp, 16x16.
  for (double sigma : {6.5, 6.0, 10.0})
    for (BorderMode mode : kBorderModes)
      for (glm::ivec2 wg : {glm::ivec2(16, 16), glm::ivec2(64, 4), glm::ivec2(8, 8)}) {
        if ((sigma != 6.5 && (mode != BorderMode::Clamp || wg != glm::ivec2(16, 16))) ||
            (mode != BorderMode::Clamp && wg != glm::ivec2(16, 16)))
          continue;
        BlurSettings s;
        s.kernel = make_kernel(KernelType::Gauss, std::nullopt, sigma);
        s.border.mode = mode;
        if (mode == BorderMode::Constant) s.border.value = {1.0f, 0.5f, 0.0f, 1.0f};
        s.input_format = gl::Format::rgba8;
        s.knobs["workgroup"] = knob_size(wg);
        EXPECT_TRUE(checker.check(source, SettingRun{s, false})) << "sigma " << sigma << " " << name(mode) << " workgroup " << wg.x << "x" << wg.y;
        if (HasFatalFailure()) return;
      }
}

// The streamed last pass (glsl/dual_kawase.comp DK_UP 3, last-pass stream; auto picks it only at
// 3.1 M texels and more, past what llvmpipe checks in seconds): an invocation per target column,
// odd columns walking their window mirrored, K rows of level 1 each. At 131x97 (levels 66x49,
// 33x25, 17x13, 9x7, 5x4: every level rounds, odd target width). Each (border, level count) is
// programs of its own, compiled cold in seconds on llvmpipe, so the first tier checks a few and
// the full tier every other.
class StreamRuns {
 public:
  StreamRuns() : checker_(*find_variant("dual-kawase")), odd_({131, 97}, gl::Format::rgba8, 131u * 3 + 97) {}
  bool run(BorderMode mode, double sigma, KnobValues knobs = {}) { return run(odd_, mode, sigma, std::move(knobs)); }
  bool run(Source& source, BorderMode mode, double sigma, KnobValues knobs = {}) {
    BlurSettings s;
    s.kernel = make_kernel(KernelType::Gauss, std::nullopt, sigma);
    s.border.mode = mode;
    if (mode == BorderMode::Constant) s.border.value = {1.0f, 0.5f, 0.0f, 1.0f};
    s.input_format = gl::Format::rgba8;
    knobs["last-pass"] = KnobValue{2, 0};
    s.knobs = std::move(knobs);
    return checker_.check(source, SettingRun{s, false});
  }

 private:
  Checker checker_;
  Source odd_;
};

// Dark at the top, bright at the bottom: where a border wraps, the rows past the last read the
// first, as unlike it as a row can be (noise, blurred to level 1, hides a row misread).
Image vertical_ramp(glm::ivec2 size) {
  Image image(size.x, size.y);
  for (int y = 0; y < size.y; ++y)
    for (int x = 0; x < size.x; ++x)
      for (int c = 0; c < 4; ++c) image.at(x, y, c) = c == 3 ? 1.0f : static_cast<float>(y) / static_cast<float>(size.y - 1);
  return image;
}

// The first tier's (what its mutations need, in about 15 s cold): 3 levels (sigma 10) at clamp
// and reflect101, 2 (offset 3: five texels a row) at reflect101, 33x17, and K = 16 (the last walk
// partial) at wrap on a vertical ramp of even height (67x50: the last target row's window reaches
// past level 1's last row, where clamp reads that row again and wrap the first).
TEST(DualKawase, StreamedLastPass) {
  StreamRuns stream;
  EXPECT_TRUE(stream.run(BorderMode::Clamp, 10.0));
  EXPECT_TRUE(stream.run(BorderMode::Reflect101, 10.0));
  EXPECT_TRUE(stream.run(BorderMode::Reflect101, 6.5));
  Source ramp(vertical_ramp({67, 50}), gl::Format::rgba8);
  EXPECT_TRUE(stream.run(ramp, BorderMode::Wrap, 10.0, {{"stream-rows", KnobValue{16, 0}}}));
  Source small({33, 17}, gl::Format::rgba8, 33u + 17);
  EXPECT_TRUE(stream.run(small, BorderMode::Reflect101, 10.0));
}

// The full tier's rest: every border at 1 level (no chain before it: the first down pass stores
// level 1), 2, 3 and 5; K = 4; fp16 staging (the chain's levels rounded, level 1 not) and the
// fused down chain at clamp; 1x1 (a level 1 of one texel).
TEST(DualKawase, StreamedLastPassEveryBorderAndLevelCount) {
  StreamRuns stream;
  for (BorderMode mode : kBorderModes)
    for (double sigma : {3.0, 6.5, 10.0, 25.0}) {
      if ((mode == BorderMode::Clamp && sigma == 10.0) || (mode == BorderMode::Reflect101 && (sigma == 10.0 || sigma == 6.5)))
        continue;  // the first tier's
      EXPECT_TRUE(stream.run(mode, sigma)) << name(mode) << " sigma " << sigma;
      if (HasFatalFailure()) return;
    }
  for (const KnobValues& knobs : {KnobValues{{"stream-rows", KnobValue{4, 0}}}, KnobValues{{"up-stage", KnobValue{1, 0}}},
                                  KnobValues{{"down-chain", KnobValue{1, 0}}}})
    EXPECT_TRUE(stream.run(BorderMode::Clamp, 10.0, knobs)) << knobs.begin()->first;
  Source one({1, 1}, gl::Format::rgba8, 2u);
  EXPECT_TRUE(stream.run(one, BorderMode::Reflect101, 10.0));
}

// The FFT's step schedules, which the grid's 512 and 1024 points do not all reach: a transform of
// one step (4 points with radix 8, its first step of radix 4; 8 with radix 8: from the source
// through the spectrum to the target in registers), of two (the first step from the source, the
// product step, the last to the target: 16 with radix 8, 8 and 16 with radix 4) and of three (a
// middle step each way: 32 with radix 4, 128 with radix 8, both after a radix-2 first step), in
// both passes, two lines a workgroup with a partial last pair.
TEST(Fft, EveryStepScheduleMatchesReference) {
  const VariantInfo& variant = *find_variant("fft");
  Checker checker(variant);
  const glm::ivec2 size{37, 19};
  Source source(size, gl::Format::rgba8, 37u * 19);
  for (auto [points, radix] : {std::pair{4, 8}, {8, 8}, {16, 8}, {8, 4}, {16, 4}, {32, 4}, {128, 8}}) {
    BlurSettings s;
    s.kernel = make_kernel(KernelType::Gauss, 1, std::nullopt);
    s.input_format = gl::Format::rgba8;
    s.knobs["points"] = KnobValue{points, 0};
    s.knobs["radix"] = KnobValue{radix, 0};
    s.knobs["lines"] = KnobValue{2, 0};
    EXPECT_TRUE(checker.check(source, SettingRun{s, false})) << points << " points, radix " << radix;
    if (HasFatalFailure()) return;
  }
}

// The fused downsampling chain's counters: the last workgroup to count a tile resets its counter,
// so the same settings run twice in one process give the same output, bit for bit (and the
// model's: a counter left at its count would leave tiles of the next run uncomputed, poisoned).
TEST(DualKawase, FusedChainRunsTwiceTheSame) {
  const VariantInfo& variant = *find_variant("dual-kawase");
  gl::ProgramCache programs(gl::ShaderSources::embedded());
  BlurPipeline pipeline(programs, gl_info().limits);
  for (BorderMode mode : {BorderMode::Clamp, BorderMode::Wrap}) {
    const glm::ivec2 size{517, 389};
    Source source(size, gl::Format::rgba8, 41u);
    BlurSettings s;
    s.kernel = make_kernel(KernelType::Gauss, std::nullopt, 25.0);  // 5 levels: the fused chain writes 4 (5 with wrap)
    s.border.mode = mode;
    s.input_format = gl::Format::rgba8;
    s.knobs["down-chain"] = KnobValue{1, 0};
    ASSERT_FALSE(pipeline.configure(variant, s, size));
    std::vector<Image> outputs;
    for (int run = 0; run < 3; ++run) {
      const float poison[4] = {1.0f, 0.0f, 1.0f, 0.5f};
      gl::fill(source.destination, poison);
      pipeline.poison_intermediates(poison);
      pipeline.run(source.texture, source.destination);
      outputs.push_back(source.destination.download());
    }
    const BlurSettings resolved = resolve(variant, s);
    const CheckResult first = compare_to_reference(outputs[0], expected_output(variant, resolved, source.uploaded),
                                                   tolerance_for(variant, resolved, size, peak_magnitude(source.uploaded)));
    EXPECT_TRUE(first.ok) << name(mode) << ": the first run: " << first.text();
    for (size_t i = 1; i < outputs.size(); ++i)
      EXPECT_TRUE(outputs[i].texels == outputs[0].texels) << name(mode) << ": run " << i + 1 << " differs from the first";
  }
}

// The box walks cut each line into segments, each loading its own apron, and each segment into
// chunks that start from their own sums (compute-sliding-tiles, box-iterated); compute-box-blocked
// cuts its columns into walks of `rows` rows, each with its own warm-up. The grid's images (517x389
// at most) take one segment per line at the defaults, so here lines of 2100 texels in both
// directions, with chunks (31) and walks (16 rows) short enough for several segments per line in
// each (a past bug: later segments skipping their start-up rows), the box walks with 2 and 4 chains
// per invocation; every run must pass.
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
      // The box walks at 32 invocations: chunks of 31 make segments of 32 x 2 x 31 texels (rows, 2
      // chains) and 4 x 4 x 31 (columns, 4 chains), several per line, and the tile fits 32 KiB.
      if (std::string_view(c.knob) == "chunk") s.knobs["workgroup"] = KnobValue{32, 1};
      checker.check(source, SettingRun{s, false});
      if (HasFatalFailure()) return;
    }
    EXPECT_EQ(checker.checked, 2) << c.variant;
    EXPECT_EQ(checker.refused, 0) << c.variant;
  }
}

// compute-sliding's walks read and written raw (walk-io: rgba8 bits, two channels summed a word,
// rounded in integers; auto takes it for an rgba8 input and intermediate) and both orders (rows
// first; transposed: both passes down columns, each stored transposed, the intermediate H x W), in
// segments of 37 texels (several per line, a partial last one) at 131x97.
class SlidingRuns {
 public:
  SlidingRuns() : checker_(*find_variant("compute-sliding")), odd_({131, 97}, gl::Format::rgba8, 131u * 5 + 97) {}
  static constexpr KnobValue kAuto{0, 0}, kTyped{1, 0}, kRaw{2, 0}, kRowsFirst{0, 0}, kTransposed{1, 0};
  bool run(BorderMode mode, int radius, KnobValues knobs, std::optional<gl::Format> mid = std::nullopt) {
    return run(odd_, mode, radius, std::move(knobs), mid);
  }
  bool run(Source& source, BorderMode mode, int radius, KnobValues knobs, std::optional<gl::Format> mid = std::nullopt) {
    BlurSettings s;
    s.kernel = make_kernel(KernelType::Box, radius, std::nullopt);
    s.border.mode = mode;
    if (mode == BorderMode::Constant) s.border.value = {1.0f, 0.5f, 0.0f, 1.0f};
    s.input_format = source.texture.format();
    s.intermediate = mid;
    knobs["segment"] = KnobValue{37, 0};
    s.knobs = std::move(knobs);
    ++runs;
    return checker_.check(source, SettingRun{s, false});
  }
  // Every run was checked: none refused.
  void expect_all_checked() const {
    EXPECT_EQ(checker_.checked, runs);
    EXPECT_EQ(checker_.refused, 0);
  }
  int runs = 0;

 private:
  Checker checker_;
  Source odd_;
};

// The first tier's (what its mutations need): rows first raw at r = 1 with a constant border (the
// second pass reads the constant beside the first pass's outputs: a channel order both passes got
// wrong alike shows only there) and with an rgba16f intermediate (auto: typed, it runs);
// transposed raw at r = 40 (windows past the image's height), at 131x97 and at 43x131 (taller than
// wide: the second pass's lines are the image's rows, which a pass sized from the untransposed
// image undercounts only there), and with an rgba16f input (auto:
// typed, its bits are no rgba8 texels); both at r = 128 by default (auto: raw; a window of 257, the
// 16-bit fields' largest sums). Raw with an rgba16f intermediate must be refused, for that reason
// (Limit::Knobs).
TEST(BoxWalks, SlidingWalksRawAndTransposed) {
  SlidingRuns sliding;
  using K = SlidingRuns;
  EXPECT_TRUE(sliding.run(BorderMode::Constant, 1, {{"order", K::kRowsFirst}, {"walk-io", K::kRaw}}));
  EXPECT_TRUE(sliding.run(BorderMode::Clamp, 9, {{"order", K::kRowsFirst}, {"walk-io", K::kAuto}}, gl::Format::rgba16f));
  EXPECT_TRUE(sliding.run(BorderMode::Clamp, 40, {{"order", K::kTransposed}, {"walk-io", K::kRaw}}));
  Source tall({43, 131}, gl::Format::rgba8, 43u * 5 + 131);
  EXPECT_TRUE(sliding.run(tall, BorderMode::Clamp, 40, {{"order", K::kTransposed}, {"walk-io", K::kRaw}})) << "43x131";
  Source hdr({61, 43}, gl::Format::rgba16f, 61u + 43);
  EXPECT_TRUE(sliding.run(hdr, BorderMode::Constant, 7, {{"order", K::kTransposed}}));
  for (KnobValue order : {K::kRowsFirst, K::kTransposed}) EXPECT_TRUE(sliding.run(BorderMode::Reflect, 128, {{"order", order}}));
  sliding.expect_all_checked();

  const VariantInfo& variant = *find_variant("compute-sliding");
  BlurSettings s;
  s.kernel = make_kernel(KernelType::Box, 3, std::nullopt);
  s.input_format = gl::Format::rgba8;
  s.intermediate = gl::Format::rgba16f;
  s.knobs["walk-io"] = SlidingRuns::kRaw;
  const auto refusal = variant.check(resolve(variant, s), {64, 64}, gl_info().limits);
  ASSERT_TRUE(refusal) << "walk-io raw with an rgba16f intermediate must be refused";
  EXPECT_EQ(refusal->limit, Limit::Knobs) << refusal->reason;
  EXPECT_NE(refusal->reason.find("rgba8 and rgba16f"), std::string::npos) << refusal->reason;
}

// The full tier's: both orders raw at every border at r = 40 and at r = 1, typed beside them, auto
// with an rgba16f intermediate, 33x17 and 1x1, and an rgba16f input.
TEST(BoxWalks, SlidingWalksEveryBorderAndFormat) {
  SlidingRuns sliding;
  for (KnobValue order : {SlidingRuns::kRowsFirst, SlidingRuns::kTransposed}) {
    for (BorderMode mode : kBorderModes) {
      EXPECT_TRUE(sliding.run(mode, 40, {{"order", order}, {"walk-io", SlidingRuns::kRaw}})) << name(mode);
      if (HasFatalFailure()) return;
    }
    EXPECT_TRUE(sliding.run(BorderMode::Clamp, 1, {{"order", order}, {"walk-io", SlidingRuns::kRaw}}));
    EXPECT_TRUE(sliding.run(BorderMode::Wrap, 40, {{"order", order}, {"walk-io", SlidingRuns::kTyped}}));
    EXPECT_TRUE(sliding.run(BorderMode::Clamp, 9, {{"order", order}}, gl::Format::rgba16f));
    for (glm::ivec2 size : {glm::ivec2(33, 17), glm::ivec2(1, 1)}) {
      Source small(size, gl::Format::rgba8, static_cast<unsigned>(size.x * 3 + size.y));
      EXPECT_TRUE(sliding.run(small, BorderMode::Reflect101, 5, {{"order", order}})) << size.x << "x" << size.y;
    }
    Source hdr({61, 43}, gl::Format::rgba16f, 61u + 43);
    EXPECT_TRUE(sliding.run(hdr, BorderMode::Constant, 7, {{"order", order}}));
  }
  sliding.expect_all_checked();
}

// compute-sliding-subgroup's walks: rows walked by groups of 32 lanes in segments of `row-walk`
// texels (37: a partial step at every segment's end), columns in segments of `column-walk` (23),
// so each line holds several segments in both directions, at both radius extremes and a border
// mode that wraps; both scan forms where the device has subgroup arithmetic (llvmpipe: the shared
// one). The shared form's idle walkers (past the last row) still run every barrier.
TEST(BoxWalks, SubgroupWalksSeveralSegmentsPerLine) {
  const VariantInfo& variant = *find_variant("compute-sliding-subgroup");
  Checker checker(variant);
  std::vector<int> scans{0};
  if (device_has_extension(gl_info().limits, "GL_KHR_shader_subgroup_arithmetic") && gl_info().limits.subgroup_size == 32) scans.push_back(1);
  int runs = 0;
  for (int scan : scans)
    for (glm::ivec2 size : {glm::ivec2(300, 2100), glm::ivec2(2100, 300), glm::ivec2(517, 389)})
      for (int radius : {1, 8, 128}) {
        Source source(size, gl::Format::rgba8, static_cast<unsigned>(size.x + size.y + radius));
        BlurSettings s;
        s.kernel = make_kernel(KernelType::Box, radius, std::nullopt);
        s.input_format = gl::Format::rgba8;
        s.border.mode = radius == 8 ? BorderMode::Wrap : BorderMode::Clamp;
        s.knobs["row-walk"] = KnobValue{37, 0};
        s.knobs["column-walk"] = KnobValue{23, 0};
        s.knobs["scan"] = KnobValue{scan, 0};
        s.knobs["workgroup"] = KnobValue{64, 1};
        checker.check(source, SettingRun{s, false});
        if (HasFatalFailure()) return;
        ++runs;
      }
  EXPECT_EQ(checker.checked, runs);
  EXPECT_EQ(checker.refused, 0);
}

}  // namespace
}  // namespace blurlab::test
