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
    passes.dispatch("blur", *program_, {Binding::read(passes.source()), Binding::write(passes.destination())},
                    {(size.x + s.workgroup.x - 1) / s.workgroup.x, (size.y + s.segment - 1) / s.segment, 1});
  }

 private:
  const gl::Program* program_ = nullptr;
};

// Shared memory: one row of strip sums (padded by one) per invocation, 16 bytes each (uvec4 or vec4).
std::optional<std::string> check(const BlurSettings& s, glm::ivec2, const gl::GlLimits& limits) {
  const int strip = s.workgroup.x;
  if (s.workgroup.y != 1 || strip < 2 || strip % 2 != 0)
    return "workgroup must be Nx1 with N even (a strip of N columns, batches of N/2 rows)";
  return sliding::shared_memory_reason(
      static_cast<long long>(strip) * (strip + 1) * 16,
      std::to_string(strip) + " rows x " + std::to_string(strip + 1) + " sums of 16 bytes", limits);
}

// Float input: each row's horizontal slide over the strip, then the column's slide over a
// segment after a warm-up of 2r+1 additions (one more than a line's warm-up), and the weights.
double terms(const BlurSettings& s, glm::ivec2 size) {
  const int r = s.kernel.radius;
  return sliding::slide_terms(r, s.workgroup.x) + sliding::slide_terms(r, sliding::segment_steps(s.segment, size.y)) + 1.0 +
         sliding::kScaleTerms;
}

}  // namespace

namespace variant {
extern const VariantInfo compute_sliding_inline{
    .name = "compute-sliding-inline",
    .stage = Stage::Compute,
    .summary = "box only: one dispatch, row running sums into shared memory, column running sums from them",
    .kernels = KernelSupport::BoxOnly,
    .workgroups = {{32, 1}, {16, 1}},
    .unrolls = {4, 1, 8},
    .segments = {256, 64, 1024, 16384},
    .accumulated_terms = terms,
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new ComputeSlidingInline); },
};
}  // namespace variant
}  // namespace blurlab
