// compute-sliding-inline: the two running sums of compute-sliding in one dispatch, without an
// intermediate texture: a workgroup walks down a strip of columns, computes the horizontal box
// sums of the rows entering and leaving its vertical windows into shared memory, and keeps one
// vertical running sum per column (see glsl/compute_sliding_inline.comp).
#include "variants/sliding.h"

namespace blurlab {
namespace {

class ComputeSlidingInline final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const gl::Format io = setup.settings().input_format;
    program_ = &setup.compute("compute_sliding_inline.comp", io, io, sliding::pass_defines(io, io, false, false, 2));
  }
  void run(BlurPasses& passes) override {
    const BlurSettings& s = passes.settings();
    const glm::ivec2 size = passes.size();
    const glm::ivec2 wg = s.workgroup();
    const int segment = sliding::segment(s);
    passes.dispatch("blur", *program_, {Binding::read(passes.source()), Binding::write(passes.destination())},
                    groups_covering(size, {wg.x, segment}));
  }

 private:
  const gl::Program* program_ = nullptr;
};

// An invocation loops, per batch of WG_X/2 rows, over a row's warm-up (2r+1 texels, UNROLL at a
// time), its slide over the strip (UNROLL texels at a time; these inner loops are unrolled) and
// the batch's rows (llvmpipe stops an invocation after 65535 iterations: loop_iterations).
struct Walk {
  long long per_batch, batch, warmup;
  long long iterations(long long rows) const { return (warmup + rows + batch - 1) / batch * per_batch; }
};
Walk walk(const BlurSettings& s) {
  const long long n = s.knob(knobs::kUnroll).x, strip = s.workgroup().x, warmup = 2LL * s.kernel.radius + 1;
  return {(warmup + n - 1) / n + (strip + n - 1) / n + strip / 2 + 1, strip / 2, warmup};
}

std::optional<Refusal> check(const BlurSettings& s, glm::ivec2 /*size*/, const gl::GlLimits& /*limits*/) {
  const int strip = s.workgroup().x;
  if (s.workgroup().y != 1 || strip < 2 || strip % 2 != 0)
    return Refusal{Limit::Knobs, "workgroup must be Nx1 with N even (a strip of N columns, batches of N/2 rows)"};
  return std::nullopt;
}

// One row of strip sums (padded by one) per invocation, 16 bytes each (uvec4 or vec4).
SharedMemory shared_memory(const BlurSettings& s) {
  const long long strip = s.workgroup().x;
  return {strip * (strip + 1) * 16, std::to_string(strip) + " rows x " + std::to_string(strip + 1) + " sums of 16 bytes"};
}

double loop_iterations(const BlurSettings& s, glm::ivec2 size) {
  return static_cast<double>(walk(s).iterations(std::min(sliding::segment(s), size.y)));
}

// Float input: each row's horizontal slide over the strip, then the column's slide over a
// segment after a warm-up of 2r+1 additions (one more than a line's warm-up), and the weights.
double terms(const BlurSettings& s, glm::ivec2 size) {
  const int r = s.kernel.radius;
  return sliding::slide_terms(r, s.workgroup().x) + sliding::slide_terms(r, sliding::segment_steps(sliding::segment(s), size.y)) + 1.0 +
         sliding::kScaleTerms;
}

// One pass: the source read once, the output written once; both axes' running sums.
WorkBound own_bound(const BlurSettings& s, glm::ivec2 size) {
  return {.bytes = sliding::pass_bytes(size, s.input_format, s.input_format), .fmas = 2.0 * sliding::kSlideAdds * size.x * size.y};
}

}  // namespace

namespace variant {
extern const VariantInfo compute_sliding_inline{
    .name = "compute-sliding-inline",
    .stage = Stage::Compute,
    .family = Family::RunningSums,
    .summary = "box only: one dispatch, row running sums into shared memory, column running sums from them",
    .kernels = KernelSupport::BoxOnly,
    .knobs = {knobs::workgroup({{32, 1}, {16, 1}}), sliding::unroll_knob({4, 1, 8}), knobs::segment({256, 64, 1024, 16384})},
    .accumulated_terms = terms,
    .loop_iterations = loop_iterations,
    .shared_memory = shared_memory,
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new ComputeSlidingInline); },
    .own_bound = own_bound,
};
}  // namespace variant
}  // namespace blurlab
