// compute-separable-lds: two dispatches (horizontal into the intermediate, then vertical); each
// workgroup caches its line segments plus the apron in shared memory, 2r+1 taps from there.
#include "blur/two_pass.h"
#include "variants/lds.h"

namespace blurlab {
namespace {

// Workgroup knob G x K: K lines of G texels along the pass (the vertical pass runs K x G).
// (G + 2r) x K texels: the cache glsl/compute_separable_lds.comp declares.
int line_texels(const BlurSettings& s) { return (s.workgroup().x + 2 * s.kernel.radius) * s.workgroup().y; }

SharedMemory shared_memory(const BlurSettings& s) {
  const glm::ivec2 wg = s.workgroup();
  return lds::shared_memory(s, line_texels,
                            std::to_string(wg.y) + " line(s) of " + std::to_string(wg.x + 2 * s.kernel.radius) + " " +
                                lds::cache_name(s));
}

}  // namespace

namespace variant {
extern const VariantInfo compute_separable_lds{
    .name = "compute-separable-lds",
    .stage = Stage::Compute,
    .family = Family::SharedMemory,
    .summary = "compute shader, horizontal then vertical dispatch, line segments + apron cached in shared memory",
    .uses_intermediate = true,
    .knobs = {knobs::workgroup({{128, 1}, {32, 1}, {64, 1}, {256, 1}, {64, 4}}), lds::cache_knob({32, 16})},
    .shared_memory = shared_memory,
    .transposed_workgroup = true,
    .create = [] {
      return make_two_pass({.stage = Stage::Compute,
                            .shader = "compute_separable_lds.comp",
                            .defines = [](const BlurSettings& s) { return lds::defines(s, line_texels); },
                            .transpose_vertical = true});
    },
    .own_bound = [](const BlurSettings& s, glm::ivec2 size) { return separable_bound(s, size, 2); },
};
}  // namespace variant
}  // namespace blurlab
