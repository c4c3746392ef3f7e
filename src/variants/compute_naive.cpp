// compute-naive: one compute dispatch, one invocation per pixel, all (2r+1)^2 taps.
#include "blur/blur.h"

namespace blurlab {
namespace {

class ComputeNaive final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const gl::Format format = setup.settings().input_format;
    program_ = &setup.compute("compute_naive.comp", format, format);
  }
  void run(BlurPasses& passes) override {
    passes.dispatch("2d", *program_, {Binding::read(passes.source()), Binding::write(passes.destination())},
                    groups_covering(passes.size(), passes.settings().workgroup()));
  }

 private:
  const gl::Program* program_ = nullptr;
};

}  // namespace

namespace variant {
extern const VariantInfo compute_naive{
    .name = "compute-naive",
    .stage = Stage::Compute,
    .family = Family::Direct,
    .summary = "compute shader, one invocation per pixel, all (2r+1)^2 taps",
    .role = Role::Baseline,
    .knobs = {knobs::workgroup({{16, 16}, {8, 8}, {32, 8}, {32, 32}})},
    .accumulated_terms = direct_2d_terms,
    .loop_iterations = direct_2d_terms,  // 2r+1 rows of 2r+1 taps
    .create = [] { return std::unique_ptr<Blur>(new ComputeNaive); },
    .own_bound = direct_2d_bound,
};
}  // namespace variant
}  // namespace blurlab
