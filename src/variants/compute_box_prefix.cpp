// compute-box-prefix: a box blur in one dispatch whose cost does not grow with r. Per tile,
// running sums walk down the columns (two loads per output row, whatever r is) and the rows of
// those column sums are summed horizontally by prefix sums in shared memory: out = P(x + r) -
// P(x - r - 1). Reads: each texel about twice (entering and leaving the vertical window, the
// second read a cache hit), plus the tile's aprons: 2r columns of N and a 2r+1-row warm-up per
// SEGMENT rows (see glsl/compute_box_prefix.comp).
#include <cmath>

#include "variants/sliding.h"

namespace blurlab {
namespace {

const Knob kBatch = sliding::batch_knob({4, 2, 8, 1});
const Knob kScan = sliding::scan_knob();
// Walks sized by the image and the radius: they double while workgroups x warm-up rows stay at
// least 20480 (sliding::walk_rows). They were 512 rows: 136 workgroups at 4096x4096 and 24 at
// 1920x1080 for r = 1, as slow at 1080p as at 4096x4096. A sweep of 16 .. 512 rows at r = 1, 16
// and 64 at both sizes (docs/EXPERIMENTS.md): short walks won at r = 1, long ones at r = 64; the
// walks that won by more than the runs' spread put the number between 17.4 k and 22.1 k.
const Knob kRows = sliding::walk_rows_knob({0, 512, 64, 16});

int span(const BlurSettings& s) { return s.workgroup().x; }
int tile_width(const BlurSettings& s) { return span(s) - 2 * s.kernel.radius; }
int rows(const BlurSettings& s, glm::ivec2 size) { return sliding::walk_rows(s, size, tile_width(s), 20480); }
bool exact(const BlurSettings& s) { return s.input_format == gl::Format::rgba8; }
int sum_bytes(const BlurSettings&) { return 16; }  // uvec4 or vec4

class ComputeBoxPrefix final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    program_ = &setup.compute("compute_box_prefix.comp", s.input_format, s.input_format,
                              {{"EXACT", exact(s) ? "1" : "0"}, {"SEGMENT", std::to_string(rows(s, setup.size()))}});
  }
  void run(BlurPasses& passes) override {
    const BlurSettings& s = passes.settings();
    const glm::ivec2 size = passes.size();
    const int tile = tile_width(s), segment = rows(s, size);
    passes.dispatch("blur", *program_, {Binding::read(passes.source()), Binding::write(passes.destination())},
                    {{(size.x + tile - 1) / tile, (size.y + segment - 1) / segment, 1},
                     "ceil(W / " + std::to_string(tile) + ") x ceil(H / " + std::to_string(segment) + ") x 1"});
  }

 private:
  const gl::Program* program_ = nullptr;
};

std::optional<Refusal> check(const BlurSettings& s, glm::ivec2, const gl::GlLimits& limits) {
  const glm::ivec2 wg = s.workgroup();
  const int n = wg.x, batch = s.integer(kBatch);
  if (wg.y != 1) return Refusal{Limit::Knobs, "workgroup must be Nx1 (one invocation per column of the tile and its apron)"};
  if (n % batch != 0)
    return Refusal{Limit::Knobs, "batch " + std::to_string(batch) + " must divide the workgroup's " + std::to_string(n) + " columns"};
  if (tile_width(s) < 1)
    return Refusal{Limit::Reach,
                   "a workgroup of " + std::to_string(n) + " columns leaves no tile beside the 2r = " + std::to_string(2 * s.kernel.radius) +
                       " apron columns; use --workgroup above " + std::to_string(2 * s.kernel.radius),
                   2.0 * s.kernel.radius + 1, static_cast<double>(n)};
  return sliding::subgroup_scan_refusal(s, n / batch, limits);
}

SharedMemory shared_memory(const BlurSettings& s) {
  const long long n = s.workgroup().x, batch = s.integer(kBatch);
  return {(batch * n + n) * sum_bytes(s), std::to_string(batch) + " rows of " + std::to_string(n) + " sums of 16 bytes"};
}

// Loop iterations of one invocation: the warm-up, then per batch the loads, the chunk, the scan
// of the chunks before it (serial in shared memory) and the outputs.
double loop_iterations(const BlurSettings& s, glm::ivec2 size) {
  const double n = s.workgroup().x, batch = s.integer(kBatch), walk = std::min(rows(s, size), size.y);
  const double per_batch = 4 * batch + n / batch + std::ceil(batch * tile_width(s) / n) + 4;
  return (2.0 * s.kernel.radius + 1) / 4 + std::ceil(walk / batch) * per_batch;
}

// Float input: the vertical running sum (a warm-up and a slide over the segment), then each
// prefix value is a sum of at most BATCH + N/BATCH roundings of values up to N window sums,
// i.e. N / (2r+1) output units each; a window is the difference of two; and the weights.
double terms(const BlurSettings& s, glm::ivec2 size) {
  if (exact(s)) return sliding::kScaleTerms;  // rgba8: integer sums, exact; only the scale rounds
  const double r = s.kernel.radius, n = s.workgroup().x, batch = s.integer(kBatch);
  return sliding::slide_terms(s.kernel.radius, sliding::segment_steps(rows(s, size), size.y)) +
         2.0 * (batch + n / batch) * n / (2.0 * r + 1.0) + sliding::kScaleTerms;
}

}  // namespace

namespace variant {
extern const VariantInfo compute_box_prefix{
    .name = "compute-box-prefix",
    .stage = Stage::Compute,
    .family = Family::RunningSums,
    .summary = "box only, one dispatch, cost independent of r: column running sums down a tile, row prefix sums in shared memory",
    .kernels = KernelSupport::BoxOnly,
    // 128 columns and batch 1 let a 32 KiB device run every other candidate (batch 8 at 128). No 1024
    // columns: batch 1 (the only one whose rows fit 32 KiB) loops 1024 chunks per row, past llvmpipe's
    // 65535 iterations even on 64-row segments, so the grid could never check it.
    .knobs = {knobs::workgroup({{256, 1}, {512, 1}, {128, 1}}), kRows, kBatch, kScan},
    .accumulated_terms = terms,
    .loop_iterations = loop_iterations,
    .shared_memory = shared_memory,
    .extension = sliding::scan_extension,
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new ComputeBoxPrefix); },
    .own_bound = sliding::one_pass_box_bound,
};
}  // namespace variant
}  // namespace blurlab
