// fft: an exact blur in the frequency domain, whose cost does not grow with the radius
// (glsl/fft.comp). The box and the Gaussian are separable, so each axis is convolved on its own:
// rows (source -> intermediate), then columns (intermediate -> destination), each line cut into
// segments by overlap-save. A workgroup takes N texels of the line extended by the border rule
// (N - 2r outputs and their 2r apron), packs them as two complex lines (R + iG, B + iA: the kernel
// is real, so the two channels of a pair never mix), transforms both forward (Stockham steps of
// radix 4 or 8, `radix`, through shared memory; a radix-2 or 4 step first where log2 N asks),
// multiplies them by the kernel's spectrum, transforms back and stores the N - 2r outputs whose
// window did not wrap around (a workgroup takes that segment of `lines` neighbouring lines). The
// first step reads the source, the last writes the target, and the product sits in registers
// between the forward's last step and the inverse's first: no shared-memory round trip for the
// loads, the stores or the product (glsl/fft.comp). The
// spectrum of the kernel placed circularly on N points, H[k] = w0 + 2 sum_t w_t cos(2 pi k t / N)
// (real: the kernel is symmetric), is computed by a first pass from the weights block (the same
// float weights every variant reads), divided by N for the inverse transform, into an N x 1
// rgba32f texture both line passes read (its size is the same at every image size: a recipe runs
// at any size). A pass, not an upload: the weights block is the pipeline's one per-kernel datum.
#include <algorithm>
#include <cmath>

#include "blur/blur.h"

