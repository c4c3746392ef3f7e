// variable-naive: blur that varies across the image (blur/radius_map.h), the direct way: one
// invocation per pixel gathers every tap of its own level's kernel, (2r+1)^2 of them, with that
// level's weights read from a table. The reference on the GPU and the baseline of the variable
// variants: its cost grows with each pixel's r^2.
#include "blur/blur.h"

namespace blurlab {
namespace {

class VariableNaive final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const gl::Format format = setup.settings().input_format;
    program_ = &setup.compute("variable_naive.comp", format, format);
  }
  void run(BlurPasses& passes) override {
    passes.dispatch("2d", *program_,
                    {Binding::read(passes.source()), Binding::write(passes.destination()), Binding::read(passes.radius_levels(), gl::Unit::Levels),
                     Binding::read(passes.level_weights(), gl::Unit::LevelWeights)},
                    groups_covering(passes.size(), passes.settings().workgroup()));
  }

 private:
  const gl::Program* program_ = nullptr;
};

}  // namespace

namespace variant {
extern const VariantInfo variable_naive{
    .name = "variable-naive",
    .stage = Stage::Compute,
    .family = Family::VariableRadius,
    .summary = "per-pixel radius (--radius-map): each pixel gathers all (2r+1)^2 taps of its own kernel",
    .knobs = {knobs::workgroup({{16, 16}, {8, 8}})},
    // At most the largest level's: 2R+1 rows of 2R+1 taps.
    .accumulated_terms = direct_2d_terms,
    .loop_iterations = direct_2d_terms,
    .create = [] { return std::unique_ptr<Blur>(new VariableNaive); },
    .variable_radius = true,
    .own_bound = direct_2d_bound,  // the largest level's; a map of smaller levels needs less
};
}  // namespace variant
}  // namespace blurlab
