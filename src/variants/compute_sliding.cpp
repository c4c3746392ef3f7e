// compute-sliding: Toschi's "accumulated double pass". Two dispatches: a running box sum along
// each row into the intermediate, then along each column; every output adds the entering texel
// and subtracts the leaving one, so the cost does not grow with r. Lines are cut into segments
// that warm their window up independently, so a 1080p image keeps a big GPU busy. rgba8 texels
// move as their bits by default (walk-io); knob order walks columns in both passes instead, each
// storing transposed (it shows what the row pass's scattered stores cost: docs/EXPERIMENTS.md).
#include "variants/sliding.h"

namespace blurlab {
namespace {

// Which lines each pass walks. rows-first: the row pass's invocations each walk a row, so a warp's
// loads and stores touch 32 rows at once; transposed: both passes walk columns (a warp's loads are
// 32 neighbouring texels of a row), each storing its result transposed, the first into an H x W
// intermediate, the second (whose columns are the image's rows) back.
constexpr int kRowsFirst = 0, kTransposed = 1;
const Knob kOrder{.name = "order",
                  .help = "compute-sliding: rows, then columns (rows-first), or both passes down columns, each storing its result "
                          "transposed (transposed: every load a warp's neighbouring texels)",
                  .define = "TRANSPOSED",
                  .type = KnobType::Choice,
                  .choices = {{"rows-first", kRowsFirst}, {"transposed", kTransposed}},
                  .candidates = {{kRowsFirst}, {kTransposed}}};
// How texels move: through typed images, or as rgba8 bits (raw bindings), summed two channels a
// word and rounded in integers (glsl/sliding_common.glsl's SLIDE_PACKED): an rgba8 input and
// intermediate only. auto: raw where those are rgba8, else typed. (No define: the host resolves
// auto into WALK_RAW.)
constexpr int kWalkAuto = 0, kWalkTyped = 1, kWalkRaw = 2;
const Knob kWalkIo{.name = "walk-io",
                   .help = "compute-sliding: texels through typed images, or (raw) rgba8 texels as their bits, two channels summed "
                           "a word, outputs rounded in integers (rgba8 input and intermediate only); auto: raw where they are rgba8",
                   .type = KnobType::Choice,
                   .choices = {{"auto", kWalkAuto}, {"typed", kWalkTyped}, {"raw", kWalkRaw}},
                   .candidates = {{kWalkAuto}, {kWalkTyped}, {kWalkRaw}}};

bool transposed(const BlurSettings& s) { return s.integer(kOrder) == kTransposed; }
// Loads in flight and walk length, by radius: the fastest of unroll 4 / 8 / 16 x segment 64 / 128 /
// 256 in a sweep of both image sizes (docs/EXPERIMENTS.md): short segments, 8 loads in flight,
// while the radius is small; from r = 96, where each segment's warm-up of 2r + 1 texels weighs,
// longer segments with more loads in flight. 96 is halfway between the radii measured.
const Knob kUnroll = with_defaults_by_radius(sliding::unroll_knob({8, 4, 1, 2, 16, 32}), {{96, {16}}});
const Knob kSegment = with_defaults_by_radius(knobs::segment({64, 128, 256, 1024, 16384}), {{96, {128}}});

bool rgba8_walk(const BlurSettings& s) { return s.input_format == gl::Format::rgba8 && s.intermediate_format() == gl::Format::rgba8; }
bool raw(const BlurSettings& s) {
  const int io = s.integer(kWalkIo);
  return io == kWalkRaw || (io == kWalkAuto && rgba8_walk(s));
}

class ComputeSliding final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    programs_ = sliding::rows_then_columns(setup, "compute_sliding.comp", s.intermediate_format(), transposed(s) ? 1 : 0,
                                           {{"WALK_RAW", raw(s) ? "1" : "0"}});
  }
  void run(BlurPasses& passes) override {
    const BlurSettings& s = passes.settings();
    const bool io_raw = raw(s);
    if (!transposed(s)) {
      const gl::Texture& rows = passes.intermediate(0);
      sliding::dispatch_line_pass(passes, "h", *programs_.rows, 0, passes.source(), rows, std::nullopt, {.raw = io_raw});
      sliding::dispatch_line_pass(passes, "v", *programs_.columns, 1, rows, passes.destination(), std::nullopt, {.raw = io_raw});
      return;
    }
    const glm::ivec2 size = passes.size();
    const gl::Texture& columns = passes.intermediate(0, std::nullopt, glm::ivec2(size.y, size.x));
    sliding::dispatch_line_pass(passes, "v", *programs_.rows, 1, passes.source(), columns, std::nullopt, {.raw = io_raw});
    sliding::dispatch_line_pass(passes, "h", *programs_.columns, 1, columns, passes.destination(), std::nullopt,
                                {.transposed_source = true, .raw = io_raw});
  }

 private:
  sliding::RowsThenColumns programs_;
};

std::optional<Refusal> check(const BlurSettings& s, glm::ivec2 /*size*/, const gl::GlLimits& /*limits*/) {
  if (s.integer(kWalkIo) == kWalkRaw && !rgba8_walk(s))
    return Refusal{Limit::Knobs, "walk-io raw moves rgba8 texels as their bits: it needs an rgba8 input and intermediate (here " +
                                     std::string(gl::info(s.input_format).name) + " and " +
                                     std::string(gl::info(s.intermediate_format()).name) + ")"};
  return std::nullopt;
}

// Float input: a warm-up and a slide over at most a segment in each pass, and the weights.
double terms(const BlurSettings& s, glm::ivec2 size) {
  const int r = s.kernel.radius;
  return sliding::slide_terms(r, sliding::segment_steps(sliding::segment(s), size.x)) +
         sliding::slide_terms(r, sliding::segment_steps(sliding::segment(s), size.y)) + 2 * sliding::kScaleTerms;
}

}  // namespace

namespace variant {
extern const VariantInfo compute_sliding{
    .name = "compute-sliding",
    .stage = Stage::Compute,
    .family = Family::RunningSums,
    .summary = "box only: running sums along rows, then columns, one invocation per line segment",
    .kernels = KernelSupport::BoxOnly,
    .uses_intermediate = true,
    .knobs = {knobs::workgroup({{64, 1}, {32, 1}, {256, 1}}), kUnroll, kSegment, kOrder, kWalkIo},
    .accumulated_terms = terms,
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new ComputeSliding); },
    .own_bound = sliding::two_pass_bound,
};
}  // namespace variant
}  // namespace blurlab
