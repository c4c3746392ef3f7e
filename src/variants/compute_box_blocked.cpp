// compute-box-blocked: a box of any radius in one dispatch. Column running sums walk down a tile
// in registers (the texels' bits loaded coalesced: rgba8 as a uint whose column sums are two
// 16-bit fields); each invocation then owns K consecutive columns of a row: one window from two
// prefix sums (one scan step per K columns), K - 1 windows by sliding. See
// glsl/compute_box_blocked.comp.
#include <cmath>

#include "variants/sliding.h"

namespace blurlab {
namespace {

const Knob kColumns{.name = "columns",
                    .help = "Box blocked: consecutive columns each invocation sums in registers (fewer scan steps, more registers)",
                    .define = "COLUMNS",
                    .min = 1,
                    .max = 32,
                    .candidates = {{8}, {4}, {16}}};
const Knob kScan = sliding::scan_knob();
const Knob kSegment = knobs::segment({128, 64, 256, 512});

int span(const BlurSettings& s) { return s.workgroup().x * s.integer(kColumns); }
int tile_width(const BlurSettings& s) { return span(s) - 2 * s.kernel.radius; }
bool exact(const BlurSettings& s) { return s.input_format == gl::Format::rgba8; }

class ComputeBoxBlocked final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    program_ = &setup.compute("compute_box_blocked.comp", s.input_format, s.input_format, {{"EXACT", exact(s) ? "1" : "0"}});
  }
  void run(BlurPasses& passes) override {
    const BlurSettings& s = passes.settings();
    const glm::ivec2 size = passes.size();
    const int tile = tile_width(s), segment = s.integer(kSegment);
    const gl::Texture &src = passes.source(), &dst = passes.destination();
    passes.dispatch("blur", *program_,
                    {Binding::read_raw(src), Binding::write_raw(dst)},
                    {{(size.x + tile - 1) / tile, (size.y + segment - 1) / segment, 1},
                     "ceil(W / " + std::to_string(tile) + ") x ceil(H / " + std::to_string(segment) + ") x 1"});
  }

 private:
  const gl::Program* program_ = nullptr;
};

std::optional<std::string> check(const BlurSettings& s, glm::ivec2, const gl::GlLimits& limits) {
  const int n = s.workgroup().x, columns = s.integer(kColumns);
  if (s.workgroup().y != 1) return "workgroup must be Nx1 (a row of invocations, each owning " + std::to_string(columns) + " columns)";
  if ((columns & (columns - 1)) != 0)
    return "columns " + std::to_string(columns) + " is not a power of two (the shared-memory padding is conflict-free for those)";
  if (tile_width(s) < 1)
    return "a span of " + std::to_string(n) + " x " + std::to_string(columns) + " = " + std::to_string(span(s)) +
           " columns leaves no tile beside the 2r = " + std::to_string(2 * s.kernel.radius) +
           " apron columns; use a larger --workgroup or --columns";
  if (auto reason = sliding::subgroup_scan_reason(s, n, limits)) return reason;
  // A row of column sums V and a row of outputs, and three prefix sums (16 bytes) per invocation.
  const long long padded = span(s) + span(s) / 32, texel = exact(s) ? 4 : 8, column = 2 * texel;
  const long long bytes = padded * (column + texel) + 3 * 16LL * n;
  return sliding::shared_memory_reason(bytes, "a row of " + std::to_string(span(s)) + " columns: column sums in, outputs out", limits);
}

// Loop iterations of one invocation: the warm-up (a group of 4 rows per iteration), then per row
// the loads, the columns, the windows, the totals before two owners (serial) and the stores.
double loop_iterations(const BlurSettings& s, glm::ivec2 size) {
  const double n = s.workgroup().x, columns = s.integer(kColumns);
  const double rows = std::min(s.integer(kSegment), size.y);
  return (2.0 * s.kernel.radius + 1) / 4 * columns + rows * (4 * columns + 2 * n + std::ceil(tile_width(s) / n));
}

// Float input: the vertical running sum (a warm-up and a slide over the segment); then each prefix
// value is a sum of at most K + 2N roundings (K in registers, N scan steps and N group totals at
// most) of values up to the span's N * K window column sums, i.e. N * K / (2r+1) output units
// each; a window is the difference of two, slid K - 1 times (two roundings of about one output
// unit each); and the weights.
double terms(const BlurSettings& s, glm::ivec2 size) {
  const double r = s.kernel.radius, n = s.workgroup().x, columns = s.integer(kColumns);
  return sliding::slide_terms(s.kernel.radius, sliding::segment_steps(s.integer(kSegment), size.y)) +
         2.0 * (columns + 2 * n) * span(s) / (2.0 * r + 1.0) + 2.0 * columns + sliding::kScaleTerms;
}

}  // namespace

namespace variant {
extern const VariantInfo compute_box_blocked{
    .name = "compute-box-blocked",
    .stage = Stage::Compute,
    .summary = "box only, one dispatch, cost independent of r: column running sums in registers, per row one prefix-sum window per K columns, then K - 1 slides",
    .kernels = KernelSupport::BoxOnly,
    .knobs = {knobs::workgroup({{64, 1}, {128, 1}, {32, 1}, {256, 1}}), kColumns, kSegment, kScan},
    .accumulated_terms = terms,
    .loop_iterations = loop_iterations,
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new ComputeBoxBlocked); },
};
}  // namespace variant
}  // namespace blurlab
