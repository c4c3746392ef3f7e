// frag-separable: two fullscreen fragment passes (horizontal into the intermediate, then
// vertical), 2r+1 taps each.
#include "blur/blur.h"

namespace blurlab {
namespace {

class FragSeparable final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    horizontal_ = &setup.fragment("frag_separable.frag", {{"AXIS", "0"}});
    vertical_ = &setup.fragment("frag_separable.frag", {{"AXIS", "1"}});
  }
  void run(BlurPasses& passes) override {
    const gl::Texture& rows = passes.intermediate(0);
    passes.draw("h", *horizontal_, {Binding::sampled(passes.source())}, rows);
    passes.draw("v", *vertical_, {Binding::sampled(rows)}, passes.destination());
  }

 private:
  const gl::Program* horizontal_ = nullptr;
  const gl::Program* vertical_ = nullptr;
};

}  // namespace

namespace variant {
extern const VariantInfo frag_separable{
    .name = "frag-separable",
    .stage = Stage::Fragment,
    .summary = "fragment shader, horizontal then vertical pass, 2r+1 taps each",
    .uses_intermediate = true,
    .create = [] { return std::unique_ptr<Blur>(new FragSeparable); },
};
}  // namespace variant
}  // namespace blurlab
