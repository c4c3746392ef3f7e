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
    const BlurSettings& s = setup.settings();
    const gl::Format io = s.input_format, mid = s.intermediate_format();
    // rgba32f holds the raw row sums (exact integers for rgba8 input); rgba8 and rgba16f hold
    // row averages.
    const bool raw = mid == gl::Format::rgba32f;
    gl::Defines h = sliding::pass_defines(io, io, false, raw, 1), v = sliding::pass_defines(io, mid, raw, false, 1);
    h.push_back({"AXIS", "0"});
    v.push_back({"AXIS", "1"});
    horizontal_ = &setup.compute("compute_sliding.comp", io, mid, h);
    vertical_ = &setup.compute("compute_sliding.comp", mid, io, v);
  }
  void run(BlurPasses& passes) override {
    const BlurSettings& s = passes.settings();
    const gl::Texture& rows = passes.intermediate(0);
    passes.dispatch("h", *horizontal_, {Binding::read(passes.source()), Binding::write(rows)},
                    sliding::line_pass_groups(passes.size(), 0, s.workgroup, s.segment));
    passes.dispatch("v", *vertical_, {Binding::read(rows), Binding::write(passes.destination())},
                    sliding::line_pass_groups(passes.size(), 1, s.workgroup, s.segment));
  }

 private:
  const gl::Program* horizontal_ = nullptr;
  const gl::Program* vertical_ = nullptr;
};

// Float input: a warm-up and a slide over at most a segment in each pass, and the weights.
double terms(const BlurSettings& s, glm::ivec2 size) {
  const int r = s.kernel.radius;
  return sliding::slide_terms(r, sliding::segment_steps(s.segment, size.x)) +
         sliding::slide_terms(r, sliding::segment_steps(s.segment, size.y)) + 2 * sliding::kScaleTerms;
}

}  // namespace

namespace variant {
extern const VariantInfo compute_sliding{
    .name = "compute-sliding",
    .stage = Stage::Compute,
    .summary = "box only: running sums along rows, then columns, one invocation per line segment",
    .kernels = KernelSupport::BoxOnly,
    .uses_intermediate = true,
    .workgroups = {{64, 1}, {32, 1}, {256, 1}},
    .unrolls = {4, 1, 2, 8, 16, 32},
    .segments = {256, 64, 1024, 16384},
    .accumulated_terms = terms,
    .create = [] { return std::unique_ptr<Blur>(new ComputeSliding); },
};
}  // namespace variant
}  // namespace blurlab
