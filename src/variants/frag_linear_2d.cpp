// frag-linear-2d: one fullscreen fragment pass; each bilinear fetch blends 2x2 texels, so a
// pixel takes (r+1)^2 fetches ((r+2)^2 for odd r) instead of (2r+1)^2 texel reads.
#include "variants/linear_common.h"

namespace blurlab {
namespace {

class FragLinear2d final : public Blur {
 public:
  void prepare(BlurSetup& setup) override { program_ = &setup.fragment("frag_linear_2d.frag"); }
  void run(BlurPasses& passes) override {
    passes.draw("2d", *program_, {Binding::sampled_linear(passes.source())}, passes.destination());
  }

 private:
  const gl::Program* program_ = nullptr;
};

}  // namespace

namespace variant {
extern const VariantInfo frag_linear_2d{
    .name = "frag-linear-2d",
    .stage = Stage::Fragment,
    .family = Family::Bilinear,
    .summary = "fragment shader, one pass, 2x2 texels per bilinear fetch: (r+1)^2 fetches",
    .tolerance_lsb = 2,
    .hardware_filtering = true,
    .accumulated_terms = linear::grid_2d_terms,
    .loop_iterations = linear::grid_2d_iterations,
    .create = [] { return std::unique_ptr<Blur>(new FragLinear2d); },
    .own_bound = linear::grid_2d_bound,
};
}  // namespace variant
}  // namespace blurlab
