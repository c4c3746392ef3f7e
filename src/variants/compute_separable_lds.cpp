// compute-separable-lds: two dispatches (horizontal into the intermediate, then vertical); each
// workgroup caches its line segments plus the apron in shared memory, 2r+1 taps from there.
#include "variants/lds.h"

namespace blurlab {
namespace {

// Workgroup knob G x K: K lines of G texels along the pass (the vertical pass runs K x G).
// (G + 2r) x K texels: the cache glsl/compute_separable_lds.comp declares.
int line_texels(const BlurSettings& s) { return (s.workgroup.x + 2 * s.kernel.radius) * s.workgroup.y; }

std::optional<std::string> check(const BlurSettings& s, glm::ivec2 /*size*/, const gl::GlLimits& limits) {
  const glm::ivec2 wg = s.workgroup;
  if (wg.y > limits.max_compute_workgroup_size[0] || wg.x > limits.max_compute_workgroup_size[1])
    return "the vertical pass runs the transposed workgroup " + std::to_string(wg.y) + "x" + std::to_string(wg.x) +
           ", above the device's " + std::to_string(limits.max_compute_workgroup_size[0]) + "x" +
           std::to_string(limits.max_compute_workgroup_size[1]);
  return lds::check_budget(s, limits, line_texels,
                           std::to_string(wg.y) + " line(s) of " + std::to_string(wg.x + 2 * s.kernel.radius) + " " +
                               lds::cache_name(s));
}

class ComputeSeparableLds final : public Blur {
 public:
  void prepare(BlurSetup& setup) override {
    const BlurSettings& s = setup.settings();
    const gl::Format io = s.input_format, mid = s.intermediate_format();
    gl::Defines defines = lds::defines(s, line_texels);
    defines.push_back({"AXIS", "0"});
    horizontal_ = &setup.compute("compute_separable_lds.comp", io, mid, defines);
    defines.back().second = "1";
    vertical_ = &setup.compute("compute_separable_lds.comp", mid, io, defines);
  }
  void run(BlurPasses& passes) override {
    const gl::Texture& rows = passes.intermediate(0);
    const glm::ivec2 wg = passes.settings().workgroup;
    passes.dispatch("h", *horizontal_, {Binding::read(passes.source()), Binding::write(rows)},
                    groups_covering(passes.size(), wg));
    passes.dispatch("v", *vertical_, {Binding::read(rows), Binding::write(passes.destination())},
                    groups_covering(passes.size(), {wg.y, wg.x}));
  }

 private:
  const gl::Program* horizontal_ = nullptr;
  const gl::Program* vertical_ = nullptr;
};

}  // namespace

namespace variant {
extern const VariantInfo compute_separable_lds{
    .name = "compute-separable-lds",
    .stage = Stage::Compute,
    .summary = "compute shader, horizontal then vertical dispatch, line segments + apron cached in shared memory",
    .uses_intermediate = true,
    .workgroups = {{128, 1}, {32, 1}, {64, 1}, {256, 1}, {64, 4}},
    .cache_bits = {32, 16},
    .check = check,
    .create = [] { return std::unique_ptr<Blur>(new ComputeSeparableLds); },
};
}  // namespace variant
}  // namespace blurlab
