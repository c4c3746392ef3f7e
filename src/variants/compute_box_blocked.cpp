// compute-box-blocked: compute-box-prefix's algorithm (column running sums walking down a tile,
// rows of them prefix-summed: out = P(x + r) - P(x - r - 1)) with the row work register-blocked:
// each invocation owns K consecutive columns, so a row's prefix is K adds in registers and one
// scan step per K columns. Texels move as their bits (rgba8: a uint, whose column sums are two
// 16-bit fields per uint; rgba16f: two uints), so shared memory carries one or two words per
// texel each way. See glsl/compute_box_blocked.comp.
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
const Knob kBatch = sliding::batch_knob({1, 2, 4});
const Knob kScan = sliding::scan_knob();
// 32 and 16: the H200's fastest at r <= 16 (docs/PERFORMANCE.md, issue 16); longer walks pay less warm-up at large r.
const Knob kSegment = knobs::segment({128, 64, 256, 512, 32, 16});

int span(const BlurSettings& s) { return s.workgroup().x * s.integer(kColumns); }
int tile_width(const BlurSettings& s) { return span(s) - 2 * s.kernel.radius; }
bool exact(const BlurSettings& s) { return s.input_format == gl::Format::rgba8; }
// rgba8 windows of at most 65535 per channel ((2r+1)^2 x 255 < 2^16: r <= 7) keep the row's prefix
// sums packed, two channels per uint, as the column sums are.
bool packed(const BlurSettings& s) {
  const long long area = (2LL * s.kernel.radius + 1) * (2LL * s.kernel.radius + 1);
  return exact(s) && area * 255 < 65536;
}

class ComputeBoxBlocked final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    program_ = &setup.compute("compute_box_blocked.comp", s.input_format, s.input_format,
                              {{"EXACT", exact(s) ? "1" : "0"}, {"PACKED", packed(s) ? "1" : "0"}});
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

std::optional<Refusal> check(const BlurSettings& s, glm::ivec2, const gl::GlLimits& limits) {
  const int n = s.workgroup().x, columns = s.integer(kColumns);
  if (s.workgroup().y != 1)
    return Refusal{Limit::Knobs, "workgroup must be Nx1 (a row of invocations, each owning " + std::to_string(columns) + " columns)"};
  if ((columns & (columns - 1)) != 0)
    return Refusal{Limit::Knobs,
                   "columns " + std::to_string(columns) + " is not a power of two (the shared-memory padding is conflict-free for those)"};
  if (tile_width(s) < 1)
    return Refusal{Limit::Reach,
                   "a span of " + std::to_string(n) + " x " + std::to_string(columns) + " = " + std::to_string(span(s)) +
                       " columns leaves no tile beside the 2r = " + std::to_string(2 * s.kernel.radius) +
                       " apron columns; use a larger --workgroup or --columns",
                   2.0 * s.kernel.radius + 1, static_cast<double>(span(s))};
  return sliding::subgroup_scan_refusal(s, n, limits);
}

// Two transpose rows of texels, four planes of P (two when packed; 4 bytes a value), the row totals.
SharedMemory shared_memory(const BlurSettings& s) {
  const long long n = s.workgroup().x, batch = s.integer(kBatch);
  const long long padded = span(s) + span(s) / 32, texel = exact(s) ? 4 : 8, prefix = packed(s) ? 8 : 16;
  return {batch * padded * (2 * texel + prefix) + prefix * batch * n,
          std::to_string(batch) + (batch == 1 ? " row" : " rows") + " of " + std::to_string(span(s)) + " columns: texels in, prefix sums out"};
}

// Loop iterations of one invocation: the warm-up (a group of 4 rows per iteration), then per batch
// the loads, the columns, the scan of the totals before it (serial in shared memory) and the outputs.
double loop_iterations(const BlurSettings& s, glm::ivec2 size) {
  const double n = s.workgroup().x, columns = s.integer(kColumns), batch = s.integer(kBatch);
  const double rows = std::min(s.integer(kSegment), size.y);
  const double per_batch = batch * (4 * columns + n + 2 * std::ceil(tile_width(s) / n));
  return (2.0 * s.kernel.radius + 1) / 4 * columns + std::ceil(rows / batch) * per_batch;
}

// Float input: the vertical running sum (a warm-up and a slide over the segment); then each prefix
// value is a sum of at most K + N roundings (K in registers, N scan steps at most) of values up to
// the span's N * K window column sums, i.e. N * K / (2r+1) output units each; a window is the
// difference of two; and the weights.
double terms(const BlurSettings& s, glm::ivec2 size) {
  const double r = s.kernel.radius, n = s.workgroup().x, columns = s.integer(kColumns);
  return sliding::slide_terms(s.kernel.radius, sliding::segment_steps(s.integer(kSegment), size.y)) +
         2.0 * (columns + n) * span(s) / (2.0 * r + 1.0) + sliding::kScaleTerms;
}

}  // namespace

namespace variant {
extern const VariantInfo compute_box_blocked{
    .name = "compute-box-blocked",
    .stage = Stage::Compute,
    .summary = "box only, one dispatch, cost independent of r: column running sums, row prefix sums over K columns per invocation in registers",
    .kernels = KernelSupport::BoxOnly,
    .knobs = {knobs::workgroup({{64, 1}, {128, 1}, {32, 1}, {256, 1}}), kColumns, kSegment, kBatch, kScan},
    .accumulated_terms = terms,
    .loop_iterations = loop_iterations,
    .shared_memory = shared_memory,
    .extension = sliding::scan_extension,
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new ComputeBoxBlocked); },
};
}  // namespace variant
}  // namespace blurlab
