// compute-scan: the MPS box blur as Toschi inferred it from the trace. Pass 1: running sums
// along rows into an rgba32f intermediate. Pass 2: several invocations per column, each on a
// contiguous chunk of rows, find their starting window through a shared-memory prefix scan of
// the chunk totals instead of a 2r+1 warm-up each (see glsl/compute_scan.comp).
#include "variants/sliding.h"

namespace blurlab {
namespace {

// The intermediate is always rgba32f, chosen here rather than by --format (uses_intermediate
// stays false): it holds the raw row sums, exact integers up to 255 * 257 = 65535 for rgba8
// input and full fp32 sums for float input; as MPS does. rgba8 or rgba16f could hold only row
// averages, whose rounding the column scan would then add up.
constexpr gl::Format kIntermediate = gl::Format::rgba32f;

class ComputeScan final : public Blur {
 public:
  void prepare(BlurSetup& setup) override { programs_ = sliding::rows_then_columns(setup, "compute_scan.comp", kIntermediate); }
  void run(BlurPasses& passes) override {
    const BlurSettings& s = passes.settings();
    const glm::ivec2 size = passes.size();
    const gl::Texture& rows = passes.intermediate(0, kIntermediate);
    const glm::ivec2 wg = s.workgroup();
    const int rows_per_group = sliding::segment(s) * wg.y;  // WG_Y chunks of a segment each
    sliding::dispatch_line_pass(passes, "h", *programs_.rows, 0, passes.source(), rows);
    passes.dispatch("v", *programs_.columns, {Binding::read(rows), Binding::write(passes.destination())},
                    groups_covering(size, {wg.x, rows_per_group}));
  }

 private:
  sliding::RowsThenColumns programs_;
};

// Shared memory of the vertical pass: two sums of 16 bytes (uvec4 or vec4) per invocation.
SharedMemory shared_memory(const BlurSettings& s) {
  const glm::ivec2 wg = s.workgroup();
  return {2LL * wg.x * wg.y * 16, "2 x " + std::to_string(wg.x) + "x" + std::to_string(wg.y) + " sums of 16 bytes"};
}

// Float input. Pass 1: a row slide over a segment. Pass 2, per output: the window before the
// workgroup's rows (2r+1 terms in WG_Y shares, then the shares added: 2r + WG_Y roundings of
// window sums); the totals of the chunks before its own (at most the workgroup's rows in steps;
// their running value is a difference of two windows, up to twice a window: 2 units, plus the
// entering - leaving difference) and their WG_Y additions; then its own chunk's slide; and the
// weights.
double terms(const BlurSettings& s, glm::ivec2 size) {
  const int r = s.kernel.radius, chunks = s.workgroup().y, segment = sliding::segment(s);
  const double rows = std::min(static_cast<double>(segment) * chunks, static_cast<double>(size.y));
  const double chunk = std::ceil(rows / chunks);
  const double vertical = 2.0 * r + chunks + (2.0 + 2.0 / (2.0 * r + 1.0)) * rows + chunks +
                          (1.0 + 2.0 / (2.0 * r + 1.0)) * chunk;
  return sliding::slide_terms(r, sliding::segment_steps(segment, size.x)) + vertical + sliding::kScaleTerms;
}

WorkBound own_bound(const BlurSettings& s, glm::ivec2 size) { return sliding::rows_then_columns_bound(s, size, kIntermediate); }

}  // namespace

namespace variant {
extern const VariantInfo compute_scan{
    .name = "compute-scan",
    .stage = Stage::Compute,
    .family = Family::RunningSums,
    .summary = "box only: row running sums into rgba32f, then a cooperative column scan (the MPS pair)",
    .kernels = KernelSupport::BoxOnly,
    .knobs = {knobs::workgroup({{16, 16}, {32, 8}, {8, 32}, {32, 4}}), sliding::unroll_knob({4, 1, 8}),
              knobs::segment({64, 16, 256, 1024, 16384})},
    .accumulated_terms = terms,
    .shared_memory = shared_memory,
    .create = [] { return std::unique_ptr<Blur>(new ComputeScan); },
    .own_bound = own_bound,
};
}  // namespace variant
}  // namespace blurlab
