// compute-separable: two compute dispatches (horizontal into the intermediate, then vertical),
// one invocation per pixel, 2r+1 taps each.
#include "blur/blur.h"

namespace blurlab {
namespace {

class ComputeSeparable final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const gl::Format io = setup.settings().input_format, mid = setup.settings().intermediate_format();
    horizontal_ = &setup.compute("compute_separable.comp", io, mid, {{"AXIS", "0"}});
    vertical_ = &setup.compute("compute_separable.comp", mid, io, {{"AXIS", "1"}});
  }
  void run(BlurPasses& passes) override {
    const gl::Texture& rows = passes.intermediate(0);
    const glm::ivec3 groups = groups_covering(passes.size(), passes.settings().workgroup);
    passes.dispatch("h", *horizontal_, {Binding::read(passes.source()), Binding::write(rows)}, groups);
    passes.dispatch("v", *vertical_, {Binding::read(rows), Binding::write(passes.destination())}, groups);
  }

 private:
  const gl::Program* horizontal_ = nullptr;
  const gl::Program* vertical_ = nullptr;
};

}  // namespace

namespace variant {
extern const VariantInfo compute_separable{
    .name = "compute-separable",
    .stage = Stage::Compute,
    .summary = "compute shader, horizontal then vertical dispatch, 2r+1 taps each",
    .uses_intermediate = true,
    .workgroups = {{16, 16}, {8, 8}, {64, 4}, {256, 1}},
    .create = [] { return std::unique_ptr<Blur>(new ComputeSeparable); },
};
}  // namespace variant
}  // namespace blurlab
