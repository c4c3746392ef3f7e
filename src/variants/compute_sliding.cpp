// compute-sliding: Toschi's "accumulated double pass". Two dispatches: a running box sum along
// each row into the intermediate, then along each column; every output adds the entering texel
// and subtracts the leaving one, so the cost does not grow with r. Lines are cut into segments
// that warm their window up independently, so a 1080p image keeps a big GPU busy.
#include "variants/sliding.h"

namespace blurlab {
namespace {

class ComputeSliding final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    programs_ = sliding::rows_then_columns(setup, "compute_sliding.comp", setup.settings().intermediate_format());
  }
  void run(BlurPasses& passes) override {
    const gl::Texture& rows = passes.intermediate(0);
    sliding::dispatch_line_pass(passes, "h", *programs_.rows, 0, passes.source(), rows);
    sliding::dispatch_line_pass(passes, "v", *programs_.columns, 1, rows, passes.destination());
  }

 private:
  sliding::RowsThenColumns programs_;
};

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
    .summary = "box only: running sums along rows, then columns, one invocation per line segment",
    .kernels = KernelSupport::BoxOnly,
    .uses_intermediate = true,
    .knobs = {knobs::workgroup({{64, 1}, {32, 1}, {256, 1}}), sliding::unroll_knob({4, 1, 2, 8, 16, 32}),
              knobs::segment({128, 64, 256, 1024, 16384})},
    .accumulated_terms = terms,
    .create = [] { return std::unique_ptr<Blur>(new ComputeSliding); },
    .own_bound = sliding::two_pass_bound,
};
}  // namespace variant
}  // namespace blurlab
