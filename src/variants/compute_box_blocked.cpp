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
                    .help = "Box blocked: consecutive columns each invocation sums in registers (fewer scan steps, more registers; "
                            "0: the fewest of 4, 8, 16, 32 whose span is at least 4r, so the apron is at most half the loads)",
                    // No define: the shader reads the columns the host resolves (0: by the radius).
                    .min = 0,
                    .max = 32,
                    .candidates = {{0}, {4}, {8}, {16}}};
const Knob kBatch = sliding::batch_knob({1, 2, 4});
const Knob kScan = sliding::scan_knob();
const Knob kRows = sliding::walk_rows_knob({0, 32, 128, 16});

int columns(const BlurSettings& s) {
  if (s.integer(kColumns) > 0) return s.integer(kColumns);
  int k = 4;
  while (k < 32 && s.workgroup().x * k < 4 * s.kernel.radius) k *= 2;
  return k;
}
int span(const BlurSettings& s) { return s.workgroup().x * columns(s); }
int tile_width(const BlurSettings& s) { return span(s) - 2 * s.kernel.radius; }
// Walks while workgroups x warm-up rows stay at least 36864 (sliding::walk_rows): a sweep of 16 ..
// 512 rows at r = 8, 32, 64 and 128 at 4096x4096 and 1920x1080 put every point's best at 35 k to
// 39 k, faster than the rule before (up to 4r + 2 rows while 1024 workgroups; docs/EXPERIMENTS.md).
int rows(const BlurSettings& s, glm::ivec2 size) { return sliding::walk_rows(s, size, tile_width(s), 36864); }
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
                              {{"EXACT", exact(s) ? "1" : "0"},
                               {"PACKED", packed(s) ? "1" : "0"},
                               {"COLUMNS", std::to_string(columns(s))},
                               {"SEGMENT", std::to_string(rows(s, setup.size()))}});
  }
  void run(BlurPasses& passes) override {
    const BlurSettings& s = passes.settings();
    const glm::ivec2 size = passes.size();
    const int tile = tile_width(s), segment = rows(s, size);
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
  const int n = s.workgroup().x, k = columns(s);
  if (s.workgroup().y != 1)
    return Refusal{Limit::Knobs, "workgroup must be Nx1 (a row of invocations, each owning " + std::to_string(k) + " columns)"};
  if ((k & (k - 1)) != 0)
    return Refusal{Limit::Knobs, "columns " + std::to_string(k) + " is not a power of two (the shared-memory padding is conflict-free for those)"};
  if (tile_width(s) < 1)
    return Refusal{Limit::Reach,
                   "a span of " + std::to_string(n) + " x " + std::to_string(k) + " = " + std::to_string(span(s)) +
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
  const double n = s.workgroup().x, k = columns(s), batch = s.integer(kBatch);
  const double walk = std::min(rows(s, size), size.y);
  const double per_batch = batch * (4 * k + n + 2 * std::ceil(tile_width(s) / n));
  return (2.0 * s.kernel.radius + 1) / 4 * k + std::ceil(walk / batch) * per_batch;
}

// Float input: the vertical running sum (a warm-up and a slide over the segment); then each prefix
// value is a sum of at most K + N roundings (K in registers, N scan steps at most) of values up to
// the span's N * K window column sums, i.e. N * K / (2r+1) output units each; a window is the
// difference of two; and the weights.
double terms(const BlurSettings& s, glm::ivec2 size) {
  if (exact(s)) return sliding::kScaleTerms;  // rgba8: integer sums, exact; only the scale rounds
  const double r = s.kernel.radius, n = s.workgroup().x, k = columns(s);
  return sliding::slide_terms(s.kernel.radius, sliding::segment_steps(rows(s, size), size.y)) +
         2.0 * (k + n) * span(s) / (2.0 * r + 1.0) + sliding::kScaleTerms;
}

}  // namespace

namespace variant {
extern const VariantInfo compute_box_blocked{
    .name = "compute-box-blocked",
    .stage = Stage::Compute,
    .family = Family::RunningSums,
    .summary = "box only, one dispatch, cost independent of r: column running sums, row prefix sums over K columns per invocation in registers",
    .kernels = KernelSupport::BoxOnly,
    // 64 invocations by default: 32 need 16 columns at r = 128 (a span of 4r), whose registers
    // made it many times slower there (docs/EXPERIMENTS.md); at r <= 16 32 invocations were a
    // little faster.
    .knobs = {knobs::workgroup({{64, 1}, {32, 1}, {128, 1}, {256, 1}}), kColumns, kRows, kBatch, kScan},
    .accumulated_terms = terms,
    .loop_iterations = loop_iterations,
    .shared_memory = shared_memory,
    .extension = sliding::scan_extension,
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new ComputeBoxBlocked); },
    .own_bound = sliding::one_pass_box_bound,
};
}  // namespace variant
}  // namespace blurlab
