// frag-separable-linear: two fullscreen fragment passes (horizontal into the intermediate, then
// vertical), each fetching two taps per bilinear sample: r+1 fetches (r+2 for odd r) per pass.
#include "variants/linear_common.h"

namespace blurlab {
namespace {

class FragSeparableLinear final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    horizontal_ = &setup.fragment("frag_separable_linear.frag", {{"AXIS", "0"}});
    vertical_ = &setup.fragment("frag_separable_linear.frag", {{"AXIS", "1"}});
  }
  void run(BlurPasses& passes) override {
    const gl::Texture& rows = passes.intermediate(0);
    passes.draw("h", *horizontal_, {Binding::sampled_linear(passes.source())}, rows);
    passes.draw("v", *vertical_, {Binding::sampled_linear(rows)}, passes.destination());
  }

 private:
  const gl::Program* horizontal_ = nullptr;
  const gl::Program* vertical_ = nullptr;
};

}  // namespace

namespace variant {
extern const VariantInfo frag_separable_linear{
    .name = "frag-separable-linear",
    .stage = Stage::Fragment,
    .summary = "fragment shader, horizontal then vertical pass, two taps per bilinear fetch",
    .uses_intermediate = true,
    .tolerance_lsb = 2,
    .hardware_filtering = true,
    .accumulated_terms = linear::separable_terms,
    .create = [] { return std::unique_ptr<Blur>(new FragSeparableLinear); },
};
}  // namespace variant
}  // namespace blurlab
