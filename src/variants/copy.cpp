// copy: one compute dispatch that reads every texel once and writes it once. Not a blur: the
// floor of memory traffic every blur's time is compared with, so it should be the fastest
// texture-to-texture copy this program can write: several texels per invocation, strided by the
// workgroup width, keep more loads in flight than one texel per invocation does.
#include "blur/blur.h"

namespace blurlab {
namespace {

// Texels per invocation, strided by the workgroup width so each load instruction of a warp
// reads consecutive texels; all loads are issued before the stores.
const Knob kTexels{.name = "texels",
                   .help = "Copy: texels per invocation, strided by the workgroup width, loads before stores",
                   .define = "TEXELS",
                   .min = 1,
                   .max = 16,
                   .candidates = {{2}, {1}, {4}, {8}}};
// How texels move: "typed" images convert to and from floats; "raw" binds the textures as the
// unsigned-integer format of their size and moves bits (Binding::read_raw).
const Knob kAccess{.name = "access",
                   .help = "Copy: typed (format conversion) or raw (uint bits of the texel's size) image access",
                   .define = "RAW",
                   .type = KnobType::Choice,
                   .choices = {{"raw", 1}, {"typed", 0}},
                   .candidates = {{1}, {0}}};

class Copy final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const gl::Format format = setup.settings().input_format;
    program_ = &setup.compute("copy.comp", format, format);
  }
  void run(BlurPasses& passes) override {
    const BlurSettings& s = passes.settings();
    const glm::ivec2 wg = s.workgroup();
    const bool raw = s.integer(kAccess) == 1;
    const gl::Texture &src = passes.source(), &dst = passes.destination();
    passes.dispatch("copy", *program_, {raw ? Binding::read_raw(src) : Binding::read(src), raw ? Binding::write_raw(dst) : Binding::write(dst)},
                    groups_covering(passes.size(), {wg.x * s.integer(kTexels), wg.y}));
  }

 private:
  const gl::Program* program_ = nullptr;
};

}  // namespace

namespace variant {
extern const VariantInfo copy{
    .name = "copy",
    .stage = Stage::Compute,
    .family = Family::Copy,
    .summary = "no blur: reads each texel once and writes it once (the floor)",
    .role = Role::Floor,
    .tolerance_lsb = 0,  // a copy is exact
    // Defaults: the fastest of the candidates measured (docs/EXPERIMENTS.md): 16x16, 2 texels, raw.
    .knobs = {knobs::workgroup({{16, 16}, {64, 4}, {32, 8}, {128, 2}, {256, 1}}), kTexels, kAccess},
    .accumulated_terms = [](const BlurSettings&, glm::ivec2) { return 0.0; },
    .create = [] { return std::unique_ptr<Blur>(new Copy); },
    // Its own bound is the problem's: one read, one write.
    .own_bound = [](const BlurSettings& s, glm::ivec2 size) {
      return WorkBound{.bytes = pass_bytes(size, s.input_format, size, s.input_format)};
    },
};
}  // namespace variant
}  // namespace blurlab