namespace blurlab {
namespace {

// Its binding unit beside the generic ones (gl/bindings.h): the kernel's spectrum.
constexpr gl::NamedUnit kSpectrum{"SPECTRUM", 2, gl::kImageUnit};
constexpr std::array kSlots{kSpectrum};

constexpr gl::Format kSpectrumFormat = gl::Format::rgba32f;

// The transform's length: N points per line segment, N - 2r of them outputs. Shared memory: both
// channel pairs, N complex fp32 values each (16 N bytes): 2048 points take 32 KiB a line.
const Knob kPoints{.name = "points",
                   .help = "FFT length N (a power of two): each transform yields N - 2r outputs of a line; shared memory 16 N bytes",
                   .define = "FFT_N",
                   .min = 4,
                   .max = 4096,
                   .candidates = {{512}, {1024}, {2048}},
                   // The segment counts decide: a segment of 1024 points (radix 8, 1 line) costs
                   // about 1.85x one of 512 (radix 4, 2 lines). A 4096-texel line takes 9 segments
                   // of 512 points up to r = 28 and 10 from r = 29 (11 from 52), but 5 of 1024 up
                   // to r = 102: 1024 from r = 29. At 1920x1080 the same count favours 512 points
                   // up to r = 76: the default follows the larger image (docs/PERFORMANCE.md).
                   // From r = 200 2048 points (32 KiB, one line): a 1024-point segment keeps fewer than
                   // 624 outputs, a 2048-point one 1648 (predicted, by the same count, 2048 from about
                   // r = 170; r = 256 and above need it).
                   .default_by_radius = {{0, {512}}, {29, {1024}}, {200, {2048}}}};

int points(const BlurSettings& s) { return s.integer(kPoints); }
// Outputs per segment (overlap-save: the first and last r points are the window's apron).
int outputs(const BlurSettings& s) { return points(s) - 2 * s.kernel.radius; }
int log2_of(int n) {
  int l = 0;
  while ((1 << l) < n) ++l;
  return l;
}
// The Stockham steps' radix: 4 (a radix-2 step first when log2 N is odd: 512 points take 5 steps,
// 1024 take 5), or 8, the 8 points of a butterfly in registers through three radix-2 stages (a
// radix-2 or radix-4 step first when log2 N is not a multiple of 3: 512 points take 3 steps, 1024
// take 4). Each step is a round trip through shared memory between two barriers.
const Knob kRadix = with_defaults_by_radius(Knob{.name = "radix",
                  .help = "FFT steps of radix 4 or 8 (8 points a butterfly in registers: fewer shared-memory round trips, more registers)",
                  .define = "FFT_RADIX",
                  .type = KnobType::Choice,
                  .choices = {{"4", 4}, {"8", 8}},
                  // By default 4 with 512 points (up to r = 28), 8 with 1024: 512 points take 2
                  // lines x 128 radix-4 butterflies a step, one per invocation, against 64 radix-8
                  // ones a line, half the invocations idle; with 1024, 8 measured faster. Radix 8
                  // needs the swizzle below (without it, slower than radix 4).
                  .candidates = {{8}, {4}}}, {{0, {4}}, {29, {8}}});
// Line segments per workgroup, in both passes: the same segment of `lines` neighbouring rows (the
// row pass) or columns (the column pass), side by side in shared memory (16 N bytes each). The
// column pass then reads and writes `lines` neighbouring texels of each row together (one texel per
// row and workgroup with 1); both passes read the spectrum once for all their lines, and fill the
// invocations that a line's N / radix butterflies leave idle (512 points take 128 radix-4
// butterflies a step, 64 radix-8 ones, against 256 invocations).
// By default 2 with 512 points (the radii up to 28) and 1 with 1024: 2 lines of 512 points
// measured the fastest setting at small r (1 line leaves invocations idle, 4 declare too much
// shared memory), 2 of 1024 points (32 KiB) slower than 1 (fewer workgroups resident).
const Knob kLines = with_defaults_by_radius(knobs::lines({2, 1, 4}), {{0, {2}}, {29, {1}}});
// The order of a line's points in shared memory: natural, or each aligned 16 permuted by an XOR
// of bits 3-6 (glsl/fft.comp: at()), which takes the first steps' stores, R points apart, out of
// one bank: on paper 12 wavefronts a transform's steps instead of 28 at 512 points with radix 8,
// 24 instead of 30 with radix 4 (docs/PERFORMANCE.md, "The FFT blur").
const Knob kSwizzle{.name = "swizzle",
                    .help = "FFT: a line's points in shared memory in natural order, or XOR-swizzled against bank conflicts",
                    .define = "FFT_SWIZZLE",
                    .type = KnobType::Choice,
                    .choices = {{"off", 0}, {"xor", 1}},
                    // xor by default: faster in every pairing measured, as the count of bank conflicts predicted.
                    .candidates = {{1}, {0}}};
// The line passes' workgroup: WG_X invocations along the workgroup's line segments, each taking
// ceil(lines N / radix / WG_X) butterflies of each channel pair per step (those past the count
// idle): 256 x 1 gives 1024 points one radix-4 butterfly each.
const Knob kWorkgroup = knobs::workgroup({{256, 1}, {128, 1}, {64, 1}});
int lines(const BlurSettings& s) { return s.integer(kLines); }
// Groups of `lines` lines covering `count` of them, and the formula in the image's side.
int line_groups(int count, const BlurSettings& s) { return (count + lines(s) - 1) / lines(s); }
std::string line_groups_text(const char* side, const BlurSettings& s) {
  return lines(s) == 1 ? std::string(side) : "ceil(" + std::string(side) + " / " + std::to_string(lines(s)) + ")";
}
int segments(int length, const BlurSettings& s) { return (length + outputs(s) - 1) / outputs(s); }
// The first forward step's radix F, what log2 N leaves over steps of the radix (glsl/fft.comp).
int first_radix(const BlurSettings& s) {
  const int l = log2_of(points(s)), radix = s.integer(kRadix);
  if (radix == 8) return l % 3 == 1 ? 2 : l % 3 == 2 ? 4 : 8;
  return l % 2 == 1 ? 2 : 4;
}
// Butterflies one invocation takes in a step of the smaller radix (glsl/fft.comp's B): its loops
// over them are unrolled, and its two register arrays hold 8 complex values each per butterfly.
int butterflies_per_invocation(const BlurSettings& s) {
  const int wg = s.workgroup().x, per_step = lines(s) * (points(s) / std::min(first_radix(s), s.integer(kRadix)));
  return std::max((per_step + wg - 1) / wg, 1);
}
// The most butterflies an invocation is compiled for: twice what the knobs' candidates take with
// the other knobs at their defaults (workgroup 64 or 4 lines at r >= 29: 8). The program grows with
// them: on llvmpipe (2 shared cores, the whole --check run at 64x64) 2 or 4 butterflies took 4 s,
// 8 24 s, 16 28-30 s, 32 58 s (187 s on a busier machine), 128 (workgroup 4) 96 s and 1 GB,
// 512 (workgroup 1) 230 s.
constexpr int kMaxButterfliesPerInvocation = 16;

class Fft final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    const gl::Format io = s.input_format, mid = s.intermediate_format();
    const gl::Defines common = {{"FFT_LOG2", std::to_string(log2_of(points(s)))}};
    gl::Defines spectrum = common, rows = common, columns = common;
    spectrum.push_back({"FFT_PASS", "0"});
    rows.push_back({"FFT_PASS", "1"});
    rows.push_back({"AXIS", "0"});
    columns.push_back({"FFT_PASS", "1"});
    columns.push_back({"AXIS", "1"});
    spectrum_ = &setup.compute("fft.comp", kSpectrumFormat, kSpectrumFormat, spectrum);
    rows_ = &setup.compute("fft.comp", io, mid, rows);
    columns_ = &setup.compute("fft.comp", mid, io, columns);
  }

