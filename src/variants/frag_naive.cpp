// frag-naive: a fullscreen fragment pass that reads all (2r+1)^2 texels per pixel.
#include "blur/blur.h"

namespace blurlab {
namespace {

class FragNaive final : public Blur {
 public:
  void prepare(BlurSetup& setup) override { program_ = &setup.fragment("frag_naive.frag"); }
  void run(BlurPasses& passes) override {
    passes.draw("2d", *program_, {Binding::sampled(passes.source())}, passes.destination());
  }

 private:
  const gl::Program* program_ = nullptr;
};

}  // namespace

namespace variant {
extern const VariantInfo frag_naive{
    .name = "frag-naive",
    .stage = Stage::Fragment,
    .family = Family::Direct,
    .summary = "fragment shader, all (2r+1)^2 taps per pixel in one pass",
    .role = Role::Baseline,
    .accumulated_terms = direct_2d_terms,
    .loop_iterations = direct_2d_terms,  // 2r+1 rows of 2r+1 taps
    .create = [] { return std::unique_ptr<Blur>(new FragNaive); },
    .own_bound = direct_2d_bound,
};
}  // namespace variant
}  // namespace blurlab
