// compute-separable-linear: two compute dispatches (horizontal into the intermediate, then
// vertical), one invocation per pixel, reading through the linear sampler two taps per fetch
// and writing with imageStore.
#include "variants/linear_common.h"

namespace blurlab {
namespace {

class ComputeSeparableLinear final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    // Sources are sampled, not images: SRC_FORMAT is unused; DST_FORMAT is the written image's.
    const gl::Format io = setup.settings().input_format, mid = setup.settings().intermediate_format();
    horizontal_ = &setup.compute("compute_separable_linear.comp", io, mid, {{"AXIS", "0"}});
    vertical_ = &setup.compute("compute_separable_linear.comp", mid, io, {{"AXIS", "1"}});
  }
  void run(BlurPasses& passes) override {
    const gl::Texture& rows = passes.intermediate(0);
    const glm::ivec3 groups = groups_covering(passes.size(), passes.settings().workgroup);
    passes.dispatch("h", *horizontal_, {Binding::sampled_linear(passes.source()), Binding::write(rows)}, groups);
    passes.dispatch("v", *vertical_, {Binding::sampled_linear(rows), Binding::write(passes.destination())}, groups);
  }

 private:
  const gl::Program* horizontal_ = nullptr;
  const gl::Program* vertical_ = nullptr;
};

}  // namespace

namespace variant {
extern const VariantInfo compute_separable_linear{
    .name = "compute-separable-linear",
    .stage = Stage::Compute,
    .summary = "compute shader, horizontal then vertical dispatch, two taps per bilinear fetch",
    .uses_intermediate = true,
    .tolerance_lsb = 2,
    .hardware_filtering = true,
    .workgroups = {{16, 16}, {8, 8}, {64, 4}, {256, 1}},
    .accumulated_terms = linear::separable_terms,
    .create = [] { return std::unique_ptr<Blur>(new ComputeSeparableLinear); },
};
}  // namespace variant
}  // namespace blurlab