  void run(BlurPasses& passes) override {
    const BlurSettings& s = passes.settings();
    const glm::ivec2 size = passes.size();
    const int n = points(s), m = outputs(s);
    const gl::Texture& spectrum = passes.fixed_intermediate(1, kSpectrumFormat, glm::ivec2(n, 1));
    const gl::Texture& rows = passes.intermediate(0);
    passes.dispatch("spectrum", *spectrum_, {Binding::write(spectrum)}, {{(n + 63) / 64, 1, 1}, std::to_string((n + 63) / 64) + " x 1 x 1"});
    auto segs = [&](const char* side) { return "ceil(" + std::string(side) + " / " + std::to_string(m) + ")"; };
    passes.dispatch("h", *rows_, {Binding::read(passes.source()), Binding::write(rows), Binding::read(spectrum, kSpectrum)},
                    {{segments(size.x, s), line_groups(size.y, s), 1}, segs("W") + " x " + line_groups_text("H", s) + " x 1"});
    passes.dispatch("v", *columns_, {Binding::read(rows), Binding::write(passes.destination()), Binding::read(spectrum, kSpectrum)},
                    {{line_groups(size.x, s), segments(size.y, s), 1}, line_groups_text("W", s) + " x " + segs("H") + " x 1"});
  }

 private:
  const gl::Program* spectrum_ = nullptr;
  const gl::Program* rows_ = nullptr;
  const gl::Program* columns_ = nullptr;
};

std::optional<Refusal> check(const BlurSettings& s, glm::ivec2 /*size*/, const gl::GlLimits& /*limits*/) {
  const int n = points(s);
  if ((n & (n - 1)) != 0)
    return Refusal{Limit::Setting, "points " + std::to_string(n) + " is not a power of two (the transform's radix-2, 4 and 8 steps)",
                   static_cast<double>(n), static_cast<double>(1 << log2_of(n))};
  if (s.workgroup().y != 1)
    return Refusal{Limit::Knobs, "workgroup " + std::to_string(s.workgroup().x) + "x" + std::to_string(s.workgroup().y) +
                                     ": a workgroup transforms one line segment, so its height must be 1",
                   static_cast<double>(s.workgroup().y), 1.0};
  if (const int b = butterflies_per_invocation(s); b > kMaxButterfliesPerInvocation)
    return Refusal{Limit::Knobs,
                   "workgroup " + std::to_string(s.workgroup().x) + "x1 for " + std::to_string(lines(s)) + " lines of " + std::to_string(n) +
                       " points: each invocation takes " + std::to_string(b) + " butterflies a step (register arrays of " +
                       std::to_string(16 * b) + " complex values), more than the " + std::to_string(kMaxButterfliesPerInvocation) +
                       " a program is compiled for (its unrolled steps grow with them: minutes to compile); a wider workgroup takes fewer",
                   static_cast<double>(b), static_cast<double>(kMaxButterfliesPerInvocation)};
  if (outputs(s) < 1)
    return Refusal{Limit::Reach,
                   "a transform of " + std::to_string(n) + " points holds no output beside the kernel's " +
                       std::to_string(2 * s.kernel.radius + 1) + " taps (r = " + std::to_string(s.kernel.radius) +
                       "; needs N >= 2r + 2)",
                   2.0 * s.kernel.radius + 2.0, static_cast<double>(n)};
  return std::nullopt;
}

