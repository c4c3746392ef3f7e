// copy: one compute dispatch that reads every texel once and writes it once. Not a blur: the
// floor of memory traffic every blur's time is compared with.
#include "blur/blur.h"

namespace blurlab {
namespace {

class Copy final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const gl::Format format = setup.settings().input_format;
    program_ = &setup.compute("copy.comp", format, format);
  }
  void run(BlurPasses& passes) override {
    passes.dispatch("copy", *program_, {Binding::read(passes.source()), Binding::write(passes.destination())},
                    groups_covering(passes.size(), passes.settings().workgroup()));
  }

 private:
  const gl::Program* program_ = nullptr;
};

}  // namespace

namespace variant {
extern const VariantInfo copy{
    .name = "copy",
    .stage = Stage::Compute,
    .summary = "no blur: reads each texel once and writes it once (the floor)",
    .role = Role::Floor,
    .tolerance_lsb = 0,  // a copy is exact
    .knobs = {knobs::workgroup({{16, 16}, {32, 8}, {64, 4}, {256, 1}})},
    .accumulated_terms = [](const BlurSettings&, glm::ivec2) { return 0.0; },
    .create = [] { return std::unique_ptr<Blur>(new Copy); },
};
}  // namespace variant
}  // namespace blurlab