SharedMemory shared_memory(const BlurSettings& s) {
  const int n = points(s), l = lines(s);
  return {16LL * n * l, (l == 1 ? "" : std::to_string(l) + " lines x ") + "2 channel pairs x " + std::to_string(n) + " complex fp32"};
}

// Float output: each axis's forward and inverse transform round log2 N times per value (one
// complex multiply and add per step, twiddles from fp32 sin/cos, whose error GPUs take to a few
// units of 2^-24), 4 roundings a step counted (a radix-8 step rounds a value about 8 times over
// its 3 levels: a twiddle product, three adds and at most one product by W8; within the count); an error of the transform spreads over the whole
// segment, so one output may carry up to sqrt(N) times the per-value error (the L2 bound); then
// the spectrum's r + 1 terms and its product, per axis.
double accumulated_terms(const BlurSettings& s, glm::ivec2 /*size*/) {
  const int n = points(s);
  return 2.0 * (2.0 * 4.0 * log2_of(n) * std::sqrt(static_cast<double>(n)) + s.kernel.radius + 2.0);
}

// The least its passes cost: the spectrum pass writes N rgba32f texels, the line passes read and
// write the image once each through the intermediate (overlap-save re-reads 2r texels a segment,
// not counted); fp32 operations (an FMA or an add one each) per segment and channel pair: two
// transforms of 3.5 N log2 N (a radix-4 step: 3 complex twiddle products of 4 operations and 8
// complex adds, 28 per 4 points over 2 levels; a radix-8 step the same 3.5 per point and level: 7
// twiddle products (28), 3 x 8 complex adds (48) and the products by W8 and W8^3 (8), 84 per 8
// points over 3 levels; neither the radix nor the lines per workgroup change the count) and the
// product with the real spectrum (2 N); and the spectrum's N (r + 1) terms.
WorkBound own_bound(const BlurSettings& s, glm::ivec2 size) {
  const gl::Format in = s.input_format, mid = s.intermediate_format();
  const double n = points(s);
  const double per_segment = 2.0 * (2.0 * 3.5 * n * log2_of(points(s)) + 2.0 * n);
  const double segs = static_cast<double>(segments(size.x, s)) * size.y + static_cast<double>(segments(size.y, s)) * size.x;
  return {.bytes = pass_bytes({0, 0}, kSpectrumFormat, {points(s), 1}, kSpectrumFormat) + pass_bytes(size, in, size, mid) +
                   pass_bytes(size, mid, size, in),
          .fmas = segs * per_segment + n * (s.kernel.radius + 1.0)};
}

// The intermediate (the row-blurred image) and the spectrum texture.
double intermediate_bytes(const BlurSettings& s, glm::ivec2 size) {
  return static_cast<double>(size.x) * size.y * gl::info(s.intermediate_format()).bytes_per_texel +
         static_cast<double>(points(s)) * gl::info(kSpectrumFormat).bytes_per_texel;
}

}  // namespace

namespace variant {
extern const VariantInfo fft{
    .name = "fft",
    .stage = Stage::Compute,
    .family = Family::FrequencyDomain,
    .summary = "rows then columns by overlap-save FFT convolution (radix-4 or 8 Stockham in shared memory, two channels per complex line)",
    .uses_intermediate = true,
    .max_radius = kMaxRadius,  // its cost does not grow with r
    .knobs = {kWorkgroup, kPoints, kRadix, kLines, kSwizzle},
    .accumulated_terms = accumulated_terms,
    .shared_memory = shared_memory,
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new Fft); },
    .own_bound = own_bound,
    .intermediate_bytes = intermediate_bytes,
    .slots = kSlots,
};
}  // namespace variant
}  // namespace blurlab
